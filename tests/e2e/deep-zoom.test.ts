/**
 * Deep zoom on the details page (decision 048): a demo piece's 3,200 px picture, its pyramid cut, opens into the
 * viewer; the + button and the wheel zoom in, each asking for tiles of a higher level and only those on screen (the
 * one-tile backdrop aside), at a level whose pixels are at most 1.5 times the device pixels they cover; "Whole
 * picture" goes back. One page at 1000 × 700, one device pixel a CSS pixel.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { art, cells, pictures } from '#drizzle/schema.ts';
import { buildQueuedPyramids } from '#server/services/media/pyramids.ts';
import { levelSize, type PyramidDescriptor } from '#shared/deep-zoom.ts';
import { launchBrowser, releaseBrowser, startGallery, watchErrors, type Gallery } from '../helpers/browser/harness.ts';
import { tilePixels } from '../helpers/browser/deep-zoom-tiles.ts';

let gallery: Gallery;
let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  [gallery, browser] = await Promise.all([startGallery(), launchBrowser('cpu')]);
  context = await browser.newContext({ viewport: { width: 1000, height: 700 }, deviceScaleFactor: 1 });
});

afterAll(async () => {
  await releaseBrowser(browser);
  await gallery?.stop();
});

interface ViewState {
  level: number;
  scale: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The viewer's level and placement (its data-view) and the region's size. */
const viewOf = (page: Page): Promise<ViewState> =>
  page.getByTestId('deep-zoom-region').evaluate((region: HTMLElement) => {
    const [level, scale, x, y] = (region.dataset.view ?? '').split(' ').map(Number);
    return { level: level!, scale: scale!, x: x!, y: y!, width: region.clientWidth, height: region.clientHeight };
  });

/** The tiles (`level-column-row`) of `level` that a view shows, by the Deep Zoom geometry. */
function visibleTiles(d: PyramidDescriptor, level: number, view: ViewState): Set<string> {
  const { width: w, height: h } = levelSize(d, level);
  const ratio = w / d.width;
  const left = Math.max(0, (-view.x / view.scale) * ratio);
  const top = Math.max(0, (-view.y / view.scale) * ratio);
  const right = Math.min(w, ((view.width - view.x) / view.scale) * ratio);
  const bottom = Math.min(h, ((view.height - view.y) / view.scale) * ratio);
  const tiles = new Set<string>();
  for (let row = Math.floor(top / d.tileSize); row < Math.ceil(bottom / d.tileSize); row++)
    for (let column = Math.floor(left / d.tileSize); column < Math.ceil(right / d.tileSize); column++)
      tiles.add(`${level}-${column}-${row}`);
  return tiles;
}

