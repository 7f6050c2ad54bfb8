/**
 * Builds the client when its build is missing or older than its sources, so `npm start` on a fresh clone and the
 * browser tests both find an up-to-date dist/client without a separate step.
 */
import fs from 'node:fs';
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

export function clientBuildIsStale(root: string): boolean {
  const built = path.join(root, 'dist/client/index.html');
  if (!fs.existsSync(built)) return true;
  const builtAt = fs.statSync(built).mtimeMs;
  return SOURCES.some((source) => newestMtime(path.join(root, source)) > builtAt);
}

export async function ensureClientBuilt(root: string, log: (line: string) => void = console.log): Promise<void> {
  if (!clientBuildIsStale(root)) return;
  log('Building the client (dist/client is missing or older than its sources)...');
  const started = Date.now();
  const { build } = await import('vite');
  await build({ root: path.join(root, 'client'), configFile: path.join(root, 'vite.config.ts'), logLevel: 'warn' });
  log(`Client built in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}
