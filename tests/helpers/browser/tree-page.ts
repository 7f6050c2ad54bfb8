/**
 * The tree page in browser tests, one way each: opening it at an address and waiting for its first drawn frame, the
 * engine's own record of the camera (window.__treeStats), waiting for the camera to come to rest, where a square is
 * on the page, and the squares of the gallery's tree with a status.
 */
import { and, eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { cells } from '#drizzle/schema.ts';
import { CELL_PITCH, CELL_SIZE } from '#shared/tree/camera.ts';
import { getDefaultTree } from '#server/services/tree/tree.ts';
import '#client/tree/engine/stats.ts';
import type { Gallery } from './harness.ts';

/** The engine's own camera and counts (window.__treeStats): positions are checked against it, not the DOM. */
export const stats = (page: Page) => page.evaluate(() => ({ ...window.__treeStats! }));

export type TreeStatsRead = Awaited<ReturnType<typeof stats>>;

/** Waits until the tree's canvas has drawn its first frame of cells. */
export async function treeReady(page: Page): Promise<void> {
  await page.waitForSelector('[data-tree-ready="true"]', { timeout: 60_000 });
}

/** Opens the tree page (`search`: its address's query, '?row=3&col=1&zoom=1' say) and waits until it is drawn. */
export async function openTree(page: Page, gallery: Pick<Gallery, 'url'>, search = ''): Promise<void> {
  await page.goto(`${gallery.url}/observe${search}`);
  await treeReady(page);
}

/** Waits until the camera has stopped moving (a flight has landed, a drag has ended) and answers where it is. */
export async function settled(page: Page): Promise<TreeStatsRead> {
  await page.waitForFunction(() => !window.__treeStats!.flying, undefined, { timeout: 10_000 });
  let previous = await stats(page);
  for (let i = 0; i < 60; i++) {
    await page.waitForTimeout(120);
    const now = await stats(page);
    if (!now.flying && now.x === previous.x && now.y === previous.y && now.scale === previous.scale) return now;
    previous = now;
  }
  throw new Error('The camera never came to rest.');
}

/** The tree's canvas on the page. */
export async function canvasBox(page: Page): Promise<{ x: number; y: number; width: number; height: number }> {
  return (await page.locator('.tree-canvas canvas').boundingBox())!;
}

/** Where a square's middle is on the page under the page's camera now, for a click or a colour read. */
export async function pointOf(
  page: Page,
  { row, column }: { row: number; column: number },
): Promise<{ x: number; y: number }> {
  const [camera, box] = await Promise.all([stats(page), canvasBox(page)]);
  return {
    x: box.x + (column * CELL_PITCH + CELL_SIZE / 2 - camera.x) * camera.scale,
    y: box.y + (row * CELL_PITCH + CELL_SIZE / 2 - camera.y) * camera.scale,
  };
}

/** The squares of the gallery's tree with a status, straight from its database. */
export async function cellsWith(gallery: Gallery, status: number) {
  const { db } = gallery.app.deps;
  const tree = (await getDefaultTree(db))!;
  return db
    .select({ token: cells.token, row: cells.row, column: cells.column, type: cells.type })
    .from(cells)
    .where(and(eq(cells.treeId, tree.id), eq(cells.status, status)))
    .all();
}
