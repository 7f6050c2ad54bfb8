/**
 * The tree's own zoom into a piece (decision 048) in a real browser: over a demo piece whose pyramid is cut, Ctrl+wheel
 * goes on past the tree's limit up to the picture's own pixels, each step asking only for the tiles on screen within
 * the piece's square, at the level the zoom needs (and the one-tile backdrop's), and comes back out to the tree's
 * range, giving the tiles back; the + key does the same for the piece in the middle. Over a piece without a pyramid
 * the zoom stops at the tree's limit as it always did. One page at 1000 × 700, one device pixel a CSS pixel.
 */
import { eq } from 'drizzle-orm';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { art, cells, pictures } from '#drizzle/schema.ts';
import { buildQueuedPyramids } from '#server/services/media/pyramids.ts';
import { TREE_VIEW } from '#shared/constants.ts';
import { levelSize, type PyramidDescriptor } from '#shared/deep-zoom.ts';
import { CellStatus } from '#shared/domain.ts';
import { CELL_PITCH, CELL_SIZE } from '#shared/tree/camera.ts';
import { launchBrowser, releaseBrowser, startGallery, watchErrors, type Gallery } from '../helpers/browser/harness.ts';
import { canvasBox, openTree, pointOf, settled, stats, type TreeStatsRead } from '../helpers/browser/tree-page.ts';
import { budgetedLevel } from '../helpers/browser/deep-zoom-tiles.ts';

let gallery: Gallery;
let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  // The demo's pieces kept for the deep zoom get their pyramids cut, as the job does once the server runs, while the
  // browser starts: two 3,200 px pictures, a good part of a test's time limit on a loaded machine.
  const cut = async (started: Gallery) => {
    await buildQueuedPyramids(started.app.deps);
    return started;
  };
  [gallery, browser] = await Promise.all([startGallery().then(cut), launchBrowser()]);
  context = await browser.newContext({ viewport: { width: 1000, height: 700 }, deviceScaleFactor: 1 });
});

afterAll(async () => {
  await releaseBrowser(browser);
  await gallery?.stop();
});

interface PieceSquare {
  row: number;
  column: number;
  key: string;
  pyramid: string;
}

/** The published squares of the demo tree with their main picture (the thumbnail's) and its pyramid's state. */
function publishedPieces(): PieceSquare[] {
  const rows = gallery.app.deps.db
    .select({
      row: cells.row,
      column: cells.column,
      key: pictures.mediaKey,
      pyramid: pictures.pyramid,
      position: pictures.position,
      artId: art.id,
    })
    .from(cells)
    .innerJoin(art, eq(art.id, cells.artId))
    .innerJoin(pictures, eq(pictures.artId, art.id))
    .where(eq(cells.status, CellStatus.Published))
    .all();
  const main = new Map<number, (typeof rows)[number]>();
  for (const row of rows) if ((main.get(row.artId)?.position ?? Infinity) > row.position) main.set(row.artId, row);
  return [...main.values()];
}

/**
 * The tiles (`level-column-row`) of `level` the view shows of the piece's picture: its middle square (the thumbnail's
 * crop) stretched over the square, cut to the part of the square on the canvas, by the Deep Zoom geometry.
 */
function tilesInView(
  d: PyramidDescriptor,
  square: { row: number; column: number },
  level: number,
  camera: TreeStatsRead,
  viewport: { width: number; height: number },
): Set<string> {
  const side = Math.min(d.width, d.height);
  const crop = { x: (d.width - side) / 2, y: (d.height - side) / 2 };
  const worldPerPixel = CELL_SIZE / side;
  const cellX = square.column * CELL_PITCH;
  const cellY = square.row * CELL_PITCH;
  // The part of the square on the canvas, in world pixels, then in picture pixels, then in the level's.
  const worldLeft = Math.max(cellX, camera.x);
  const worldTop = Math.max(cellY, camera.y);
  const worldRight = Math.min(cellX + CELL_SIZE, camera.x + viewport.width / camera.scale);
  const worldBottom = Math.min(cellY + CELL_SIZE, camera.y + viewport.height / camera.scale);
  const ratio = levelSize(d, level).width / d.width;
  const toLevel = (world: number, cell: number, cropAt: number) => ((world - cell) / worldPerPixel + cropAt) * ratio;
  const size = levelSize(d, level);
  const left = Math.max(0, toLevel(worldLeft, cellX, crop.x));
  const top = Math.max(0, toLevel(worldTop, cellY, crop.y));
  const right = Math.min(size.width, toLevel(worldRight, cellX, crop.x));
  const bottom = Math.min(size.height, toLevel(worldBottom, cellY, crop.y));
  const tiles = new Set<string>();
  for (let row = Math.floor(top / d.tileSize); row < Math.ceil(bottom / d.tileSize); row++)
    for (let column = Math.floor(left / d.tileSize); column < Math.ceil(right / d.tileSize); column++)
      tiles.add(`${level}-${column}-${row}`);
  return tiles;
}

