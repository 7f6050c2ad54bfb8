/**
 * An upgrade while people are on the site (decision 041). A member's page comes from one build; a new build of
 * other sources is installed into the folder the server serves, as `npm start` or `npm run build` does, beside the
 * first one's assets (each script brotli'd and gzipped too) with a manifest each. The open page
 * still loads its lazy tree page (the old build's file, kept), learns from a tRPC answer that another build is out,
 * and reloads onto it at its next move to another page; but not while the art editor holds unsaved input. A lazy
 * module that is gone all the same reloads the page once, not again.
 */
import fs from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildClient } from '../../scripts/client-build.ts';
import { CLIENT_BUILD_HEADER } from '#server/http/client-build.ts';
import { LEAVE_EDITOR_QUESTION } from '#client/editor/leave-warning.ts';
import { copyClientSources, type ClientSources } from '#tests/helpers/client-sources.ts';
import { E2E_CLIENT_DIR } from '#tests/helpers/paths.ts';
import { tempDir } from '#tests/helpers/server/test-app.ts';
import {
  availableSquareNextToPublished,
  member,
  reserveAndOpenEditor,
} from '../helpers/browser/art-editor-fixtures.ts';
import { launchBrowser, releaseBrowser, startGallery, type Gallery } from '../helpers/browser/harness.ts';
import { openPage } from '../helpers/browser/pages.ts';

let gallery: Gallery;
let browser: Browser;
let sources: ClientSources;
/** A copy of the browser tests' build, which this file builds over. */
let clientDir: string;

beforeAll(async () => {
  clientDir = path.join(tempDir('gallery-upgrade-'), 'client');
  fs.cpSync(E2E_CLIENT_DIR, clientDir, { recursive: true });
  sources = copyClientSources();
  [gallery, browser] = await Promise.all([startGallery({ clientDir }), launchBrowser('cpu')]);
});
afterAll(async () => {
  await releaseBrowser(browser);
  await gallery?.stop();
  sources?.remove();
  fs.rmSync(path.dirname(clientDir), { recursive: true, force: true });
});

/** A new build of changed sources, installed where the server serves the client from. */
async function upgrade(label: string): Promise<void> {
  sources.change(
    'client/pages/tree-page.tsx',
    /aria-label="[^"]*"/.exec(treePageSource())![0],
    `aria-label="${label}"`,
  );
  await buildClient(sources.root, () => {}, clientDir);
}
const treePageSource = () => fs.readFileSync(path.join(sources.root, 'client/pages/tree-page.tsx'), 'utf8');

const assetsOf = () => fs.readdirSync(path.join(clientDir, 'assets')).sort();
const manifestsOf = () => fs.readdirSync(path.join(clientDir, 'builds')).sort();
/** The assets the newest build installed, as its manifest lists them. */
function newestBuildsAssets(): string[] {
  const newest = manifestsOf().at(-1)!;
  return (JSON.parse(fs.readFileSync(path.join(clientDir, 'builds', newest), 'utf8')) as { assets: string[] }).assets;
}

/** Every script and style sheet worth it is there brotli'd and gzipped too, each the same bytes unpacked. */
function expectPrecompressed(assets: string[]): void {
  const texts = assets.filter((name) => /\.(js|css)$/.test(name));
  const large = texts.filter((name) => fs.statSync(path.join(clientDir, 'assets', name)).size >= 1024);
  expect(large.length).toBeGreaterThan(5);
  for (const name of large) {
    const original = fs.readFileSync(path.join(clientDir, 'assets', name));
    const packed = (suffix: string) => fs.readFileSync(path.join(clientDir, 'assets', `${name}${suffix}`));
    expect(brotliDecompressSync(packed('.br')).equals(original)).toBe(true);
    expect(gunzipSync(packed('.gz')).equals(original)).toBe(true);
  }
}

const buildOfPage = (page: Page) =>
  page.evaluate(() => document.querySelector<HTMLMetaElement>('meta[name="client-build"]')?.content);
/** The build the server hands out now, as a fresh page load would get it. */
const servedBuild = async () =>
  /<meta name="client-build" content="([^"]+)">/.exec(await (await fetch(`${gallery.url}/learn`)).text())?.[1];
/** Marks the document, so that a reload (a new document) shows. */
const mark = (page: Page) => page.evaluate(() => Object.assign(window, { upgradeMark: true }));
const marked = (page: Page) => page.evaluate(() => 'upgradeMark' in window);

async function goByMenu(page: Page, item: string): Promise<void> {
  await page.click('.menu-toggle');
  await page.getByTestId('menu-panel').waitFor({ state: 'visible' });
  await page.click(`[data-testid="menu-panel"] [data-menu-item="${item}"]`);
}

