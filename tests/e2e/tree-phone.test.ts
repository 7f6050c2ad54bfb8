/**
 * The tree on a dense phone screen (390 × 844 CSS pixels, three device pixels to each): the first view (and the
 * server's sketch of it) holds the trunk's whole width with no square under the panel, pictures show as soon as
 * squares are big enough in device pixels, and the search box's placeholder is read whole.
 */
import sharp from 'sharp';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TREE_VIEW } from '#shared/constants.ts';
import { CellStatus } from '#shared/domain.ts';
import { CELL_PITCH, CELL_SIZE } from '#shared/tree/camera.ts';
import type { TreeSettings } from '#shared/tree/geometry.ts';
import { seedViewTarget } from '#shared/tree/layout.ts';
import { getDefaultTree } from '#server/services/tree/tree.ts';
import { THUMBNAIL_MIN_DEVICE_PX } from '#client/tree/engine/thumbnail-size.ts';
import { launchBrowser, releaseBrowser, startGallery, type Gallery, watchErrors } from '../helpers/browser/harness.ts';
import { WIDE } from '../helpers/browser/pages.ts';
import { decodedTree, rgb } from '../helpers/browser/tree-pixels.ts';
import { openTree, stats, treeReady } from '../helpers/browser/tree-page.ts';

const PHONE = { width: 390, height: 844 };
const DEVICE_PIXELS = 3;

let gallery: Gallery;
let browser: Browser;
let page: Page;
let errors: string[];
let settings: TreeSettings;
let context: BrowserContext;

type Box = { x: number; y: number; width: number; height: number };

function overlap(a: Box, b: Box): Box | null {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const right = Math.min(a.x + a.width, b.x + b.width);
  const bottom = Math.min(a.y + a.height, b.y + b.height);
  return right > x && bottom > y ? { x, y, width: right - x, height: bottom - y } : null;
}

beforeAll(async () => {
  [gallery, browser] = await Promise.all([startGallery(), launchBrowser()]);
  settings = (await getDefaultTree(gallery.app.deps.db))!.settings as TreeSettings;
  context = await browser.newContext({
    viewport: PHONE,
    deviceScaleFactor: DEVICE_PIXELS,
    hasTouch: true,
    isMobile: true,
  });
  page = await context.newPage();
  errors = watchErrors(page);
});

afterAll(async () => {
  await releaseBrowser(browser);
  await gallery?.stop();
});

