/**
 * What the canvas shows of a square, read from its pixels: a piece's picture where the zoom shows
 * thumbnails and its dominant colour where it does not, and the viewer's own reserved square in a colour of its own
 * that nobody else sees.
 */
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cells, reservations } from '#drizzle/schema.ts';
import { TREE_VIEW } from '#shared/constants.ts';
import { CellStatus } from '#shared/domain.ts';
import { createSession, SESSION_COOKIE } from '#server/auth/sessions.ts';
import { getDefaultTree } from '#server/services/tree/tree.ts';
import { CELL_PITCH as PITCH } from '#shared/tree/camera.ts';
import { PALETTE } from '#shared/tree/cell-look.ts';
import { launchBrowser, releaseBrowser, startGallery, type Gallery } from '../helpers/browser/harness.ts';
import { reusablePage } from '../helpers/browser/pages.ts';
import { openTree, stats } from '../helpers/browser/tree-page.ts';
import { decodedTree, rgb, type Rgb } from '../helpers/browser/tree-pixels.ts';

let gallery: Gallery;
let browser: Browser;
/** One page for the file, a new visitor each time it is taken (no cookies, no storage). */
const tab = reusablePage(() => browser);

beforeAll(async () => {
  [gallery, browser] = await Promise.all([startGallery(), launchBrowser()]);
});

afterAll(async () => {
  await releaseBrowser(browser);
  await gallery?.stop();
});

const distance = (a: Rgb, b: Rgb) => Math.max(...a.map((channel, i) => Math.abs(channel - b[i]!)));

/** Opens the tree centred on a square at a zoom, and waits for the camera to rest there. */
async function openAt(page: Page, row: number, column: number, zoom: number): Promise<void> {
  await openTree(page, gallery, `?row=${row}&col=${column}&zoom=${zoom}`);
  await page.waitForFunction((scale) => window.__treeStats!.scale === scale && !window.__treeStats!.flying, zoom);
}

/** The page's pixels, and a reader of the world point (x, y) on them at the current camera. */
async function pixels(page: Page): Promise<(worldX: number, worldY: number) => Rgb> {
  const camera = await stats(page);
  const box = (await page.locator('.tree-canvas').boundingBox())!;
  const shot = await sharp(await page.screenshot())
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return (worldX, worldY) => {
    const x = Math.round(box.x + (worldX - camera.x) * camera.scale);
    const y = Math.round(box.y + (worldY - camera.y) * camera.scale);
    const at = (y * shot.info.width + x) * shot.info.channels;
    return [shot.data[at]!, shot.data[at + 1]!, shot.data[at + 2]!];
  };
}

/** Distinct colours (to 4 bits a channel) over a 10 × 10 grid of points inside a square, away from its edges. */
function coloursInside(read: (x: number, y: number) => Rgb, row: number, column: number): number {
  const seen = new Set<number>();
  for (let i = 0; i < 10; i++) {
    for (let j = 0; j < 10; j++) {
      const [r, g, b] = read(column * PITCH + 15 + i * 7, row * PITCH + 15 + j * 7);
      seen.add(((r >> 4) << 8) | ((g >> 4) << 4) | (b >> 4));
    }
  }
  return seen.size;
}

describe('what a square looks like on the canvas', () => {
  it('shows a piece as its dominant colour when zoomed out, and as its picture when zoomed in', async () => {
    const snapshot = await decodedTree(gallery);
    // A published piece with a colour, away from the tree's edges so the camera can centre it.
    const rows = Array.from(snapshot.row);
    const i = rows.findIndex(
      (_, k) =>
        snapshot.status[k] === CellStatus.Published &&
        snapshot.color[k]! >= 0 &&
        snapshot.col[k]! > 0 &&
        snapshot.row[k]! > 2,
    );
    expect(i).toBeGreaterThanOrEqual(0);
    const row = snapshot.row[i]!;
    const column = snapshot.col[i]!;

    const { page, errors } = await tab.take();
    await openAt(page, row, column, TREE_VIEW.zoomMin);
    await page.waitForTimeout(300);
    const far = await pixels(page);
    const centre = far(column * PITCH + TREE_VIEW.cellSize / 2, row * PITCH + TREE_VIEW.cellSize / 2);
    expect(distance(centre, rgb(snapshot.color[i]!))).toBeLessThanOrEqual(3);
    expect(coloursInside(far, row, column)).toBeLessThanOrEqual(2);

    await openAt(page, row, column, TREE_VIEW.zoomMax);
    await page.waitForFunction(() => window.__treeStats!.thumbnailsLoaded > 0, undefined, { timeout: 30_000 });
    await page.waitForTimeout(500);
    const near = await pixels(page);
    expect(coloursInside(near, row, column)).toBeGreaterThan(8);
    expect(errors).toEqual([]);
  });

  it("marks the viewer's own reserved square in a colour of its own, which others do not see", async () => {
    const { db, clock } = gallery.app.deps;
    const tree = (await getDefaultTree(db))!;
    const held = db
      .select({ userId: reservations.userId, row: cells.row, column: cells.column })
      .from(reservations)
      .innerJoin(cells, eq(cells.id, reservations.cellId))
      .where(and(eq(reservations.state, 'active'), eq(cells.treeId, tree.id), eq(cells.status, CellStatus.Reserved)))
      .get()!;
    // Inside the corner flag of the mark (marks.ts), which lies over the square's own look, clear of its white dot.
    const flag = [held.column * PITCH + 18, held.row * PITCH + 3] as const;

    const { context, page: owner, errors: ownerErrors } = await tab.take();
    await context.addCookies([
      { name: SESSION_COOKIE, value: (await createSession(db, clock, held.userId)).token, url: gallery.url },
    ]);
    await openAt(owner, held.row, held.column, 1);
    // The "continue working on your square?" prompt may come up over the canvas: answer it later.
    const prompt = owner.getByTestId('edit-reserved-cell-popup');
    await prompt.waitFor({ timeout: 4_000 }).then(
      () => prompt.getByRole('button', { name: /later/i }).click(),
      () => undefined,
    );
    await prompt.waitFor({ state: 'detached' });
    await owner.waitForTimeout(300);
    expect(distance((await pixels(owner))(...flag), rgb(PALETTE.mine))).toBeLessThanOrEqual(3);
    expect(ownerErrors).toEqual([]);

    // The same page taken again: a guest, signed out.
    const { page: guest } = await tab.take();
    await openAt(guest, held.row, held.column, 1);
    await guest.waitForTimeout(300);
    expect(distance((await pixels(guest))(...flag), rgb(PALETTE.mine))).toBeGreaterThan(40);
  });
});
