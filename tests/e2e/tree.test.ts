import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { count, eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { cells } from '#drizzle/schema.ts';
import { CellStatus } from '#shared/domain.ts';
import { getDefaultTree } from '#server/services/tree/tree.ts';
import { launchBrowser, releaseBrowser, startGallery, type Gallery, watchErrors } from '../helpers/browser/harness.ts';
import { WIDE } from '../helpers/browser/pages.ts';
import { openTree, stats } from '../helpers/browser/tree-page.ts';

let gallery: Gallery;
let browser: Browser;
let page: Page;
let errors: string[];

beforeAll(async () => {
  [gallery, browser] = await Promise.all([startGallery(), launchBrowser()]);
  page = await browser.newPage({ viewport: WIDE });
  errors = watchErrors(page);
  await openTree(page, gallery);
});

afterAll(async () => {
  await releaseBrowser(browser);
  await gallery?.stop();
});

describe('the tree page', () => {
  it('loads every cell of the seeded tree from the snapshot', async () => {
    const { db } = gallery.app.deps;
    const tree = (await getDefaultTree(db))!;
    const [row] = db.select({ n: count() }).from(cells).where(eq(cells.treeId, tree.id)).all();
    const published = db.select({ n: count() }).from(cells).where(eq(cells.status, CellStatus.Published)).all()[0]!.n;
    expect(published).toBeGreaterThanOrEqual(60);
    expect((await stats(page)).cells).toBe(row!.n);
  });

  it('draws the seeded cells on the canvas, with their thumbnails', async () => {
    await page.waitForFunction(() => (window.__treeStats?.thumbnailsLoaded ?? 0) >= 10, undefined, { timeout: 30_000 });
    const s = await stats(page);
    expect(s.cellsDrawn).toBeGreaterThan(20);
    expect(s.chunksVisible).toBeGreaterThan(0);

    // Read the pixels: a drawn tree of artworks has many distinct colours; an empty canvas has one or two.
    const png = await page.locator('canvas').first().screenshot();
    const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const colours = new Set<number>();
    for (let i = 0; i < data.length; i += info.channels * 7) {
      colours.add(((data[i]! >> 4) << 8) | ((data[i + 1]! >> 4) << 4) | (data[i + 2]! >> 4));
    }
    expect(colours.size).toBeGreaterThan(100);
  });

  it('pans when the visitor drags the canvas', async () => {
    const before = await stats(page);
    const box = (await page.locator('canvas').first().boundingBox())!;
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    await page.mouse.move(cx, cy);
    await page.mouse.down();
    for (let step = 1; step <= 10; step++) await page.mouse.move(cx + step * 20, cy + step * 12);
    await page.mouse.up();
    await page.waitForFunction((x) => window.__treeStats!.x !== x, before.x);
    const after = await stats(page);
    // x and y are the world point at the canvas's top-left: dragging right and down shows what lies left and above.
    expect((before.x - after.x) * after.scale).toBeCloseTo(200, -1);
    expect((before.y - after.y) * after.scale).toBeCloseTo(120, -1);
    expect(after.scale).toBe(before.scale);
  });

  it('runs without console errors or Content Security Policy violations', () => {
    expect(errors).toEqual([]);
  });
});