/** The largest level that is one tile. */
function backdropOf(d: PyramidDescriptor): number {
  let level = d.levels - 1;
  while (Math.max(levelSize(d, level).width, levelSize(d, level).height) > d.tileSize) level--;
  return level;
}

/** One Ctrl+wheel notch (one zoom step) at a page point, in (-120) or out (120); answers the view once at rest. */
async function wheelStep(page: Page, point: { x: number; y: number }, deltaY: number): Promise<TreeStatsRead> {
  const before = await stats(page);
  await page.mouse.move(point.x, point.y);
  await page.keyboard.down('Control');
  await page.mouse.wheel(0, deltaY);
  await page.keyboard.up('Control');
  await page
    .waitForFunction((scale) => window.__treeStats!.scale !== scale, before.scale, { timeout: 3000 })
    .catch(() => undefined);
  return settled(page);
}

describe('the tree’s zoom into a piece', () => {
  it('goes on past the tree’s limit over a piece with a pyramid, asking only for the tiles on screen', async () => {
    const pieces = publishedPieces();
    const deep = pieces.find((piece) => piece.pyramid === 'ready')!;
    const plain = pieces.find((piece) => piece.pyramid === 'none')!;
    expect(deep).toBeTruthy();
    expect(plain).toBeTruthy();
    const descriptor = JSON.parse(
      (await gallery.app.deps.media.get(`${deep.key}-dz.json`))!.toString(),
    ) as PyramidDescriptor;
    const ownPixels = Math.min(descriptor.width, descriptor.height) / CELL_SIZE;
    const backdrop = backdropOf(descriptor);

    const page = await context.newPage();
    const errors = watchErrors(page);
    /** Tiles asked for (`level-column-row`) of the deep piece, and any tile of another piece. */
    const requested: string[] = [];
    const strayTiles: string[] = [];
    page.on('request', (request) => {
      const match = /-dz(\d+)-(\d+)-(\d+)\.webp(?:$|\?)/.exec(request.url());
      if (!match) return;
      if (request.url().includes(`/${deep.key}-dz`)) requested.push(`${match[1]}-${match[2]}-${match[3]}`);
      else strayTiles.push(request.url());
    });

    await openTree(page, gallery, `?row=${deep.row}&col=${deep.column}&zoom=${TREE_VIEW.zoomMax}`);
    const start = await settled(page);
    expect(start.scale).toBe(TREE_VIEW.zoomMax);
    const box = await canvasBox(page);
    const viewport = { width: box.width, height: box.height };
    const middle = await pointOf(page, deep);
    expect(requested).toEqual([]);

    // In, a notch at a time, to the picture's own pixels: every step's tiles are on screen, at the step's level.
    const scales: number[] = [];
    for (let step = 0; step < 8; step++) {
      requested.length = 0;
      const view = await wheelStep(page, middle, -120);
      if (view.scale === scales.at(-1)) break;
      scales.push(view.scale);
      // One device pixel a CSS pixel: the picture's pixels a device pixel are its pixels on screen.
      const devicePerPicture = (view.scale * CELL_SIZE) / Math.min(descriptor.width, descriptor.height);
      const tilesAt = (n: number) => tilesInView(descriptor, deep, n, view, viewport);
      const screenPixels = viewport.width * viewport.height;
      const level = Math.max(budgetedLevel(descriptor, devicePerPicture, backdrop, tilesAt, screenPixels), backdrop);
      await page.waitForFunction((wanted) => window.__treeStats!.deepZoomLevel === wanted, level);
      const onScreen = tilesInView(descriptor, deep, level, view, viewport);
      const backdropTiles = tilesInView(descriptor, deep, backdrop, view, viewport);
      // Every tile on screen is asked for (77 of them at the picture's own pixels: on a busy machine, seconds)...
      await expect
        .poll(() => [...onScreen].filter((tile) => !requested.includes(tile)), { timeout: 15_000 })
        .toEqual([]);
      await page.waitForTimeout(300);
      // ...and nothing else but the backdrop's one tile.
      expect(requested.filter((tile) => !onScreen.has(tile) && !backdropTiles.has(tile))).toEqual([]);
      const s = await stats(page);
      expect({ row: s.deepZoomRow, column: s.deepZoomColumn }).toEqual({ row: deep.row, column: deep.column });
      console.log(`scale ${view.scale}: level ${level}, ${onScreen.size} tiles on screen, ${requested.length} asked`);
    }
    expect(scales[0]).toBeGreaterThan(TREE_VIEW.zoomMax);
    // Deep in the piece the marks, sized for squares, are not drawn over it.
    expect((await stats(page)).marksShown).toBe(false);
    expect(scales.at(-1)).toBeCloseTo(ownPixels, 6);
    expect((await stats(page)).deepZoomLevel).toBe(descriptor.levels - 1);
    // The panel says so, and its + button is off at the picture's own pixels.
    const zoomLevel = page.locator('output[aria-label="Zoom level"]');
    expect(await zoomLevel.textContent()).toBe(`${Math.round(ownPixels * 100)}%, the picture’s own pixels`);
    expect(await page.getByRole('button', { name: 'Zoom in' }).isDisabled()).toBe(true);
    // The address keeps the tree's range.
    await expect.poll(() => new URL(page.url()).searchParams.get('zoom')).toBe(String(TREE_VIEW.zoomMax));

    // Out, back into the tree's range: the tiles are given back once the thumbnail is enough again.
    let out = await stats(page);
    for (let step = 0; step < 8 && out.scale > TREE_VIEW.zoomMax; step++) out = await wheelStep(page, middle, 120);
    expect(out.scale).toBe(TREE_VIEW.zoomMax);
    await page.waitForFunction(() => window.__treeStats!.deepZoomTiles === 0);
    expect((await stats(page)).marksShown).toBe(true);
    expect((await stats(page)).deepZoomLevel).toBeNull();

    // The + key (the canvas focused) goes past the limit into the piece in the middle too, and − comes back.
    await page.locator('.tree-canvas').focus();
    expect(await page.getByRole('button', { name: 'Zoom in' }).isEnabled()).toBe(true);
    await page.keyboard.press('+');
    await page.waitForFunction((max) => window.__treeStats!.scale > max, TREE_VIEW.zoomMax);
    expect((await settled(page)).scale).toBe(TREE_VIEW.zoomMax * 2);
    await page.keyboard.press('-');
    expect((await settled(page)).scale).toBe(TREE_VIEW.zoomMax);
    expect(strayTiles).toEqual([]);

    // A piece without a pyramid: the zoom stops at the tree's limit, as it always did.
    requested.length = 0;
    await openTree(page, gallery, `?row=${plain.row}&col=${plain.column}&zoom=${TREE_VIEW.zoomMax}`);
    await settled(page);
    const plainMiddle = await pointOf(page, plain);
    await wheelStep(page, plainMiddle, -120);
    // Its answer (no pyramid) has come and gone: a second notch stops at the limit too.
    await page.waitForTimeout(800);
    const stopped = await wheelStep(page, plainMiddle, -120);
    expect(stopped.scale).toBe(TREE_VIEW.zoomMax);
    expect(stopped.deepZoomRow).toBeNull();
    expect(await page.getByRole('button', { name: 'Zoom in' }).isDisabled()).toBe(true);
    expect(strayTiles).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('stops a notch that reaches the tree’s limit there, the pyramid’s answer arriving after it; the next goes past', async () => {
    const deep = publishedPieces().find((piece) => piece.pyramid === 'ready')!;
    const page = await context.newPage();
    const errors = watchErrors(page);
    await openTree(page, gallery, `?row=${deep.row}&col=${deep.column}&zoom=2`);
    expect((await settled(page)).scale).toBe(2);
    const middle = await pointOf(page, deep);
    expect((await wheelStep(page, middle, -120)).scale).toBe(TREE_VIEW.zoomMax);
    // The piece's pyramid is asked for as the view reaches the limit: once known, the + button may go on...
    await expect.poll(() => page.getByRole('button', { name: 'Zoom in' }).isEnabled()).toBe(true);
    await page.waitForTimeout(300);
    // ...but the view stays where the notch put it.
    expect((await settled(page)).scale).toBe(TREE_VIEW.zoomMax);
    expect((await wheelStep(page, middle, -120)).scale).toBe(TREE_VIEW.zoomMax * 2);
    expect(errors).toEqual([]);
    await page.close();
  });
});