describe('the tree on a phone', () => {
  it("opens on the trunk's whole width, and no square of it lies under the panel", async () => {
    await openTree(page, gallery);
    const s = await stats(page);
    const canvas = (await page.locator('.tree-canvas').boundingBox())!;
    const panel = (await page.getByRole('toolbar', { name: 'Tree view' }).boundingBox())!;
    expect(s.scale).toBeLessThan(TREE_VIEW.zoomDefault);
    const screenRect = (row: number, column: number): Box => ({
      x: canvas.x + (column * CELL_PITCH - s.x) * s.scale,
      y: canvas.y + (row * CELL_PITCH - s.y) * s.scale,
      width: CELL_SIZE * s.scale,
      height: CELL_SIZE * s.scale,
    });

    // Every column of the trunk is on screen whole, from its first column's left edge to its last's right edge.
    const middleRow = Math.floor(seedViewTarget(settings).y / CELL_PITCH);
    const first = screenRect(middleRow, 0);
    const last = screenRect(middleRow, settings.trunk.columns - 1);
    expect(first.x).toBeGreaterThanOrEqual(canvas.x);
    expect(last.x + last.width).toBeLessThanOrEqual(canvas.x + canvas.width);

    // Each square of the trunk's columns on the canvas (clipped to it, as it is drawn) stays clear of the panel.
    const topRow = Math.floor(s.y / CELL_PITCH);
    const bottomRow = Math.ceil((s.y + canvas.height / s.scale) / CELL_PITCH);
    let seen = 0;
    for (let row = topRow; row <= bottomRow; row++) {
      for (let column = 0; column < settings.trunk.columns; column++) {
        const drawn = overlap(screenRect(row, column), canvas);
        if (!drawn) continue;
        seen++;
        expect(overlap(drawn, panel), `the square at ${row}:${column}`).toBeNull();
      }
    }
    expect(seen).toBeGreaterThan(settings.trunk.columns * 5);
  });

  it("draws the first sketch at that same view, under the panel's strip, before the engine takes over", async () => {
    const sketchPage = await context.newPage();
    const sketchErrors = watchErrors(sketchPage);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    // The tree's canvas, which brings PixiJS, held: the engine cannot start.
    await sketchPage.route(/\/assets\/tree-canvas-[^/]*\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await sketchPage.goto(`${gallery.url}/observe`);
    await sketchPage.locator('.tree-sketch').waitFor({ timeout: 30_000 });
    const shot = await sharp(await sketchPage.screenshot())
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    release();
    await treeReady(sketchPage);
    const s = await stats(sketchPage);
    const canvas = (await sketchPage.locator('.tree-canvas').boundingBox())!;
    const panel = (await sketchPage.locator('.tree-panel-area').boundingBox())!;

    // Each published square's middle, where the engine put it, showed its colour in the sketch (in device pixels).
    const tree = await decodedTree(gallery);
    let checked = 0;
    for (let i = 0; i < tree.count; i++) {
      if (tree.status[i] !== CellStatus.Published || tree.color[i]! < 0) continue;
      const x = canvas.x + (tree.col[i]! * CELL_PITCH + CELL_SIZE / 2 - s.x) * s.scale;
      const y = canvas.y + (tree.row[i]! * CELL_PITCH + CELL_SIZE / 2 - s.y) * s.scale;
      if (x < canvas.x + 4 || y < canvas.y + 4 || x > canvas.x + canvas.width - 4 || y > canvas.y + canvas.height - 4)
        continue;
      if (y < panel.y + panel.height + 4) continue;
      const at = (Math.round(y * DEVICE_PIXELS) * shot.info.width + Math.round(x * DEVICE_PIXELS)) * shot.info.channels;
      const expected = rgb(tree.color[i]!);
      for (let c = 0; c < 3; c++)
        expect(
          Math.abs(shot.data[at + c]! - expected[c]!),
          `the piece at ${tree.row[i]}:${tree.col[i]}`,
        ).toBeLessThanOrEqual(3);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(5);
    expect(sketchErrors).toEqual([]);
    await sketchPage.close();
  });

  it('shows pictures at the smallest zoom, where a square is under the threshold in CSS pixels but over it in device pixels', async () => {
    const size = CELL_SIZE * TREE_VIEW.zoomMin;
    expect(size).toBeLessThan(THUMBNAIL_MIN_DEVICE_PX);
    expect(size * DEVICE_PIXELS).toBeGreaterThanOrEqual(THUMBNAIL_MIN_DEVICE_PX);
    const { x, y } = seedViewTarget(settings);
    await openTree(
      page,
      gallery,
      `?row=${Math.floor(y / CELL_PITCH)}&col=${Math.floor(x / CELL_PITCH)}&zoom=${TREE_VIEW.zoomMin}`,
    );
    await page.waitForFunction(() => window.__treeStats!.thumbnailsDrawn > 0, undefined, { timeout: 30_000 });
    expect((await stats(page)).scale).toBe(TREE_VIEW.zoomMin);
  });

  it('keeps a plain screen as it was: no pictures at the smallest zoom, pictures from three quarters up', async () => {
    const plain = await browser.newPage({ viewport: WIDE });
    const plainErrors = watchErrors(plain);
    const { x, y } = seedViewTarget(settings);
    const at = `row=${Math.floor(y / CELL_PITCH)}&col=${Math.floor(x / CELL_PITCH)}`;
    await openTree(plain, gallery, `?${at}&zoom=0.75`);
    await plain.waitForFunction(() => window.__treeStats!.thumbnailsDrawn > 0, undefined, { timeout: 30_000 });
    // One zoom step out, to the smallest zoom: the pictures' layer hides as the view is culled.
    await plain.getByRole('button', { name: 'Zoom out' }).click();
    await plain.waitForFunction(
      (scale) => window.__treeStats!.scale === scale && window.__treeStats!.thumbnailsDrawn === 0,
      TREE_VIEW.zoomMin,
      { timeout: 10_000 },
    );
    expect(plainErrors).toEqual([]);
    await plain.close();
  });

  it.each([PHONE.width, 320])("reads the search box's placeholder whole at %i pixels", async (width) => {
    await page.setViewportSize({ width, height: PHONE.height });
    await openTree(page, gallery);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const input = page.locator('.tree-search__input');
    await input.waitFor();
    const fit = await input.evaluate((element: HTMLInputElement) => {
      const style = getComputedStyle(element);
      const context2d = document.createElement('canvas').getContext('2d')!;
      context2d.font = style.font;
      const room = element.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      return {
        placeholder: element.placeholder,
        text: context2d.measureText(element.placeholder).width,
        room,
        scroll: element.scrollWidth,
        client: element.clientWidth,
      };
    });
    expect(fit.placeholder.length).toBeGreaterThan(0);
    expect(fit.scroll).toBeLessThanOrEqual(fit.client);
    expect(fit.text, `"${fit.placeholder}" in ${fit.room} pixels`).toBeLessThanOrEqual(fit.room);
    await page.setViewportSize(PHONE);
  });

  it('runs without console errors', () => {
    expect(errors).toEqual([]);
  });
});
