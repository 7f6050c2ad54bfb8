/**
 * The shared set-up of the tree-for-everyone browser tests: `const tree = useTreeAccess()` at a test file's top starts
 * one gallery, one Chromium and one wide page for the file (beforeAll/afterAll, through fileFixture), answered as
 * `tree.gallery`, `tree.browser`, `tree.page`, `tree.errors` and `tree.settings`, with `tree.tab`, a second page tests
 * take in turn, and the helpers that read the tree's camera, survey, focus and spoken words (on the file's page unless
 * given another).
 */
import { and, eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { art, cells, users } from '#drizzle/schema.ts';
import { CellStatus } from '#shared/domain.ts';
import type { TreeSettings } from '#shared/tree/geometry.ts';
import { getDefaultTree } from '#server/services/tree/tree.ts';
import { fileFixture } from '../file-fixture.ts';
import { launchBrowser, releaseBrowser, startGallery, watchErrors } from './harness.ts';
import { reusablePage, WIDE } from './pages.ts';
import { cellsWith, openTree, settled, stats } from './tree-page.ts';

export const PHONE = { width: 390, height: 844 };

const canvasFocused = (on: Page) =>
  on.evaluate(() => document.activeElement?.classList.contains('tree-canvas') ?? false);

/** What the canvas's live region says now (a no-break space that tells repeated words apart dropped). */
const saidOn = async (on: Page) =>
  ((await on.getByTestId('tree-focus-description').textContent()) ?? '').replace(/\u00a0/g, '').trim();

export function useTreeAccess() {
  const state = fileFixture(
    async () => {
      const [gallery, browser] = await Promise.all([startGallery(), launchBrowser()]);
      const settings = (await getDefaultTree(gallery.app.deps.db))!.settings as TreeSettings;
      const page = await browser.newPage({ viewport: WIDE });
      return { gallery, browser, page, errors: watchErrors(page), settings };
    },
    async ({ gallery, browser }) => {
      await releaseBrowser(browser);
      await gallery.stop();
    },
  );
  const page = () => state().page;
  const tab = reusablePage(() => state().browser, { locale: 'en-US' });
  return {
    /**
     * A second page, in a context of its own, for another visitor or another gallery: taken anew by each test that
     * needs one (no cookies, no storage of the last), instead of a new context each time.
     */
    tab,
    get gallery() {
      return state().gallery;
    },
    get browser() {
      return state().browser;
    },
    get page() {
      return page();
    },
    get errors() {
      return state().errors;
    },
    get settings() {
      return state().settings;
    },
    stats: (on: Page = page()) => stats(on),
    openTree: (search = '', on: Page = page()) => openTree(on, state().gallery, search),
    settled: (on: Page = page()) => settled(on),
    /** Tabs from the top of the page to the canvas (the keyboard's way in, so its focus cell shows). */
    async tabToCanvas(on: Page = page()): Promise<void> {
      for (let i = 0; i < 40 && !(await canvasFocused(on)); i++) await on.keyboard.press('Tab');
      expect(await canvasFocused(on)).toBe(true);
      await on.waitForFunction(() => window.__treeStats!.focusRow !== null);
    },
    async focusAt(on: Page = page()): Promise<{ row: number | null; column: number | null }> {
      const s = await stats(on);
      return { row: s.focusRow, column: s.focusColumn };
    },
    said: (on: Page = page()) => saidOn(on),
    /** Presses a key and waits for the live region to say something starting with `start`. */
    async pressAndHear(key: string, start: string, on: Page = page()): Promise<string> {
      await on.keyboard.press(key);
      await on.waitForFunction(
        (expected) =>
          (document.querySelector('[data-testid="tree-focus-description"]')?.textContent ?? '')
            .trim()
            .startsWith(expected),
        start,
        { timeout: 10_000 },
      );
      return saidOn(on);
    },
    /** The whole demo tree's squares (it is small: a few thousand positions to ask about). */
    allSquares: (on: Page = page()) => squaresIn(on, -5, 60, -40, 40),
    surveyView: (on: Page = page()) => on.getByTestId('tree-survey-view'),
    cellsWith: (status: number) => cellsWith(state().gallery, status),
    async pieceAt(row: number, column: number) {
      const { db } = state().gallery.app.deps;
      const tree = (await getDefaultTree(db))!;
      return db
        .select({ token: cells.token, title: art.title, firstname: users.firstname, lastname: users.lastname })
        .from(cells)
        .innerJoin(art, eq(art.id, cells.artId))
        .innerJoin(users, eq(users.id, art.authorId))
        .where(and(eq(cells.treeId, tree.id), eq(cells.row, row), eq(cells.column, column)))
        .get()!;
    },
  };
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