describe('the deep-zoom viewer', () => {
  it('says a pyramid is being cut, offers the zoom once it is, zooms in with + and the wheel asking only for the tiles on screen, and goes back', async () => {
    const { db } = gallery.app.deps;
    // The demo's first pieces have 3,200 px pictures queued for their pyramids (the seed's): cut them, as the job does.
    const queued = db
      .select({ key: pictures.mediaKey, cellToken: cells.token })
      .from(pictures)
      .innerJoin(art, eq(art.id, pictures.artId))
      .innerJoin(cells, eq(cells.artId, art.id))
      .where(eq(pictures.pyramid, 'building'))
      .limit(1)
      .get()!;
    expect(queued).toBeTruthy();

    const page = await context.newPage();
    const errors = watchErrors(page);
    const requested: string[] = [];
    page.on('request', (request) => {
      const match = new RegExp(`/media/${queued.key}-dz(\\d+)-(\\d+)-(\\d+)\\.webp$`).exec(request.url());
      if (match) requested.push(`${match[1]}-${match[2]}-${match[3]}`);
    });
    // While the pyramid is still to be cut the page says so, with no zoom to offer yet.
    await page.goto(`${gallery.url}/observe/cell/${queued.cellToken}/details`);
    await expect.poll(() => page.getByTestId('art-zoom-preparing').textContent()).toMatch(/Preparing the zoomable/);
    expect(await page.getByTestId('art-zoom').count()).toBe(0);
    // Cut as the job does: the zoom appears on the open page, without a reload.
    await buildQueuedPyramids(gallery.app.deps);
    const descriptor = JSON.parse(
      (await gallery.app.deps.media.get(`${queued.key}-dz.json`))!.toString(),
    ) as PyramidDescriptor;
    await expect.poll(() => page.getByTestId('art-zoom').count(), { timeout: 12_000 }).toBe(1);
    expect(await page.getByTestId('art-zoom-preparing').count()).toBe(0);
    await page.getByTestId('art-zoom').click();
    const viewer = page.getByTestId('deep-zoom');
    const status = viewer.getByTestId('deep-zoom-status');
    await expect.poll(() => status.textContent()).toMatch(/^Zoom 1\.0 times, the whole picture/);
    const region = page.getByTestId('deep-zoom-region');
    await expect.poll(() => region.evaluate((element) => element === document.activeElement)).toBe(true);

    // The backdrop is the largest level that is one tile; every other tile asked for must be on screen.
    let backdrop = descriptor.levels - 1;
    const tileSize = descriptor.tileSize;
    while (
      Math.ceil(Math.max(descriptor.width, descriptor.height) / 2 ** (descriptor.levels - 1 - backdrop)) > tileSize
    )
      backdrop--;
    const backdropPixels = levelSize(descriptor, backdrop).width * levelSize(descriptor, backdrop).height;
    const checkScreen = async (label: string) => {
      const view = await viewOf(page);
      const visible = visibleTiles(descriptor, view.level, view);
      // Every tile on screen arrives, and nothing else of that level was asked for since the view settled.
      await expect.poll(() => [...visible].filter((tile) => !requested.includes(tile))).toEqual([]);
      const ofLevel = requested.filter((tile) => tile.startsWith(`${view.level}-`));
      expect(ofLevel.filter((tile) => !visible.has(tile))).toEqual([]);
      // The level's pixels a device pixel: at most √1.5 a side, so 1.5 in area.
      const levelPixelsPerDevicePixel = 2 ** (view.level - (descriptor.levels - 1)) / view.scale;
      expect(levelPixelsPerDevicePixel).toBeLessThanOrEqual(Math.sqrt(1.5) + 1e-9);
      // The tiles' own pixels (overlap included, the picture's edges cutting the last ones) with the backdrop's, at
      // most 1.5 times the viewer's device pixels below the top level; at the picture's own pixels nothing coarser
      // would show them, and the fringe the viewer's edges cut is what it is.
      const ratio = (tilePixels(descriptor, view.level, visible) + backdropPixels) / (view.width * view.height);
      if (view.level < descriptor.levels - 1) expect(ratio).toBeLessThanOrEqual(1.5);
      console.log(
        `${label}: level ${view.level}, ${visible.size} tiles, ` +
          `${(levelPixelsPerDevicePixel ** 2).toFixed(2)} level pixels a device pixel, ` +
          `tiles ${ratio.toFixed(2)} times the viewer's device pixels`,
      );
      return view;
    };

    const fitted = await checkScreen('fitted');
    await page.waitForTimeout(500);
    // Only the tiles on screen at the fitted level, the backdrop's one, and none of the level above.
    expect(new Set(requested.map((tile) => Number(tile.split('-')[0])))).toEqual(new Set([backdrop, fitted.level]));

    // + zooms about the middle: a higher level, its tiles on screen only.
    requested.length = 0;
    await viewer.getByRole('button', { name: 'Zoom in' }).click();
    await expect.poll(async () => (await viewOf(page)).level).toBeGreaterThan(fitted.level);
    await expect.poll(() => status.textContent()).toMatch(/^Zoom 1\.6 times/);
    const zoomed = await checkScreen('after +');
    expect(requested.every((tile) => Number(tile.split('-')[0]) === zoomed.level)).toBe(true);

    // The wheel zooms about the pointer, up to the picture's own pixels.
    requested.length = 0;
    await page.mouse.move(300, 250);
    await page.mouse.wheel(0, -1200);
    await expect.poll(async () => (await viewOf(page)).level).toBeGreaterThan(zoomed.level);
    const wheeled = await checkScreen('after the wheel');
    await page.waitForTimeout(800);
    expect(wheeled.level).toBe(descriptor.levels - 1);
    await expect.poll(() => status.textContent()).toMatch(/the picture’s own pixels/);
    expect(requested.length).toBeGreaterThan(0);

    // Back to the whole picture: the fitted level, whose tiles the browser has already.
    await viewer.getByRole('button', { name: 'Whole picture' }).click();
    await expect.poll(() => status.textContent()).toMatch(/^Zoom 1\.0 times, the whole picture/);
    expect(await viewOf(page)).toEqual(fitted);

    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('deep-zoom').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });
});
