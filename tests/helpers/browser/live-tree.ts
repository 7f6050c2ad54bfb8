/**
 * What the live tree's browser tests share: the page's live state, what colour the canvas shows at a point (read back
 * from the WebGL canvas), the moment a colour first shows, and a fresh square on screen to put a piece on (where a
 * square is on the page: tree-page.ts).
 */
import type { Db } from '#server/db.ts';
import { and, eq, isNull, ne } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { art, cells, users } from '#drizzle/schema.ts';
import { ArtStatus, CellStatus } from '#shared/domain.ts';
import { TREE_VIEW } from '#shared/constants.ts';
import { newToken } from '#server/tokens.ts';
import { getDefaultTree } from '#server/services/tree/tree.ts';
import type {} from '#client/tree/use-tree-snapshot.ts';
import type { Gallery } from './harness.ts';
import { stats } from './tree-page.ts';

const PITCH = TREE_VIEW.cellSize + TREE_VIEW.gap;
/** The new pieces' dominant colour: a red no other square of the demo tree shows. */
export const NEW_COLOUR = 0xd01818;

export const live = (page: Page) => page.evaluate(() => ({ ...window.__treeLive! }));

type Point = { x: number; y: number };

/** The colour the canvas shows at a page point, as 0xRRGGBB (read back from the WebGL canvas itself, under any popup). */
export function colourAt(page: Page, point: Point): Promise<number> {
  return page.evaluate(({ x, y }) => {
    const canvas = document.querySelector<HTMLCanvasElement>('.tree-canvas canvas')!;
    const box = canvas.getBoundingClientRect();
    const ratio = canvas.width / box.width;
    const probe = document.createElement('canvas');
    probe.width = probe.height = 1;
    const context = probe.getContext('2d')!;
    context.drawImage(canvas, Math.round((x - box.left) * ratio), Math.round((y - box.top) * ratio), 1, 1, 0, 0, 1, 1);
    const [r, g, b] = context.getImageData(0, 0, 1, 1).data;
    return (r! << 16) | (g! << 8) | b!;
  }, point);
}

export function near(colour: number, expected: number): boolean {
  const channels = [16, 8, 0].map((shift) => Math.abs(((colour >> shift) & 0xff) - ((expected >> shift) & 0xff)));
  return Math.max(...channels) <= 32;
}

/**
 * Starts watching a point of the canvas in the page, every frame: window.__colourSeenAt becomes the page's
 * Date.now() when it first shows `colour` (the same machine clock as the test's), and __versionMovedAt when the live
 * tree's version first moved (the changes were applied).
 */
export async function watchColour(page: Page, point: Point, colour: number): Promise<void> {
  await page.evaluate(
    ({ x, y, colour }) => {
      const canvas = document.querySelector<HTMLCanvasElement>('.tree-canvas canvas')!;
      const box = canvas.getBoundingClientRect();
      const ratio = canvas.width / box.width;
      const [sx, sy] = [Math.round((x - box.left) * ratio), Math.round((y - box.top) * ratio)];
      const probe = document.createElement('canvas');
      probe.width = probe.height = 1;
      const context = probe.getContext('2d', { willReadFrequently: true })!;
      const seen = window as unknown as { __colourSeenAt: number | null; __versionMovedAt: number | null };
      seen.__colourSeenAt = null;
      seen.__versionMovedAt = null;
      const version = window.__treeLive?.version;
      // The canvas is read back only after the engine rendered a frame: a read back every frame would slow the page.
      let frames = -1;
      const check = () => {
        const now = Date.now();
        if (seen.__versionMovedAt === null && window.__treeLive?.version !== version) seen.__versionMovedAt = now;
        if (frames !== window.__treeStats!.frames) {
          frames = window.__treeStats!.frames;
          context.drawImage(canvas, sx, sy, 1, 1, 0, 0, 1, 1);
          const [r, g, b] = context.getImageData(0, 0, 1, 1).data;
          const off = Math.max(
            Math.abs(r! - ((colour >> 16) & 0xff)),
            Math.abs(g! - ((colour >> 8) & 0xff)),
            Math.abs(b! - (colour & 0xff)),
          );
          if (off <= 32) return void (seen.__colourSeenAt = now);
        }
        requestAnimationFrame(check);
      };
      requestAnimationFrame(check);
    },
    { ...point, colour },
  );
}

/** When the watched colour first showed (the page's Date.now()), waiting up to `timeout` ms for it. */
export async function colourSeenAt(page: Page, timeout: number): Promise<number> {
  let at: number | null = null;
  await expect
    .poll(
      async () => {
        at = await page.evaluate(() => (window as unknown as { __colourSeenAt: number | null }).__colourSeenAt);
        return at;
      },
      { timeout, interval: 50 },
    )
    .not.toBeNull();
  return at!;
}

/** Squares a test of this gallery used already (each publish goes to a fresh one). */
const usedSquares = new WeakMap<Gallery, Set<number>>();

/**
 * A square without a piece (available, or not yet connected) on screen in every given page, away from the top panel
 * and from squares used already.
 */
export async function freeSquareOnScreen(
  gallery: Gallery,
  ...pages: Page[]
): Promise<{ id: number; row: number; column: number }> {
  const { db } = gallery.app.deps;
  const tree = (await getDefaultTree(db))!;
  let used = usedSquares.get(gallery);
  if (!used) usedSquares.set(gallery, (used = new Set()));
  const boxes = await Promise.all(
    pages.map(async (page) => ({
      page,
      box: (await page.locator('.tree-canvas canvas').boundingBox())!,
      camera: await stats(page),
    })),
  );
  const square = db
    .select({ id: cells.id, row: cells.row, column: cells.column })
    .from(cells)
    .where(and(eq(cells.treeId, tree.id), isNull(cells.artId), ne(cells.status, CellStatus.Published)))
    .all()
    .find((cell) => {
      if (used.has(cell.id)) return false;
      return boxes.every(({ box, camera }) => {
        const x = box.x + (cell.column * PITCH + 50 - camera.x) * camera.scale;
        const y = box.y + (cell.row * PITCH + 50 - camera.y) * camera.scale;
        return x > box.x + 80 && x < box.x + box.width - 80 && y > box.y + 160 && y < box.y + box.height - 80;
      });
    });
  expect(square).toBeDefined();
  used.add(square!.id);
  return square!;
}

/**
 * Puts a submitted piece in the new colour on a square, straight in the database (an artist's steps, not tested here):
 * the gallery's own, or a database handle opened on a data folder that app processes share.
 */
export function submitPieceOn(where: Gallery | Db, cellId: number, title = 'Live Arrival'): string {
  const db = 'app' in where ? where.app.deps.db : where;
  const now = Date.now();
  const author = db.select({ id: users.id }).from(users).limit(1).get()!;
  const token = newToken();
  db.insert(art)
    .values({
      token,
      cellId,
      authorId: author.id,
      status: ArtStatus.Submitted,
      title,
      dominantColor: NEW_COLOUR,
      submittedAt: now,
      createdAt: now,
      updatedAt: now,
    })
    .run();
  return token;
}
