// Runs before `npm start` and `npm test`, on whatever Node the newcomer has: one clear line instead of a stack trace
// when that Node is older than package.json's `engines`, or when the native modules were built for another Node.
// Plain JavaScript on purpose, with nothing newer than the oldest Node it may meet needs.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const wanted = /(\d+)\.(\d+)/.exec(pkg.engines.node);
const major = Number(wanted[1]);
const minor = Number(wanted[2]);
const [haveMajor, haveMinor] = process.versions.node.split('.').map(Number);

if (haveMajor < major || (haveMajor === major && haveMinor < minor)) {
  console.error(
    `Gallery Tree needs Node.js ${major}.${minor} or newer; this is Node.js ${process.versions.node}. ` +
      `Get it with a version manager (\`nvm install\` or \`fnm install\` read .nvmrc; \`volta install node@${major}\`), ` +
      'then run `npm rebuild` and this command again.',
  );
  process.exit(1);
}

try {
  const Database = require('better-sqlite3');
  new Database(':memory:').close();
} catch (error) {
  if (error && error.code === 'ERR_DLOPEN_FAILED') {
    console.error(
      `The native modules in node_modules were built for another Node.js than this one (${process.versions.node}): ` +
        'run `npm rebuild`, then this command again.',
    );
    process.exit(1);
  }
  throw error;
}
