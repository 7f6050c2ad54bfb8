/**
 * The tree's first sketch (server/services/tree/tree-sketch.ts, client/tree/tree-sketch.ts) in a real browser: the
 * opening view drawn at the engine's camera in each square's colour, for the default view and a shared link alike,
 * replaced by the engine's first frame, never outliving the page or covering a notice.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { CellStatus } from '#shared/domain.ts';
import { CELL_PITCH as PITCH } from '#shared/tree/camera.ts';
import { PALETTE } from '#shared/tree/cell-look.ts';
import '#client/tree/engine/stats.ts';
import '#client/tree/tree-sketch.ts';
import { launchBrowser, releaseBrowser, startGallery, type Gallery } from '../helpers/browser/harness.ts';
import { reusablePage } from '../helpers/browser/pages.ts';
import { decodedTree, rgb } from '../helpers/browser/tree-pixels.ts';

/** The tree's canvas, which brings PixiJS: held, the engine cannot start. */
const CANVAS_CHUNK = /\/assets\/tree-canvas-[^/]*\.js$/;
const TREE_PAGE_CHUNK = /\/assets\/tree-page-[^/]*\.js$/;

let gallery: Gallery;
let browser: Browser;
/** One page for the file, taken by each test as a new one (no routes, cookies or storage of the last test). */
const tab = reusablePage(() => browser);

beforeAll(async () => {
  [gallery, browser] = await Promise.all([startGallery(), launchBrowser()]);
});

afterAll(async () => {
  await releaseBrowser(browser);
  await gallery?.stop();
});

/** The file's page, whose canvas chunk (or another) waits until `release()`: the engine cannot start before that. */
async function pageWithEngineHeld(
  chunk = CANVAS_CHUNK,
): Promise<{ page: Page; errors: string[]; release: () => void }> {
  const { page, errors } = await tab.take();
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(chunk, async (route) => {
    await held;
    await route.continue();
  });
  return { page, errors, release };
}

const sketchShown = (page: Page) => page.locator('.tree-sketch').waitFor({ timeout: 30_000 });
const sketchCount = (page: Page) => page.locator('.tree-sketch').count();

/** A published square with a colour, away from the seed band's middle, for the shared links below: it is centred. */
async function publishedSquare(): Promise<{ row: number; column: number; token: string }> {
  const cells = await decodedTree(gallery);
  const i = [...cells.status.keys()]
    .reverse()
    .find((k) => cells.status[k] === CellStatus.Published && cells.color[k]! >= 0 && cells.token?.[k]);
  expect(i, 'the seeded tree has a published piece').toBeDefined();
  return { row: cells.row[i!]!, column: cells.col[i!]!, token: cells.token![i!]! };
}

