/**
 * Builds the client when its build is missing or older than its sources, so `npm start` on a fresh clone and the
 * browser tests both find an up-to-date dist/client without a separate step.
 *
 * A build never deletes the files of the one before (decision 041): pages opened before an upgrade still load their
 * lazy modules from it. Vite builds into a new folder beside the output; its hashed assets are moved in beside the
 * old ones, the pages (index.html last) replace theirs by a rename, and builds/ keeps one small manifest per build
 * (when it was installed, which assets it has). Assets no build still needs are removed: a build is kept while it is
 * the current one and for 7 days after another replaced it.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip as gzipCallback } from 'node:zlib';
import { clientBuildIdOf } from '#server/http/client-build.ts';

const SOURCES = ['client', 'shared', 'vite.config.ts', 'package.json'];

const brotli = promisify(brotliCompress);
const gzip = promisify(gzipCallback);

/** How long the assets of a build stay after a newer build replaced it. */
export const KEEP_REPLACED_BUILD_MS = 7 * 24 * 60 * 60 * 1000;

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
  await buildClient(root, log, outDir);
}

/** Builds the client and installs it into `outDir` beside the builds before it (`npm run build`). */
export async function buildClient(
  root: string,
  log: (line: string) => void = console.log,
  outDir = path.join(root, 'dist/client'),
): Promise<void> {
  const started = Date.now();
  // Beside the output, so that its files move in by a rename (one file system).
  fs.mkdirSync(path.dirname(outDir), { recursive: true });
  const staging = fs.mkdtempSync(path.join(path.dirname(outDir), `.${path.basename(outDir)}-building-`));
  try {
    await buildForProduction(root, staging);
    await precompressAssets(path.join(staging, 'assets'));
    const installed = installClientBuild(staging, outDir);
    const removed = installed.removed.length > 0 ? `; ${installed.removed.length} old files removed` : '';
    log(`Client built in ${((Date.now() - started) / 1000).toFixed(1)} s (build ${installed.id}${removed}).`);
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/** Assets worth sending compressed: text. Pictures and fonts are compressed already. */
const COMPRESSIBLE = /\.(?:js|mjs|css|svg|json|txt|html|wasm)$/;
/** Smaller files gain nothing worth a second file. */
const COMPRESS_FROM_BYTES = 1024;

/**
 * Writes `NAME.br` (brotli, best) and `NAME.gz` (gzip -9) beside each text asset, once at build time, so that the
 * server sends a browser the smallest encoding it takes without compressing on every request (pages.ts serves them
 * with @fastify/static's preCompressed). They are assets of the build like the others, kept and pruned with them.
 */
export async function precompressAssets(assetsDir: string): Promise<void> {
  const names = filesUnder(assetsDir).filter((name) => COMPRESSIBLE.test(name));
  await Promise.all(
    names.map(async (name) => {
      const full = path.join(assetsDir, name);
      const bytes = await fs.promises.readFile(full);
      if (bytes.length < COMPRESS_FROM_BYTES) return;
      const [br, gz] = await Promise.all([
        brotli(bytes, {
          params: {
            [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY,
            [zlibConstants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
            [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
          },
        }),
        gzip(bytes, { level: 9 }),
      ]);
      await Promise.all([fs.promises.writeFile(`${full}.br`, br), fs.promises.writeFile(`${full}.gz`, gz)]);
    }),
  );
}

/** One build's record in `<outDir>/builds/`. */
interface BuildManifest {
  id: string;
  installedAt: number;
  /** Its files under assets/, by name. */
  assets: string[];
}

const MANIFESTS = 'builds';

function filesUnder(dir: string, prefix = ''): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    return entry.isDirectory() ? filesUnder(path.join(dir, entry.name), relative) : [relative];
  });
}

function readManifests(outDir: string): { file: string; manifest: BuildManifest }[] {
  const dir = path.join(outDir, MANIFESTS);
  return filesUnder(dir)
    .filter((name) => name.endsWith('.json'))
    .flatMap((name) => {
      try {
        const manifest = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as BuildManifest;
        return Number.isFinite(manifest.installedAt) && Array.isArray(manifest.assets)
          ? [{ file: path.join(dir, name), manifest }]
          : [];
      } catch {
        return [];
      }
    })
    .sort((a, b) => a.manifest.installedAt - b.manifest.installedAt || a.file.localeCompare(b.file));
}

function writeManifest(outDir: string, manifest: BuildManifest): void {
  const file = path.join(outDir, MANIFESTS, `${manifest.installedAt}-${manifest.id}.json`);
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(manifest));
  fs.renameSync(`${file}.tmp`, file);
}

/** A rename, or a copy then a rename where `from` is on another file system: either way `to` changes at once. */
function moveInto(from: string, to: string): void {
  fs.mkdirSync(path.dirname(to), { recursive: true });
  try {
    fs.renameSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    fs.copyFileSync(from, `${to}.tmp`);
    fs.renameSync(`${to}.tmp`, to);
  }
}

/**
 * Moves the build in `staging` into `outDir` without taking anything from the pages already open, then removes what
 * no build needs any more. In order: the new build's manifest (so that another process installing at the same time
 * never removes its files), its assets beside the old ones, the other files, the pages with index.html last; then
 * the assets that belong to no build still kept (the current one, and those replaced less than 7 days ago).
 */
export function installClientBuild(
  staging: string,
  outDir: string,
  now = Date.now(),
): { id: string; removed: string[] } {
  const files = filesUnder(staging);
  const assets = files.filter((file) => file.startsWith('assets/')).map((file) => file.slice('assets/'.length));
  const pages = files
    .filter((file) => file.endsWith('.html'))
    .sort((a, b) => Number(a === 'index.html') - Number(b === 'index.html'));
  const others = files.filter((file) => !file.startsWith('assets/') && !file.endsWith('.html'));
  const id = clientBuildIdOf(fs.readFileSync(path.join(staging, 'index.html'), 'utf8'));
  fs.mkdirSync(path.join(outDir, MANIFESTS), { recursive: true });

  // Assets no manifest names came from a build made before builds were recorded: the build being replaced now.
  const recorded = new Set(readManifests(outDir).flatMap(({ manifest }) => manifest.assets));
  const unrecorded = filesUnder(path.join(outDir, 'assets')).filter((name) => !recorded.has(name));
  if (unrecorded.length > 0) writeManifest(outDir, { id: 'unrecorded', installedAt: now - 1, assets: unrecorded });

  writeManifest(outDir, { id, installedAt: now, assets });
  for (const name of assets) moveInto(path.join(staging, 'assets', name), path.join(outDir, 'assets', name));
  for (const file of [...others, ...pages]) moveInto(path.join(staging, file), path.join(outDir, file));
  return { id, removed: pruneClientBuilds(outDir, now) };
}

/**
 * Removes the assets of builds replaced more than 7 days ago, and their manifests; the newest build is always
 * kept, and so is an asset a kept build shares. An asset no manifest names is left until it is 7 days old (another
 * process may be installing it). Answers the names removed.
 */
export function pruneClientBuilds(outDir: string, now = Date.now()): string[] {
  const manifests = readManifests(outDir);
  const keep = new Set<string>();
  const named = new Set<string>();
  const removed: string[] = [];
  manifests.forEach(({ file, manifest }, i) => {
    for (const name of manifest.assets) named.add(name);
    const replacedAt = manifests[i + 1]?.manifest.installedAt;
    if (replacedAt === undefined || replacedAt > now - KEEP_REPLACED_BUILD_MS) {
      for (const name of manifest.assets) keep.add(name);
    } else {
      fs.rmSync(file, { force: true });
    }
  });
  const assetsDir = path.join(outDir, 'assets');
  for (const name of filesUnder(assetsDir)) {
    if (keep.has(name)) continue;
    const full = path.join(assetsDir, name);
    if (!named.has(name) && fs.statSync(full).mtimeMs > now - KEEP_REPLACED_BUILD_MS) continue;
    fs.rmSync(full, { force: true });
    removed.push(`assets/${name}`);
  }
  return removed;
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
    // A new, empty folder of its own (see buildClient): never the folder pages are served from.
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
