/**
 * The shared set-up of the tree page's feature tests: `useTreeFeatures()` starts one gallery, one Chromium and one page on
 * the tree, recording the tRPC calls it makes, for the file (beforeAll/afterAll), answered as live bindings, with the
 * helpers that read the camera and find squares.
 */
import { afterAll, beforeAll } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { cells } from '#drizzle/schema.ts';
import { TREE_VIEW } from '#shared/constants.ts';
import { getDefaultTree } from '#server/services/tree/tree.ts';
import '#client/tree/engine/stats.ts';
import { launchBrowser, startGallery, watchErrors, type Gallery } from './harness.ts';

export const PITCH = TREE_VIEW.cellSize + TREE_VIEW.gap;

// Set by useTreeFeatures's beforeAll; importers read the live bindings.
export let gallery: Gallery;
export let browser: Browser;
export let page: Page;
export let errors: string[];
/** tRPC procedures the page called, in order (e.g. 'cell.search'). */
export let calls: string[];

/** The engine's own camera (window.__treeStats): positions are checked against it, not the DOM. */
export const stats = (on: Page = page) => on.evaluate(() => ({ ...window.__treeStats! }));

export async function openTree(search = '', on: Page = page): Promise<void> {
  await on.goto(`${gallery.url}/observe${search}`);
  await on.waitForSelector('[data-tree-ready="true"]', { timeout: 60_000 });
}

export async function canvasBox(on: Page = page) {
  return (await on.locator('canvas').first().boundingBox())!;
}

/** Waits until the camera has stopped moving (a flight has landed). */
export async function settled(on: Page = page): Promise<Awaited<ReturnType<typeof stats>>> {
  await on.waitForFunction(() => !window.__treeStats!.flying, undefined, { timeout: 10_000 });
  let previous = await stats(on);
  for (let i = 0; i < 60; i++) {
    await on.waitForTimeout(120);
    const now = await stats(on);
    if (!now.flying && now.x === previous.x && now.y === previous.y && now.scale === previous.scale) return now;
    previous = now;
  }
  throw new Error('The camera never came to rest.');
}

/** Waits for the address to reach `pathname` and the tree to be gone (the router renders the next page in a transition). */
export async function leftTreeFor(pathname: string, on: Page = page): Promise<void> {
  await on.waitForURL((url) => url.pathname === pathname);
  await on.locator('.tree-canvas').waitFor({ state: 'detached' });
}

/** The grid position at the middle of the canvas. */
export async function centreCell(on: Page = page): Promise<{ row: number; column: number; x: number; y: number }> {
  const s = await stats(on);
  const box = await canvasBox(on);
  const x = s.x + box.width / 2 / s.scale;
  const y = s.y + box.height / 2 / s.scale;
  return { row: Math.floor(y / PITCH), column: Math.floor(x / PITCH), x, y };
}

/** Where a cell's middle is on the page, for a click. */
export async function pointOfCell(row: number, column: number): Promise<{ x: number; y: number }> {
  const s = await stats();
  const box = await canvasBox();
  return { x: box.x + (column * PITCH + 50 - s.x) * s.scale, y: box.y + (row * PITCH + 50 - s.y) * s.scale };
}

export function cellsWith(status: number) {
  const { db } = gallery.app.deps;
  const tree = getDefaultTree(db)!;
  return db
    .select({ token: cells.token, row: cells.row, column: cells.column })
    .from(cells)
    .where(and(eq(cells.treeId, tree.id), eq(cells.status, status)))
    .all();
}

/** Registers the shared set-up (beforeAll/afterAll) in the calling test file; call it once, at the file's top. */
export function useTreeFeatures(): void {
  beforeAll(async () => {
    [gallery, browser] = await Promise.all([startGallery(), launchBrowser()]);
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    errors = watchErrors(page);
    calls = [];
    page.on('request', (request) => {
      const match = /\/trpc\/([^?]+)/.exec(request.url());
      if (match) calls.push(...match[1]!.split(','));
    });
    await openTree();
  });

  afterAll(async () => {
    await browser?.close();
    await gallery?.stop();
  });
}
