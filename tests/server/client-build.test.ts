/**
 * The client build keeps the builds before it (scripts/client-build.ts, decision 041): two real builds of different
 * sources into one folder leave the first one's assets in place beside the second's, with a manifest each; and on
 * a folder of made-up builds, a build replaced more than 7 days ago loses its assets (not those a kept build shares),
 * a build replaced less long ago keeps them, and assets from before builds were recorded are kept a week more.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureClientBuilt, installClientBuild, KEEP_REPLACED_BUILD_MS } from '../../scripts/client-build.ts';
import { copyClientSources } from '#tests/helpers/client-sources.ts';
import { tempDir } from '#tests/helpers/server/test-app.ts';

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

describe('a real build', () => {
  it("leaves the first build's assets in place beside the second's", async () => {
    const sources = copyClientSources();
    const outDir = path.join(tempDir('gallery-built-'), 'client');
    folders.push(path.dirname(outDir));
    try {
      await ensureClientBuilt(sources.root, () => {}, outDir);
      const first = assetsOf(outDir);
      const firstPage = fs.readFileSync(path.join(outDir, 'index.html'), 'utf8');
      expect(first.some((name) => /^tree-page-.+\.js$/.test(name))).toBe(true);
      expect(manifestsOf(outDir)).toHaveLength(1);

      // The tree page, a lazy module, changes: a page of the first build still needs the old one.
      sources.change('client/pages/tree-page.tsx', 'aria-label="The tree"', 'aria-label="The tree, second build"');
      await ensureClientBuilt(sources.root, () => {}, outDir);
      const second = assetsOf(outDir);
      expect(fs.readFileSync(path.join(outDir, 'index.html'), 'utf8')).not.toBe(firstPage);
      expect(second.filter((name) => /^tree-page-.+\.js$/.test(name))).toHaveLength(2);
      for (const name of first) expect(second).toContain(name);
      expect(second.length).toBeGreaterThan(first.length);
      expect(manifestsOf(outDir)).toHaveLength(2);
      // Nothing left beside the output from either build.
      expect(fs.readdirSync(path.dirname(outDir))).toEqual(['client']);
    } finally {
      sources.remove();
    }
  }, 180_000);
});

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
