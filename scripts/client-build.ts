/**
 * Builds the client when its build is missing or older than its sources, so `npm start` on a fresh clone and the
 * browser tests both find an up-to-date dist/client without a separate step.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const SOURCES = ['client', 'shared', 'vite.config.ts', 'package.json'];

function newestMtime(entry: string): number {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(entry);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of fs.readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

export function clientBuildIsStale(root: string, outDir = path.join(root, 'dist/client')): boolean {
  const built = path.join(outDir, 'index.html');
  if (!fs.existsSync(built)) return true;
  const builtAt = fs.statSync(built).mtimeMs;
  return SOURCES.some((source) => newestMtime(path.join(root, source)) > builtAt);
}

/** `outDir` defaults to dist/client; browser tests may build elsewhere (E2E_CLIENT_DIR) so parallel runs never share one. */
export async function ensureClientBuilt(
  root: string,
  log: (line: string) => void = console.log,
  outDir = path.join(root, 'dist/client'),
): Promise<void> {
  if (!clientBuildIsStale(root, outDir)) return;
  log(`Building the client (${path.relative(root, outDir) || outDir} is missing or older than its sources)...`);
  const started = Date.now();
  await buildForProduction(root, outDir);
  log(`Client built in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}

/**
 * `vite build` in a child process with NODE_ENV=production. Vite takes NODE_ENV from the environment when it is
 * set, and the test runner sets it to 'test': built in-process from there, the bundle would carry React's
 * development build (about 2.5 times the code, and slower at every render).
 */
function buildForProduction(root: string, outDir: string): Promise<void> {
  const vite = path.join(
    path.dirname(createRequire(path.join(root, 'package.json')).resolve('vite/package.json')),
    'bin/vite.js',
  );
  const args = [
    vite,
    'build',
    '--config',
    path.join(root, 'vite.config.ts'),
    '--outDir',
    outDir,
    '--emptyOutDir',
    '--logLevel',
    'warn',
  ];
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`The client build failed (exit ${code}):\n${output}`)),
    );
  });
}
