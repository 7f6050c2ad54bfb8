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
  const { build } = await import('vite');
  await build({
    root: path.join(root, 'client'),
    configFile: path.join(root, 'vite.config.ts'),
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true },
  });
  log(`Client built in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}
