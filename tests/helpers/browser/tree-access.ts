/**
 * The shared set-up of the tree-for-everyone browser tests: `useTreeAccess()` starts one gallery, one Chromium and one
 * wide page for the file (beforeAll/afterAll), answered as live bindings, with the helpers that read the tree's
 * survey, focus and spoken words.
 */
import { and, eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { art, cells, users } from '#drizzle/schema.ts';
import { CellStatus } from '#shared/domain.ts';
import type { TreeSettings } from '#shared/tree/geometry.ts';
import { getDefaultTree } from '#server/services/tree/tree.ts';
import '#client/tree/engine/stats.ts';
import { launchBrowser, startGallery, watchErrors, type Gallery } from './harness.ts';

export const WIDE = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

// Set by useTreeAccess's beforeAll; importers read the live bindings.
export let gallery: Gallery;
export let browser: Browser;
export let page: Page;
export let errors: string[];
export let settings: TreeSettings;

export const stats = (on: Page = page) => on.evaluate(() => ({ ...window.__treeStats! }));

export async function openTree(search = '', on: Page = page): Promise<void> {
  await on.goto(`${gallery.url}/observe${search}`);
  await on.waitForSelector('[data-tree-ready="true"]', { timeout: 60_000 });
}

/** Waits until the camera has stopped moving. */
export async function settled(on: Page = page) {
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

export const canvasFocused = (on: Page = page) =>
  on.evaluate(() => document.activeElement?.classList.contains('tree-canvas') ?? false);

/** Tabs from the top of the page to the canvas (the keyboard's way in, so its focus cell shows). */
export async function tabToCanvas(on: Page = page): Promise<void> {
  for (let i = 0; i < 40 && !(await canvasFocused(on)); i++) await on.keyboard.press('Tab');
  expect(await canvasFocused(on)).toBe(true);
  await on.waitForFunction(() => window.__treeStats!.focusRow !== null);
}

export async function focusAt(on: Page = page): Promise<{ row: number | null; column: number | null }> {
  const s = await stats(on);
  return { row: s.focusRow, column: s.focusColumn };
}

/** What the canvas's live region says now (a no-break space that tells repeated words apart dropped). */
export const said = async (on: Page = page) =>
  ((await on.getByTestId('tree-focus-description').textContent()) ?? '').replace(/\u00a0/g, '').trim();

/** Presses a key and waits for the live region to say something starting with `start`. */
export async function pressAndHear(key: string, start: string, on: Page = page): Promise<string> {
  await on.keyboard.press(key);
  await on.waitForFunction(
    (expected) =>
      (document.querySelector('[data-testid="tree-focus-description"]')?.textContent ?? '').trim().startsWith(expected),
    start,
    { timeout: 10_000 },
  );
  return said(on);
}

/** Every square the page's tree holds in a rectangle of positions, as [row, column, kind, status]. */
export function squaresIn(on: Page, rowFrom: number, rowTo: number, columnFrom: number, columnTo: number) {
  return on.evaluate(
    ([r0, r1, c0, c1]) => {
      const found: [number, number, string, number][] = [];
      for (let row = r0!; row <= r1!; row++) {
        for (let column = c0!; column <= c1!; column++) {
          const square = window.__treeSquareAt!(row, column);
          if (square) found.push([row, column, square.kind, square.status]);
        }
      }
      return found;
    },
    [rowFrom, rowTo, columnFrom, columnTo],
  );
}

/** The whole demo tree's squares (it is small: a few thousand positions to ask about). */
export const allSquares = (on: Page = page) => squaresIn(on, -5, 60, -40, 40);

export function countsOf(squares: [number, number, string, number][]) {
  const counts = { published: 0, reserved: 0, available: 0, unavailable: 0 };
  for (const [, , , status] of squares) {
    if (status === CellStatus.Published) counts.published++;
    else if (status === CellStatus.Reserved) counts.reserved++;
    else if (status === CellStatus.Available) counts.available++;
    else if (status === CellStatus.Pending) counts.unavailable++;
  }
  return counts;
}

/** The counts in words, as the survey writes them ("2 published pieces, 1 available square and …"). */
export function countsWords(counts: ReturnType<typeof countsOf>): string {
  const parts: string[] = [];
  const say = (n: number, one: string, many: string) =>
    n > 0 && parts.push(`${n.toLocaleString('en')} ${n === 1 ? one : many}`);
  say(counts.published, 'published piece', 'published pieces');
  say(counts.available, 'available square', 'available squares');
  say(counts.reserved, 'reserved square', 'reserved squares');
  say(counts.unavailable, 'unavailable square', 'unavailable squares');
  if (parts.length === 0) return 'no squares';
  return parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

export function cellsWith(status: number) {
  const { db } = gallery.app.deps;
  const tree = getDefaultTree(db)!;
  return db
    .select({ token: cells.token, row: cells.row, column: cells.column, type: cells.type })
    .from(cells)
    .where(and(eq(cells.treeId, tree.id), eq(cells.status, status)))
    .all();
}

export function pieceAt(row: number, column: number) {
  const { db } = gallery.app.deps;
  const tree = getDefaultTree(db)!;
  return db
    .select({ token: cells.token, title: art.title, firstname: users.firstname, lastname: users.lastname })
    .from(cells)
    .innerJoin(art, eq(art.id, cells.artId))
    .innerJoin(users, eq(users.id, art.authorId))
    .where(and(eq(cells.treeId, tree.id), eq(cells.row, row), eq(cells.column, column)))
    .get()!;
}

/** The survey's "In view: rows A to B, columns C to D: …" read back. */
export function parseView(text: string) {
  const match =
    /^In view: rows? (-?\d+)(?: to (-?\d+))?, columns? (-?\d+)(?: to (-?\d+))?: (.*?)\.(?: Bands in view: (.*)\.)?$/.exec(
      text,
    );
  expect(match, text).not.toBeNull();
  const [, r0, r1, c0, c1, counts, bands] = match!;
  return {
    rowFrom: Number(r0),
    rowTo: Number(r1 ?? r0),
    columnFrom: Number(c0),
    columnTo: Number(c1 ?? c0),
    counts: counts!,
    bands: bands ?? '',
  };
}

export const surveyView = (on: Page = page) => on.getByTestId('tree-survey-view');

/** Registers the shared set-up (beforeAll/afterAll) in the calling test file; call it once, at the file's top. */
export function useTreeAccess(): void {
  beforeAll(async () => {
    [gallery, browser] = await Promise.all([startGallery(), launchBrowser()]);
    settings = getDefaultTree(gallery.app.deps.db)!.settings as TreeSettings;
    page = await browser.newPage({ viewport: WIDE });
    errors = watchErrors(page);
  });

  afterAll(async () => {
    await browser?.close();
    await gallery?.stop();
  });
}

/** The square of `row` nearest to `column` (the left one of two as near), as the keyboard finds it. */
export function nearestInRow(squares: [number, number, string, number][], row: number, column: number) {
  const inRow = squares.filter(([r]) => r === row).map(([, c]) => c);
  if (inRow.length === 0) return null;
  return inRow.reduce((best, c) =>
    Math.abs(c - column) < Math.abs(best - column) || (Math.abs(c - column) === Math.abs(best - column) && c < best)
      ? c
      : best,
  );
}
