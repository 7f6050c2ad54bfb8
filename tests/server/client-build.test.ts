/**
 * The client build keeps the builds before it (scripts/client-build.ts, decision 041). Two real builds into one folder
 * are proved in tests/e2e/client-upgrade.test.ts (which builds anyway, over the browser tests' build); here, on
 * a folder of made-up builds, a build replaced more than 7 days ago loses its assets (not those a kept build shares),
 * a build replaced less long ago keeps them, and assets from before builds were recorded are kept a week more.
 */
import fs from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { installClientBuild, KEEP_REPLACED_BUILD_MS, precompressAssets } from '../../scripts/client-build.ts';
import { createTestApp, tempDir } from '#tests/helpers/server/test-app.ts';

const DAY = 24 * 60 * 60 * 1000;
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

const assetsOf = (outDir: string) => fs.readdirSync(path.join(outDir, 'assets')).sort();
const manifestsOf = (outDir: string) => fs.readdirSync(path.join(outDir, 'builds')).sort();

/** A build's output as Vite leaves it: pages, a favicon and hashed assets. */
function staged(name: string, assets: string[]): string {
  const dir = tempDir('gallery-staging-');
  folders.push(dir);
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.mkdirSync(path.join(dir, 'admin'));
  fs.writeFileSync(path.join(dir, 'index.html'), `<html><head><title>${name}</title></head></html>`);
  fs.writeFileSync(path.join(dir, 'admin/index.html'), `<html><head><title>${name} admin</title></head></html>`);
  fs.writeFileSync(path.join(dir, 'favicon.svg'), '<svg/>');
  for (const asset of assets) fs.writeFileSync(path.join(dir, 'assets', asset), `// ${name}: ${asset}`);
  return dir;
}

describe('keeping and removing earlier builds', () => {
  const now = Date.UTC(2026, 11, 1);

  it('removes the assets of builds replaced over 7 days ago, and keeps the rest', () => {
    const outDir = tempDir('gallery-client-');
    folders.push(outDir);
    installClientBuild(staged('oldest', ['oldest.js', 'shared.js']), outDir, now - 20 * DAY);
    installClientBuild(staged('older', ['older.js', 'shared.js']), outDir, now - 9 * DAY);
    installClientBuild(staged('previous', ['previous.js', 'shared.js']), outDir, now - 3 * DAY);
    // So far each was replaced less than 7 days before the next was installed: nothing removed.
    expect(assetsOf(outDir)).toEqual(['older.js', 'oldest.js', 'previous.js', 'shared.js']);

    const installed = installClientBuild(staged('current', ['current.js', 'shared.js']), outDir, now);
    // 'oldest' was replaced 9 days ago: gone. 'older' was replaced 3 days ago, 'previous' now: kept. The shared
    // file stays, the current build and its pages are in place.
    expect(installed.removed).toEqual(['assets/oldest.js']);
    expect(assetsOf(outDir)).toEqual(['current.js', 'older.js', 'previous.js', 'shared.js']);
    expect(fs.readFileSync(path.join(outDir, 'index.html'), 'utf8')).toContain('<title>current</title>');
    expect(fs.readFileSync(path.join(outDir, 'admin/index.html'), 'utf8')).toContain('current admin');
    expect(fs.readFileSync(path.join(outDir, 'assets/current.js'), 'utf8')).toBe('// current: current.js');
    expect(manifestsOf(outDir)).toHaveLength(3);
    expect(manifestsOf(outDir).some((name) => name.startsWith(`${now - 20 * DAY}-`))).toBe(false);

    // A week after 'current' replaced 'previous', the next build removes both 'older' and 'previous'.
    installClientBuild(staged('next', ['next.js', 'shared.js']), outDir, now + KEEP_REPLACED_BUILD_MS + 1);
    expect(assetsOf(outDir)).toEqual(['current.js', 'next.js', 'shared.js']);
    expect(manifestsOf(outDir)).toHaveLength(2);
  });

  it('keeps the current build however old it is', () => {
    const outDir = tempDir('gallery-client-');
    folders.push(outDir);
    installClientBuild(staged('only', ['only.js']), outDir, now - 400 * DAY);
    installClientBuild(staged('same', ['only.js']), outDir, now);
    expect(assetsOf(outDir)).toEqual(['only.js']);
  });

  it('keeps assets built before builds were recorded for a week after the first recorded build', () => {
    const outDir = tempDir('gallery-client-');
    folders.push(outDir);
    fs.mkdirSync(path.join(outDir, 'assets'));
    fs.writeFileSync(path.join(outDir, 'assets/unrecorded.js'), '// built long ago');
    fs.utimesSync(path.join(outDir, 'assets/unrecorded.js'), new Date(now - 90 * DAY), new Date(now - 90 * DAY));
    installClientBuild(staged('first', ['first.js']), outDir, now);
    expect(assetsOf(outDir)).toEqual(['first.js', 'unrecorded.js']);
    installClientBuild(staged('second', ['second.js']), outDir, now + 8 * DAY);
    // The unrecorded files count as the build 'first' replaced; 'first' itself was replaced only now.
    expect(assetsOf(outDir)).toEqual(['first.js', 'second.js']);
  });
});

describe('serving the assets', () => {
  it('sends a script brotli’d or gzipped as the browser takes it, and as it is otherwise', async () => {
    const clientDir = tempDir('gallery-client-');
    folders.push(clientDir);
    fs.mkdirSync(path.join(clientDir, 'assets'));
    const script = Buffer.from(`export const squares = [${Array.from({ length: 2000 }, (_, i) => i).join(', ')}];\n`);
    fs.writeFileSync(path.join(clientDir, 'assets', 'squares-a1b2c3.js'), script);
    fs.writeFileSync(path.join(clientDir, 'assets', 'tiny-a1b2c3.js'), 'export {};\n');
    await precompressAssets(path.join(clientDir, 'assets'));
    expect(fs.readdirSync(path.join(clientDir, 'assets')).sort()).toEqual([
      'squares-a1b2c3.js',
      'squares-a1b2c3.js.br',
      'squares-a1b2c3.js.gz',
      'tiny-a1b2c3.js',
    ]);
    const t = await createTestApp({ clientDir });
    try {
      const get = (acceptEncoding?: string) =>
        t.server.inject({
          method: 'GET',
          url: '/assets/squares-a1b2c3.js',
          headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {},
        });
      const br = await get('gzip, deflate, br');
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers['content-type']).toMatch(/javascript/);
      expect(br.headers['cache-control']).toMatch(/immutable/);
      expect(brotliDecompressSync(br.rawPayload).equals(script)).toBe(true);
      expect(br.rawPayload.length).toBeLessThan(script.length / 2);
      const gz = await get('gzip');
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gz.rawPayload).equals(script)).toBe(true);
      const plain = await get();
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.rawPayload.equals(script)).toBe(true);
    } finally {
      await t.cleanup();
    }
  });
});