describe('an upgrade while the page is open', () => {
  it("keeps the old page's lazy modules loading, and reloads onto the new build at the next move", async () => {
    const { page, errors } = await member(gallery, browser, 'Upgrader');
    const before = await buildOfPage(page);
    expect(before).toBe(await servedBuild());
    await mark(page);
    const first = assetsOf();
    const manifests = manifestsOf().length;

    await upgrade('The tree, second build');
    const after = await servedBuild();
    expect(after).not.toBe(before);
    // The first build's assets stay beside the second's, each build with its manifest, nothing left beside them.
    const second = assetsOf();
    for (const name of first) expect(second).toContain(name);
    expect(second.filter((name) => /^tree-page-.+\.js$/.test(name)).length).toBe(
      first.filter((name) => /^tree-page-.+\.js$/.test(name)).length + 1,
    );
    expect(manifestsOf()).toHaveLength(manifests + 1);
    expect(fs.readdirSync(path.dirname(clientDir))).toEqual(['client']);
    expectPrecompressed(newestBuildsAssets());

    // The tree page is a lazy module of the old build: it still loads, with the old build's code.
    const treeModule = page.waitForResponse((r) => /\/assets\/tree-page-[^/]+\.js$/.test(r.url()));
    const told = page.waitForResponse((r) => r.url().includes('/trpc/') && r.url().includes('cell.mine'));
    await goByMenu(page, 'observe');
    expect((await treeModule).status()).toBe(200);
    await page.locator('section.tree-page[aria-label="The tree"]').waitFor();
    expect((await told).headers()[CLIENT_BUILD_HEADER.toLowerCase()]).toBe(after);
    expect(await marked(page)).toBe(true);

    // The next move is a full load of where the visitor goes, onto the new build.
    const reloaded = page.waitForEvent('domcontentloaded');
    await goByMenu(page, 'learn');
    await reloaded;
    expect(await marked(page)).toBe(false);
    expect(new URL(page.url()).pathname).toBe('/learn');
    await page.locator('h1').first().waitFor();
    expect(await buildOfPage(page)).toBe(after);
    expect(errors).toEqual([]);
  });

  it('waits while the art editor holds unsaved input', async () => {
    const who = await member(gallery, browser, 'Drafter');
    const { page, errors } = who;
    // The editor's connections query is held back until the new build is in, so its answer brings the news.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/trpc\/[^?]*art\.connections/, async (route) => {
      await held;
      await route.continue();
    });
    await reserveAndOpenEditor(gallery, who, (await availableSquareNextToPublished(gallery)).token);
    await page.getByTestId('field-title').fill('A piece begun before the upgrade');
    await mark(page);

    await upgrade('The tree, third build');
    const after = await servedBuild();
    const told = page.waitForResponse((r) => r.url().includes('art.connections'));
    release();
    expect((await told).headers()[CLIENT_BUILD_HEADER.toLowerCase()]).toBe(after);
    expect(await buildOfPage(page)).not.toBe(after);

    // Leaving asks first; staying keeps the page, its input and its build.
    const questions: string[] = [];
    page.on('dialog', (dialog) => {
      questions.push(dialog.message());
      void (questions.length === 1 ? dialog.dismiss() : dialog.accept());
    });
    await page.click('a.brand');
    await expect.poll(() => questions).toEqual([LEAVE_EDITOR_QUESTION]);
    expect(await page.getByTestId('field-title').inputValue()).toBe('A piece begun before the upgrade');
    // Leaving anyway is not turned into a reload either: the editor still held the input as the move began.
    await page.click('a.brand');
    await page.waitForURL((url) => url.pathname === '/');
    await expect.poll(() => questions).toHaveLength(2);
    await page.waitForTimeout(300);
    expect(await marked(page)).toBe(true);
    expect(await buildOfPage(page)).not.toBe(after);

    // With the editor gone, the next move loads the new build.
    const reloaded = page.waitForEvent('domcontentloaded');
    await goByMenu(page, 'learn');
    await reloaded;
    expect(await marked(page)).toBe(false);
    expect(new URL(page.url()).pathname).toBe('/learn');
    expect(await buildOfPage(page)).toBe(after);
    expect(errors).toEqual([]);
  });

  it('reloads once when a lazy module cannot be loaded, and not again from the same build', async () => {
    const { page } = await openPage(browser);
    await page.goto(`${gallery.url}/learn`);
    await page.locator('h1').first().waitFor();
    // Every build's tree page goes missing, as if the page were older than the builds kept.
    const assets = path.join(clientDir, 'assets');
    const aside = tempDir('gallery-aside-');
    // With its brotli and gzip copies: a build's assets go together.
    const missing = fs.readdirSync(assets).filter((name) => /^tree-page-.+\.js(\.br|\.gz)?$/.test(name));
    for (const name of missing) fs.renameSync(path.join(assets, name), path.join(aside, name));
    try {
      let loads = 0;
      let failures = 0;
      page.on('domcontentloaded', () => loads++);
      page.on('response', (r) => {
        if (/\/assets\/tree-page-[^/]+\.js$/.test(r.url()) && r.status() === 404) failures++;
      });
      await goByMenu(page, 'observe');
      // The first document fails and reloads; the second fails too (it may ask twice: its early start and its route)
      // and stays.
      await expect.poll(() => loads === 1 && failures >= 2, { timeout: 20_000 }).toBe(true);
      await page.waitForTimeout(1_500);
      expect(loads).toBe(1);
      expect(new URL(page.url()).pathname).toBe('/observe');
    } finally {
      for (const name of missing) fs.renameSync(path.join(aside, name), path.join(assets, name));
      fs.rmSync(aside, { recursive: true, force: true });
    }
  });
});