describe('the first sketch of the tree', () => {
  it.each([
    ['the default view', async () => '/observe'],
    [
      'a shared link to a position and zoom',
      async () => {
        const { row, column } = await publishedSquare();
        return `/observe?row=${row}&col=${column}&zoom=1.5`;
      },
    ],
    ['a shared link to a cell', async () => `/observe?cell=${(await publishedSquare()).token}&zoom=2`],
    ['an address with a zoom off the scale (the default view)', async () => '/observe?row=3&col=1&zoom=9'],
  ])('shows %s before the engine, each square where and as the engine draws it, then gives way', async (_, pathOf) => {
    const { page, errors, release } = await pageWithEngineHeld();
    await page.goto(`${gallery.url}${await pathOf()}`);
    await sketchShown(page);
    expect(await sketchCount(page)).toBe(1);
    expect(await page.evaluate(() => window.__treeStats?.firstFrameAt ?? null)).toBeNull();
    const sketch = await sharp(await page.screenshot())
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    // The tree's panel lies over the sketch once the tree page has rendered (tree.css), PixiJS or not, and its shadow
    // (--shadow: 4 px down, 16 px of blur) darkens the sketch around it by a few levels.
    const panel = (await (await page.$('.tree-panel-area'))?.boundingBox()) ?? null;
    const SHADOW = 24;
    const underPanel = (x: number, y: number) =>
      panel !== null &&
      x >= panel.x - SHADOW &&
      x <= panel.x + panel.width + SHADOW &&
      y >= panel.y - SHADOW &&
      y <= panel.y + panel.height + SHADOW;

    release();
    await page.waitForSelector('[data-tree-ready="true"]', { timeout: 60_000 });
    expect(await sketchCount(page)).toBe(0);
    const camera = await page.evaluate(() => ({ ...window.__treeStats! }));
    const box = (await page.locator('.tree-canvas').boundingBox())!;

    // Every square on screen, at the engine's camera: the sketch shows a published one's colour in its middle and an
    // available one's light fill (away from its outline and plus).
    const cells = await decodedTree(gallery);
    const pixel = (x: number, y: number) => {
      const at = (Math.round(y) * sketch.info.width + Math.round(x)) * sketch.info.channels;
      return [sketch.data[at]!, sketch.data[at + 1]!, sketch.data[at + 2]!];
    };
    const checked = { published: 0, available: 0 };
    for (let i = 0; i < cells.count; i++) {
      const status = cells.status[i]!;
      const published = status === CellStatus.Published && cells.color[i]! >= 0;
      if (!published && status !== CellStatus.Available) continue;
      const inset = published ? 50 : 25;
      const x = box.x + (cells.col[i]! * PITCH + inset - camera.x) * camera.scale;
      const y = box.y + (cells.row[i]! * PITCH + inset - camera.y) * camera.scale;
      if (x < box.x + 2 || y < box.y + 2 || x > box.x + box.width - 2 || y > box.y + box.height - 2 || underPanel(x, y))
        continue;
      const expected = rgb(published ? cells.color[i]! : PALETTE.availableFill);
      pixel(x, y).forEach((channel, c) => expect(Math.abs(channel - expected[c]!)).toBeLessThanOrEqual(3));
      checked[published ? 'published' : 'available']++;
    }
    // How many squares a view holds depends on the seeded tree and the zoom (at 2, a dozen or so): a shared link's
    // own square is published and centred, so each view has at least one in its colour.
    expect(checked.published).toBeGreaterThanOrEqual(1);
    expect(checked.published + checked.available).toBeGreaterThanOrEqual(3);
    expect(errors).toEqual([]);
  });

  it.each([
    ['the engine is ready', CANVAS_CHUNK],
    ['the tree page has even arrived', TREE_PAGE_CHUNK],
  ])('leaves with the page when the visitor goes elsewhere before %s', async (_, chunk) => {
    const { page, errors, release } = await pageWithEngineHeld(chunk);
    await page.goto(`${gallery.url}/observe`);
    await sketchShown(page);
    await page
      .getByRole('link', { name: /gallery tree/i })
      .first()
      .click();
    await page.waitForURL((url) => url.pathname === '/');
    expect(await sketchCount(page)).toBe(0);
    release();
    expect(errors).toEqual([]);
  });

  it('hides while the menu is open and shows again when it closes, as the tree does', async () => {
    const { page, errors, release } = await pageWithEngineHeld();
    await page.goto(`${gallery.url}/observe`);
    await sketchShown(page);
    const menu = page.getByRole('button', { name: 'menu', exact: true });
    await menu.click();
    await page.getByTestId('menu-panel').waitFor();
    await expect.poll(() => page.locator('.tree-sketch').isVisible()).toBe(false);
    await page.getByRole('button', { name: 'close', exact: true }).click();
    await expect.poll(() => page.locator('.tree-sketch').isVisible()).toBe(true);
    release();
    await page.waitForSelector('[data-tree-ready="true"]', { timeout: 60_000 });
    expect(await sketchCount(page)).toBe(0);
    expect(errors).toEqual([]);
  });

  it('never stays over the notice of a tree that could not be loaded', async () => {
    const { page } = await tab.take();
    await page
      .context()
      .route(/\/api\/tree\/[^/?]+$/, (route) =>
        route.fulfill({ status: 500, contentType: 'application/json', body: '{"r":{"error":"internal_error"}}' }),
      );
    await page.goto(`${gallery.url}/observe`);
    await page.getByRole('alert').filter({ hasText: 'The tree could not be loaded.' }).waitFor({ timeout: 30_000 });
    expect(await page.evaluate(() => window.__treeSketch?.removedAt ?? null)).not.toBeNull();
    expect(await sketchCount(page)).toBe(0);
  });
});
