/**
 * An open tree page follows the tree (issue 8): it asks for the snapshot again with its ETag while it is visible (a
 * 304 while nothing changed), not while it is hidden, and draws a newly published piece without a reload, keeping
 * the camera and an open popup. The page's poll is shortened through window.__treePollMs (20 s in real use).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { art, cells, users } from '#drizzle/schema.ts';
import { ArtStatus, CellStatus } from '#shared/domain.ts';
import { TREE_VIEW } from '#shared/constants.ts';
import { newToken } from '#server/tokens.ts';
import { getDefaultTree } from '#server/services/tree.ts';
import { recordCellChanges } from '#server/services/tree-changes.ts';
import '#client/tree/engine/stats.ts';
import { launchBrowser, startGallery, watchErrors, type Gallery } from './harness.ts';

const PITCH = TREE_VIEW.cellSize + TREE_VIEW.gap;
const POLL_MS = 250;
/** The new piece's dominant colour: a red no other square of the demo tree shows. */
const NEW_COLOUR = 0xd01818;

let gallery: Gallery;
let browser: Browser;
let page: Page;
let errors: string[];
/** Statuses of the snapshot's answers, in order. */
let snapshotAnswers: number[];

const stats = () => page.evaluate(() => ({ ...window.__treeStats! }));

/** The colour the canvas shows at a page point, as 0xRRGGBB (read back from the WebGL canvas itself, under any popup). */
function colourAt(point: { x: number; y: number }): Promise<number> {
  return page.evaluate(({ x, y }) => {
    const canvas = document.querySelector<HTMLCanvasElement>('.tree-canvas canvas')!;
    const box = canvas.getBoundingClientRect();
    const copy = document.createElement('canvas');
    copy.width = canvas.width;
    copy.height = canvas.height;
    const context = copy.getContext('2d')!;
    context.drawImage(canvas, 0, 0);
    const ratio = canvas.width / box.width;
    const [r, g, b] = context.getImageData(Math.round((x - box.left) * ratio), Math.round((y - box.top) * ratio), 1, 1).data;
    return (r! << 16) | (g! << 8) | b!;
  }, point);
}

function near(colour: number, expected: number): boolean {
  const channels = [16, 8, 0].map((shift) => Math.abs(((colour >> shift) & 0xff) - ((expected >> shift) & 0xff)));
  return Math.max(...channels) <= 32;
}

/** Publishes a piece on a square straight in the database, as staff review does, and moves the tree's version. */
function publishAt(cellId: number, treeId: number): void {
  const { db } = gallery.app.deps;
  const now = Date.now();
  const author = db.select({ id: users.id }).from(users).limit(1).get()!;
  db.transaction((tx) => {
    const { id } = tx
      .insert(art)
      .values({ token: newToken(), cellId, authorId: author.id, status: ArtStatus.Published, title: 'Live Arrival', dominantColor: NEW_COLOUR, publishedAt: now, createdAt: now, updatedAt: now })
      .returning({ id: art.id })
      .get();
    tx.update(cells).set({ artId: id, status: CellStatus.Published, updatedAt: now }).where(eq(cells.id, cellId)).run();
    recordCellChanges(tx, treeId, [cellId], now);
  });
}

beforeAll(async () => {
  [gallery, browser] = await Promise.all([startGallery(), launchBrowser()]);
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  errors = watchErrors(page);
  snapshotAnswers = [];
  page.on('response', (response) => {
    if (/\/api\/tree\/[^/?]+$/.test(new URL(response.url()).pathname)) snapshotAnswers.push(response.status());
  });
  await page.addInitScript((ms) => {
    window.__treePollMs = ms;
  }, POLL_MS);
  await page.goto(`${gallery.url}/observe`);
  await page.waitForSelector('[data-tree-ready="true"]', { timeout: 60_000 });
});

afterAll(async () => {
  await browser?.close();
  await gallery?.stop();
});

describe('an open tree page', () => {
  it('asks again with its ETag while visible, and gets 304 while nothing changed', async () => {
    await expect.poll(() => snapshotAnswers.filter((status) => status === 304).length, { timeout: 20_000 }).toBeGreaterThanOrEqual(3);
    expect(snapshotAnswers[0]).toBe(200);
    expect(snapshotAnswers.slice(1).every((status) => status === 304)).toBe(true);
  });

  it('does not ask while the page is hidden, and asks again once it is shown', async () => {
    const setVisibility = (state: 'hidden' | 'visible') =>
      page.evaluate((value) => {
        Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => value });
        document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
      }, state);
    await setVisibility('hidden');
    // A poll already under way may still answer; after that, nothing for many intervals.
    await page.waitForTimeout(POLL_MS * 2);
    const whileHidden = snapshotAnswers.length;
    await page.waitForTimeout(POLL_MS * 8);
    expect(snapshotAnswers.length).toBe(whileHidden);
    await setVisibility('visible');
    await expect.poll(() => snapshotAnswers.length, { timeout: 20_000 }).toBeGreaterThan(whileHidden);
  });

  it('draws a newly published piece without a reload, keeping the camera and the open popup', async () => {
    const { db } = gallery.app.deps;
    const tree = getDefaultTree(db)!;
    const before = await stats();
    const box = (await page.locator('.tree-canvas canvas').boundingBox())!;
    const pointOf = (row: number, column: number) => ({
      x: box.x + (column * PITCH + 50 - before.x) * before.scale,
      y: box.y + (row * PITCH + 50 - before.y) * before.scale,
    });
    // An available square on screen, away from the top panel.
    const target = db
      .select({ id: cells.id, row: cells.row, column: cells.column })
      .from(cells)
      .where(and(eq(cells.treeId, tree.id), eq(cells.status, CellStatus.Available)))
      .all()
      .find((cell) => {
        const point = pointOf(cell.row, cell.column);
        return point.x > box.x + 80 && point.x < box.x + box.width - 80 && point.y > box.y + 160 && point.y < box.y + box.height - 80;
      })!;
    expect(target).toBeDefined();
    const point = pointOf(target.row, target.column);
    expect(near(await colourAt(point), NEW_COLOUR)).toBe(false);

    await page.getByRole('button', { name: 'Help' }).click();
    const help = page.getByTestId('help-popup');
    await help.waitFor();
    // Anything set on the page survives: no reload.
    await page.evaluate(() => document.documentElement.setAttribute('data-before-publish', 'yes'));

    const answersBefore = snapshotAnswers.length;
    publishAt(target.id, tree.id);
    await expect.poll(async () => near(await colourAt(point), NEW_COLOUR), { timeout: 20_000 }).toBe(true);

    const after = await stats();
    expect({ x: after.x, y: after.y, scale: after.scale }).toEqual({ x: before.x, y: before.y, scale: before.scale });
    expect(await help.isVisible()).toBe(true);
    expect(await page.getAttribute('html', 'data-before-publish')).toBe('yes');
    // The changed tree came whole once (a 200), and the polls after it are 304s again.
    expect(snapshotAnswers.slice(answersBefore).filter((status) => status === 200)).toHaveLength(1);
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });
  });

  it('runs without console errors', () => {
    expect(errors).toEqual([]);
  });
});
