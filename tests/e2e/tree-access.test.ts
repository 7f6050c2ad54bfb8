/**
 * The tree for everyone, in a real browser: the survey in words beside the canvas, the keyboard's long moves and the
 * tree's edge said aloud, where the keyboard goes after the popups and on the way back from a piece, the pan buttons
 * (on a wide screen and on a phone), and a visible focus on every control of the page.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { art, cells, reservations, trees, users } from '#drizzle/schema.ts';
import { CellStatus } from '#shared/domain.ts';
import { CELL_PITCH } from '#shared/tree/camera.ts';
import { bandStarts, type TreeSettings } from '#shared/tree/geometry.ts';
import { buildApp, type App } from '#server/app.ts';
import { createSession, SESSION_COOKIE } from '#server/auth/sessions.ts';
import { testConfig } from '#server/config.ts';
import { openDatabase, type Db } from '#server/db.ts';
import { generateSyntheticTree } from '#server/seed/synthetic.ts';
import { getDefaultTree } from '#server/services/tree/tree.ts';
import '#client/tree/engine/stats.ts';
import { axeViolations } from '../helpers/browser/axe.ts';
import { launchBrowser, postFromPage, startGallery, watchErrors, type Gallery } from '../helpers/browser/harness.ts';
import { E2E_CLIENT_DIR } from '../helpers/paths.ts';

const WIDE = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

let gallery: Gallery;
let browser: Browser;
let page: Page;
let errors: string[];
let settings: TreeSettings;

const stats = (on: Page = page) => on.evaluate(() => ({ ...window.__treeStats! }));

async function openTree(search = '', on: Page = page): Promise<void> {
  await on.goto(`${gallery.url}/observe${search}`);
  await on.waitForSelector('[data-tree-ready="true"]', { timeout: 60_000 });
}

/** Waits until the camera has stopped moving. */
async function settled(on: Page = page) {
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

const canvasFocused = (on: Page = page) =>
  on.evaluate(() => document.activeElement?.classList.contains('tree-canvas') ?? false);

/** Tabs from the top of the page to the canvas (the keyboard's way in, so its focus cell shows). */
async function tabToCanvas(on: Page = page): Promise<void> {
  for (let i = 0; i < 40 && !(await canvasFocused(on)); i++) await on.keyboard.press('Tab');
  expect(await canvasFocused(on)).toBe(true);
  await on.waitForFunction(() => window.__treeStats!.focusRow !== null);
}

async function focusAt(on: Page = page): Promise<{ row: number | null; column: number | null }> {
  const s = await stats(on);
  return { row: s.focusRow, column: s.focusColumn };
}

/** What the canvas's live region says now (a no-break space that tells repeated words apart dropped). */
const said = async (on: Page = page) =>
  ((await on.getByTestId('tree-focus-description').textContent()) ?? '').replace(/\u00a0/g, '').trim();

/** Presses a key and waits for the live region to say something starting with `start`. */
async function pressAndHear(key: string, start: string, on: Page = page): Promise<string> {
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
function squaresIn(on: Page, rowFrom: number, rowTo: number, columnFrom: number, columnTo: number) {
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
const allSquares = (on: Page = page) => squaresIn(on, -5, 60, -40, 40);

function countsOf(squares: [number, number, string, number][]) {
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
function countsWords(counts: ReturnType<typeof countsOf>): string {
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

function cellsWith(status: number) {
  const { db } = gallery.app.deps;
  const tree = getDefaultTree(db)!;
  return db
    .select({ token: cells.token, row: cells.row, column: cells.column, type: cells.type })
    .from(cells)
    .where(and(eq(cells.treeId, tree.id), eq(cells.status, status)))
    .all();
}

function pieceAt(row: number, column: number) {
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
function parseView(text: string) {
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

const surveyView = (on: Page = page) => on.getByTestId('tree-survey-view');

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

describe('the survey in words', () => {
  it('lists the bands with their squares of each kind, as the tree holds them', async () => {
    await openTree();
    const squares = await allSquares();
    const b = bandStarts(settings);
    const inRows = (from: number, to: number) => squares.filter(([row]) => row >= from && row <= to);
    const bands = page.getByTestId('tree-survey-bands').locator('li');
    await bands.first().waitFor({ state: 'attached' });
    const trunk = inRows(b.trunk, b.seed - 1);
    const branches = countsOf(trunk.filter(([, column]) => column < 0 || column >= settings.trunk.columns));
    expect(await bands.allTextContents()).toEqual([
      `Crown, rows 0 to ${b.trunk - 1}: ${countsWords(countsOf(inRows(0, b.trunk - 1)))}`,
      `Trunk and branches, rows ${b.trunk} to ${b.seed - 1}: ${countsWords(countsOf(trunk))} (on the branches: ${countsWords(branches)})`,
      `Seed, rows ${b.seed} to ${b.roots - 1}: ${countsWords(countsOf(inRows(b.seed, b.roots - 1)))}`,
      `Roots, rows ${b.roots} to ${b.end - 1}: ${countsWords(countsOf(inRows(b.roots, b.end - 1)))}`,
    ]);
    // A heading a screen reader can jump to, and the survey stays out of sight until the keyboard is in it.
    expect(await page.getByRole('heading', { name: 'The tree in words', level: 2 }).count()).toBe(1);
    expect((await page.getByTestId('tree-survey').boundingBox())!.width).toBeLessThanOrEqual(1);
  });

  it('follows the view: its squares counted, its pieces linked to their pages, and What is here? says it', async () => {
    await openTree('?row=24&col=2&zoom=1');
    await settled();
    await surveyView().waitFor({ state: 'attached' });
    // Once the camera rests, the survey names the positions the view shows (in part or whole) and what they hold.
    const s = await stats();
    const box = (await page.locator('.tree-canvas').boundingBox())!;
    const expected = {
      rowFrom: Math.floor(s.y / CELL_PITCH),
      rowTo: Math.floor((s.y + box.height / s.scale) / CELL_PITCH),
      columnFrom: Math.floor(s.x / CELL_PITCH),
      columnTo: Math.floor((s.x + box.width / s.scale) / CELL_PITCH),
    };
    await expect.poll(async () => parseView((await surveyView().textContent())!)).toMatchObject(expected);
    const view = parseView((await surveyView().textContent())!);
    const inView = await squaresIn(page, view.rowFrom, view.rowTo, view.columnFrom, view.columnTo);
    expect(view.counts).toBe(countsWords(countsOf(inView)));
    expect(view.bands).toBe('trunk and branches');

    // Every published piece in view, in reading order, by title and artist, linked to its page (titles come with the
    // view's region once it rests).
    const published = inView.filter(([, , , status]) => status === CellStatus.Published);
    const links = page.getByTestId('tree-survey-pieces').getByRole('link');
    await expect
      .poll(async () => (await links.allTextContents()).filter((text) => text.includes('on its way')).length, {
        timeout: 10_000,
      })
      .toBe(0);
    expect(await links.count()).toBe(published.length);
    for (const [k, [row, column]] of published.entries()) {
      const piece = pieceAt(row, column);
      const link = links.nth(k);
      expect(await link.textContent()).toBe(
        `${piece.title} by ${piece.firstname} ${piece.lastname}, row ${row}, column ${column}`,
      );
      expect(await link.getAttribute('href')).toBe(`/observe/cell/${piece.token}/details`);
    }

    // What is here? says the view in a polite status.
    const saidHere = page.getByTestId('tree-survey-said');
    expect(await saidHere.getAttribute('role')).toBe('status');
    // Out of sight until the keyboard is in it: the keyboard presses it.
    await page.getByRole('button', { name: 'What is here?' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => saidHere.textContent()).toBe(await surveyView().textContent());

    // The view moves (a pan button): the survey follows once it rests.
    await page.getByRole('button', { name: 'Pan up' }).click();
    await settled();
    await expect.poll(async () => parseView((await surveyView().textContent())!).rowFrom).toBeLessThan(view.rowFrom);
    const moved = parseView((await surveyView().textContent())!);
    expect(moved.counts).toBe(
      countsWords(countsOf(await squaresIn(page, moved.rowFrom, moved.rowTo, moved.columnFrom, moved.columnTo))),
    );
    expect(errors).toEqual([]);
  });

  it('shows itself once the keyboard is in it, and axe finds nothing wrong on the page', async () => {
    await openTree();
    await settled();
    await page.getByRole('button', { name: 'What is here?' }).focus();
    const panel = (await page.getByTestId('tree-survey').boundingBox())!;
    expect(panel.width).toBeGreaterThan(200);
    expect(panel.height).toBeGreaterThan(100);
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('a piece opened from the survey has the keyboard again on the way back', async () => {
    await openTree('?row=30&col=2&zoom=1');
    await settled();
    const link = page.getByTestId('tree-survey-pieces').getByRole('link').first();
    await link.waitFor({ state: 'attached' });
    const match = /, row (\d+), column (-?\d+)$/.exec((await link.textContent())!)!;
    const square = { row: Number(match[1]), column: Number(match[2]) };
    await link.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname.endsWith('/details'));
    await page.locator('.tree-canvas').waitFor({ state: 'detached' });
    await page.goBack();
    await page.waitForSelector('[data-tree-ready="true"]');
    await page.waitForFunction(() => document.activeElement?.classList.contains('tree-canvas'));
    await page.waitForFunction(() => window.__treeStats!.focusRow !== null);
    expect(await focusAt()).toEqual(square);
  });
});

describe('a survey of a crowded view', () => {
  let big: { app: App; db: Db; dir: string; url: string };

  beforeAll(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gallery-e2e-survey-'));
    const db = openDatabase(path.join(dir, 'gallery.db'));
    generateSyntheticTree(db, { cells: 3_000 });
    const app = await buildApp(testConfig(dir, { port: 0, host: '127.0.0.1', clientDir: E2E_CLIENT_DIR }), { db });
    big = { app, db, dir, url: await app.start() };
  });

  afterAll(async () => {
    await big?.app.stop();
    big?.db.$client.close();
    if (big) fs.rmSync(big.dir, { recursive: true, force: true });
  });

  it('lists 60 pieces at most and counts the rest', async () => {
    const crowded = await browser.newPage({ viewport: WIDE });
    const crowdedErrors = watchErrors(crowded);
    const tree = big.db.select({ settings: trees.settings }).from(trees).get()!;
    const b = bandStarts(tree.settings as TreeSettings);
    await crowded.goto(`${big.url}/observe?row=${b.seed - 8}&col=2&zoom=0.5`);
    await crowded.waitForSelector('[data-tree-ready="true"]', { timeout: 60_000 });
    await settled(crowded);
    const viewText = surveyView(crowded);
    await viewText.waitFor({ state: 'attached' });
    const view = parseView((await viewText.textContent())!);
    const published = countsOf(
      await squaresIn(crowded, view.rowFrom, view.rowTo, view.columnFrom, view.columnTo),
    ).published;
    expect(published).toBeGreaterThan(60);
    expect(await crowded.getByTestId('tree-survey-pieces').locator('li').count()).toBe(60);
    expect(await crowded.getByTestId('tree-survey-more').textContent()).toMatch(
      new RegExp(`^And ${(published - 60).toLocaleString('en')} more published pieces in view`),
    );
    // The small tree's titles are asked for region by region, for the view only.
    const links = crowded.getByTestId('tree-survey-pieces').getByRole('link');
    await expect
      .poll(async () => (await links.allTextContents()).filter((text) => text.includes('on its way')).length, {
        timeout: 15_000,
      })
      .toBe(0);
    expect(crowdedErrors).toEqual([]);
    await crowded.close();
  });
});

/** The square of `row` nearest to `column` (the left one of two as near), as the keyboard finds it. */
function nearestInRow(squares: [number, number, string, number][], row: number, column: number) {
  const inRow = squares.filter(([r]) => r === row).map(([, c]) => c);
  if (inRow.length === 0) return null;
  return inRow.reduce((best, c) =>
    Math.abs(c - column) < Math.abs(best - column) || (Math.abs(c - column) === Math.abs(best - column) && c < best)
      ? c
      : best,
  );
}

describe('keys for moving far', () => {
  it("Home and End reach the row's ends, Page Up and Down go a screenful, and the edge of the tree is said", async () => {
    await openTree('?row=24&col=2&zoom=1');
    await settled();
    await tabToCanvas();
    expect(await focusAt()).toEqual({ row: 24, column: 2 });
    const squares = await allSquares();
    const row24 = squares.filter(([row]) => row === 24).map(([, column]) => column);
    const [first, last] = [Math.min(...row24), Math.max(...row24)];

    expect(await pressAndHear('Home', `row 24, column ${first}:`)).toMatch(/^row 24, column -?\d+: /);
    expect(await focusAt()).toEqual({ row: 24, column: first });
    expect(await pressAndHear('ArrowLeft', 'Edge of the tree')).toBe('Edge of the tree: no more columns to the left.');
    expect(await focusAt()).toEqual({ row: 24, column: first });
    // Said again when pressed again.
    await page.keyboard.press('Home');
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="tree-focus-description"]')!.textContent.endsWith('\u00a0'),
    );
    expect(await said()).toBe('Edge of the tree: no more columns to the left.');

    await pressAndHear('End', `row 24, column ${last}:`);
    expect(await pressAndHear('ArrowRight', 'Edge of the tree')).toBe(
      'Edge of the tree: no more columns to the right.',
    );

    // A screenful of rows: as many whole rows as the canvas shows at this zoom.
    const s = await stats();
    const box = (await page.locator('.tree-canvas').boundingBox())!;
    const rows = Math.max(1, Math.floor(box.height / (CELL_PITCH * s.scale)));
    const target = 24 + rows;
    const column = nearestInRow(squares, target, last)!;
    await pressAndHear('PageDown', `row ${target}, column ${column}:`);
    expect(await focusAt()).toEqual({ row: target, column });
    // The square is on screen: the view went with it.
    const after = await settled();
    expect(target * CELL_PITCH).toBeGreaterThanOrEqual(after.y);
    expect((target + 1) * CELL_PITCH).toBeLessThanOrEqual(after.y + box.height / after.scale + CELL_PITCH);

    const lastRow = bandStarts(settings).end - 1;
    for (let i = 0; i < 20 && (await focusAt()).row !== lastRow; i++) await page.keyboard.press('PageDown');
    expect((await focusAt()).row).toBe(lastRow);
    expect(await pressAndHear('PageDown', 'Edge of the tree')).toBe('Edge of the tree: no more rows below.');
    const up = lastRow - rows;
    await pressAndHear('PageUp', `row ${up}, column `);
    expect((await focusAt()).row).toBe(up);
    expect(errors).toEqual([]);
  });

  it('B jumps from band to band, P to the next published piece and F to the next free square, Shift going back', async () => {
    const b = bandStarts(settings);
    await openTree(`?row=1&col=2&zoom=1`);
    await settled();
    await tabToCanvas();
    const start = await focusAt();
    expect(start.row).toBeLessThan(b.trunk);
    const squares = await allSquares();
    const firstWithSquare = (from: number) => {
      for (let row = from; row < b.end; row++) {
        const column = nearestInRow(squares, row, start.column!);
        if (column !== null) return { row, column };
      }
      throw new Error(`No square from row ${from}`);
    };

    let at = firstWithSquare(b.trunk);
    expect(await pressAndHear('b', 'Trunk and branches band. ')).toMatch(
      new RegExp(`^Trunk and branches band\\. row ${at.row}, column ${at.column}: `),
    );
    expect(await focusAt()).toEqual(at);
    at = firstWithSquare(b.seed);
    await pressAndHear('b', `Seed band. row ${at.row}, column ${at.column}: `);
    at = firstWithSquare(b.roots);
    await pressAndHear('b', `Roots band. row ${at.row}, column ${at.column}: `);
    expect(await pressAndHear('b', 'Edge of the tree')).toBe('Edge of the tree: no band below this one.');
    at = firstWithSquare(b.seed);
    await pressAndHear('Shift+B', `Seed band. row ${at.row}, column ${at.column}: `);
    expect(await focusAt()).toEqual(at);

    // Reading order: along the row, then the next row.
    const order = [...squares].sort((p, q) => p[0] - q[0] || p[1] - q[1]);
    const after = (from: { row: number; column: number }, status: number, direction: 1 | -1) => {
      const list = direction > 0 ? order : [...order].reverse();
      const found = list.find(
        ([row, column, , s]) =>
          s === status &&
          (direction > 0
            ? row > from.row || (row === from.row && column > from.column)
            : row < from.row || (row === from.row && column < from.column)),
      );
      return found ? { row: found[0], column: found[1] } : null;
    };
    let next = after(at, CellStatus.Published, 1)!;
    expect(await pressAndHear('p', `row ${next.row}, column ${next.column}: published — `)).toMatch(/ by /);
    expect(await focusAt()).toEqual(next);
    const previous = after(next, CellStatus.Published, -1)!;
    await pressAndHear('Shift+P', `row ${previous.row}, column ${previous.column}: published`);
    next = after(previous, CellStatus.Available, 1)!;
    await pressAndHear('f', `row ${next.row}, column ${next.column}: available`);
    expect(await focusAt()).toEqual(next);
    const free = after(next, CellStatus.Available, -1)!;
    await pressAndHear('Shift+F', `row ${free.row}, column ${free.column}: available`);

    // Up, band after band, to the crown and its edge; at the start of its first row with a square, no piece comes
    // before it.
    for (let i = 0; i < 5 && (await said()) !== 'Edge of the tree: no band above this one.'; i++) {
      const before = await page.getByTestId('tree-focus-description').textContent();
      await page.keyboard.press('Shift+B');
      await page.waitForFunction(
        (text) => document.querySelector('[data-testid="tree-focus-description"]')!.textContent !== text,
        before,
      );
    }
    expect(await said()).toBe('Edge of the tree: no band above this one.');
    expect((await focusAt()).row).toBeLessThan(b.trunk);
    await page.keyboard.press('Home');
    expect(await pressAndHear('Shift+P', 'Edge of the tree')).toBe(
      'Edge of the tree: no published piece before this square.',
    );
    expect(errors).toEqual([]);
  });

  it('find-free takes the keyboard to the square it shows, so Enter opens that square', async () => {
    await openTree();
    await settled();
    // The keyboard is on the canvas first, on the square in the middle.
    await tabToCanvas();
    const before = await focusAt();
    const findFree = page.getByRole('button', { name: 'Find next free square' });
    await findFree.focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => window.__treeStats!.targetRow !== null);
    const shown = await settled();
    expect({ row: shown.targetRow, column: shown.targetColumn }).not.toEqual(before);
    // Back to the canvas (Shift+Tab would walk the panel's buttons first): its focus cell is the square find-free showed.
    await page.locator('.tree-canvas').focus();
    await page.waitForFunction(() => window.__treeStats!.focusRow !== null);
    expect(await focusAt()).toEqual({ row: shown.targetRow, column: shown.targetColumn });
    await page.keyboard.press('Enter');
    const facts = page.getByTestId('reserve-popup').getByTestId('cell-facts');
    await facts.waitFor();
    expect(await facts.locator('dd').allTextContents()).toEqual([
      String(shown.targetRow),
      String(shown.targetColumn),
      expect.stringMatching(/^available/),
    ]);
    await page.keyboard.press('Escape');
    await page.getByTestId('reserve-popup').waitFor({ state: 'detached' });
  });

  it("lists the keys in the help popup and in the canvas's description", async () => {
    await openTree();
    const description = await page.evaluate(() => {
      const ids = document.querySelector('.tree-canvas')!.getAttribute('aria-describedby')!.split(' ');
      return ids.map((id) => document.getElementById(id)!.textContent).join(' ');
    });
    for (const words of [
      'Home and End',
      'Page Up and Page Down',
      'B jumps to the next band',
      'Shift+B',
      'P to the next published piece',
      'F to the next free square',
    ]) {
      expect(description).toContain(words);
    }
    await page.getByRole('button', { name: 'Help' }).click();
    const keys = page.getByTestId('help-keys');
    await keys.waitFor();
    expect((await keys.locator('dt').allTextContents()).map((text) => text.replace(/\s+/g, ' ').trim())).toEqual([
      'Home / End',
      'Page Up / Page Down',
      'B / Shift+B',
      'P / Shift+P',
      'F / Shift+F',
    ]);
    await page.keyboard.press('Escape');
    await keys.waitFor({ state: 'detached' });
  });
});

describe('where the keyboard goes', () => {
  it('closing the search results gives the focus to the Search button, the box that opened them being gone', async () => {
    await openTree();
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const box = page.locator('.tree-search input');
    await box.fill('tide');
    await box.press('Enter');
    const popup = page.getByTestId('search-popup');
    await popup.waitFor();
    await page.keyboard.press('Escape');
    await popup.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Search');
  });

  it("back from a piece's page, by Back or by its close button, the view and the keyboard are on the piece again", async () => {
    // The demo's pieces lie where its seed put them: take one of the trunk's.
    const square = cellsWith(CellStatus.Published).find(
      (cell) => cell.row >= bandStarts(settings).trunk && cell.row < bandStarts(settings).seed,
    )!;
    const piece = pieceAt(square.row, square.column);
    await openTree(`?row=${square.row}&col=${square.column}&zoom=1`);
    await settled();
    await tabToCanvas();
    expect(await focusAt()).toEqual({ row: square.row, column: square.column });
    const before = await settled();

    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === `/observe/cell/${piece.token}/details`);
    await page.locator('.tree-canvas').waitFor({ state: 'detached' });
    await page.goBack();
    await page.waitForSelector('[data-tree-ready="true"]');
    await page.waitForFunction(() => document.activeElement?.classList.contains('tree-canvas'));
    await page.waitForFunction(() => window.__treeStats!.focusRow !== null);
    expect(await focusAt()).toEqual({ row: square.row, column: square.column });
    let after = await settled();
    expect({ x: after.x, y: after.y, scale: after.scale }).toEqual({ x: before.x, y: before.y, scale: before.scale });

    // Enter opens it again; the page's close button comes back the same way.
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === `/observe/cell/${piece.token}/details`);
    const close = page.getByRole('button', { name: 'Close and return to the tree' });
    await close.focus();
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-tree-ready="true"]');
    await page.waitForFunction(() => document.activeElement?.classList.contains('tree-canvas'));
    await page.waitForFunction(() => window.__treeStats!.focusRow !== null);
    expect(await focusAt()).toEqual({ row: square.row, column: square.column });
    after = await settled();
    expect({ x: after.x, y: after.y, scale: after.scale }).toEqual({ x: before.x, y: before.y, scale: before.scale });
    // The arrows go on from there.
    await page.keyboard.press('ArrowDown');
    expect(await focusAt()).not.toEqual({ row: square.row, column: square.column });
    expect(errors).toEqual([]);
  });

  it("after the reserve popup's steps, the keyboard is back on the canvas", async () => {
    const context = await browser.newContext({ viewport: WIDE, locale: 'en-US' });
    const member = await context.newPage();
    const memberErrors = watchErrors(member);
    await member.goto(`${gallery.url}/`);
    await member.waitForFunction(() => !document.querySelector('.shell__loading'));
    const email = `access.${Date.now().toString(36)}@example.com`;
    expect(
      await postFromPage(member, '/api/register', {
        firstname: 'Key',
        lastname: 'Board',
        email,
        password: 'reserve-pass-1!',
      }),
    ).toBe(200);
    const square = cellsWith(CellStatus.Available).find((cell) => cell.type === 1)!;
    // A link to the square: the canvas has the keyboard, on the square.
    await member.goto(`${gallery.url}/observe?cell=${square.token}`);
    await member.waitForSelector('[data-tree-ready="true"]', { timeout: 60_000 });
    await member.waitForFunction(() => document.activeElement?.classList.contains('tree-canvas'));
    await member.keyboard.press('Enter');
    const popup = member.getByTestId('reserve-popup');
    await popup.waitFor();
    const focused = () =>
      member.evaluate(() =>
        `${document.activeElement?.tagName} ${(document.activeElement as HTMLInputElement).value ?? ''}`.trim(),
      );
    await popup.getByRole('radio', { name: 'Yes' }).check();
    await member.keyboard.press('Enter');
    // Each step takes the keyboard to its first control: the button it came from is disabled, then gone.
    await popup.getByTestId('reserve-step-1').waitFor();
    await expect.poll(focused).toBe('INPUT yes');
    await member.keyboard.press('ArrowDown');
    expect(await focused()).toBe('INPUT no');
    await member.keyboard.press('Enter');
    await popup.getByTestId('reserve-step-2').waitFor();
    await expect.poll(focused).toBe('BUTTON');
    expect(await member.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Done');
    await member.keyboard.press('Enter');
    await popup.waitFor({ state: 'detached' });
    await member.waitForFunction(() => document.activeElement?.classList.contains('tree-canvas'));
    expect(memberErrors).toEqual([]);
    await context.close();
  });

  it('find-my-squares takes the keyboard to the square it shows', async () => {
    const { db, clock } = gallery.app.deps;
    const tree = getDefaultTree(db)!;
    const held = db
      .select({ userId: reservations.userId, row: cells.row, column: cells.column })
      .from(reservations)
      .innerJoin(cells, eq(cells.id, reservations.cellId))
      .where(and(eq(reservations.state, 'active'), eq(cells.treeId, tree.id)))
      .get()!;
    const session = createSession(db, clock, held.userId);
    const context: BrowserContext = await browser.newContext({ viewport: WIDE });
    await context.addCookies([{ name: SESSION_COOKIE, value: session.token, url: gallery.url }]);
    const artist = await context.newPage();
    const artistErrors = watchErrors(artist);
    await openTree('', artist);
    // The reservation's own prompt may come up first: answer it later.
    const prompt = artist.getByTestId('edit-reserved-cell-popup');
    await prompt.waitFor({ timeout: 4_000 }).then(
      () => prompt.getByRole('button', { name: /later/i }).click(),
      () => undefined,
    );
    await prompt.waitFor({ state: 'detached' });
    await tabToCanvas(artist);
    const findMine = artist.getByRole('button', { name: 'Find my squares' });
    await findMine.focus();
    await artist.keyboard.press('Enter');
    await artist.waitForFunction(() => window.__treeStats!.targetRow !== null);
    await settled(artist);
    await artist.locator('.tree-canvas').focus();
    await artist.waitForFunction(() => window.__treeStats!.focusRow !== null);
    expect(await focusAt(artist)).toEqual({ row: held.row, column: held.column });
    expect(artistErrors).toEqual([]);
    await context.close();
  });
});

describe('pan without dragging', () => {
  it('on a wide screen, four named buttons in the panel move the view half a screen each way', async () => {
    await openTree('?row=24&col=2&zoom=1');
    const start = await settled();
    const box = (await page.locator('.tree-canvas').boundingBox())!;
    const group = page.getByRole('group', { name: 'Pan the view' });
    expect(
      await group.getByRole('button').evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label'))),
    ).toEqual(['Pan left', 'Pan up', 'Pan down', 'Pan right']);
    expect(await page.getByRole('button', { name: 'Pan buttons' }).isVisible()).toBe(false);
    // Where the camera is after each press, from where it started.
    const moves: [string, number, number][] = [
      ['Pan right', box.width / 2, 0],
      ['Pan down', box.width / 2, box.height / 2],
      ['Pan left', 0, box.height / 2],
      ['Pan up', 0, 0],
    ];
    for (const [name, dx, dy] of moves) {
      await page.getByRole('button', { name, exact: true }).click();
      const s = await settled();
      expect({ name, x: s.x - start.x, y: s.y - start.y }).toEqual({
        name,
        x: expect.closeTo(dx / s.scale, 3),
        y: expect.closeTo(dy / s.scale, 3),
      });
    }
  });

  it('on a phone, one button in the panel strip shows the four, which fit the screen', async () => {
    const context = await browser.newContext({ viewport: PHONE, deviceScaleFactor: 3, hasTouch: true, isMobile: true });
    const phone = await context.newPage();
    const phoneErrors = watchErrors(phone);
    await openTree('?row=24&col=2&zoom=1', phone);
    const start = await settled(phone);
    const toolbar = (await phone.getByRole('toolbar', { name: 'Tree view' }).boundingBox())!;
    expect(toolbar.x).toBeGreaterThanOrEqual(0);
    expect(toolbar.x + toolbar.width).toBeLessThanOrEqual(PHONE.width);
    const toggle = phone.getByRole('button', { name: 'Pan buttons' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await phone.getByRole('button', { name: 'Pan up' }).isVisible()).toBe(false);
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    for (const name of ['Pan left', 'Pan up', 'Pan down', 'Pan right']) {
      const button = (await phone.getByRole('button', { name, exact: true }).boundingBox())!;
      expect(button.x).toBeGreaterThanOrEqual(0);
      expect(button.x + button.width).toBeLessThanOrEqual(PHONE.width);
      expect(button.y).toBeGreaterThanOrEqual(toolbar.y + toolbar.height);
      expect(Math.min(button.width, button.height)).toBeGreaterThanOrEqual(24);
    }
    await phone.getByRole('button', { name: 'Pan up', exact: true }).click();
    const s = await settled(phone);
    expect(s.y).toBeLessThan(start.y);
    expect(s.x).toBe(start.x);
    expect(await axeViolations(phone)).toEqual([]);
    // Escape puts them away, the keyboard back on their button.
    await phone.getByRole('button', { name: 'Pan down', exact: true }).focus();
    await phone.keyboard.press('Escape');
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await phone.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Pan buttons');
    expect(phoneErrors).toEqual([]);
    await context.close();
  });

  it('the panel still fits a 320-pixel screen with every button, find-my-squares included', async () => {
    const { db, clock } = gallery.app.deps;
    const tree = getDefaultTree(db)!;
    const held = db
      .select({ userId: reservations.userId })
      .from(reservations)
      .innerJoin(cells, eq(cells.id, reservations.cellId))
      .where(and(eq(reservations.state, 'active'), eq(cells.treeId, tree.id)))
      .get()!;
    const context = await browser.newContext({ viewport: { width: 320, height: 640 }, hasTouch: true, isMobile: true });
    await context.addCookies([
      { name: SESSION_COOKIE, value: createSession(db, clock, held.userId).token, url: gallery.url },
    ]);
    const narrow = await context.newPage();
    await openTree('', narrow);
    await narrow.getByRole('button', { name: 'Find my squares' }).waitFor();
    const toolbar = narrow.getByRole('toolbar', { name: 'Tree view' });
    for (const button of await toolbar.getByRole('button').all()) {
      if (!(await button.isVisible())) continue;
      const box = (await button.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(320);
      expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(24);
    }
    await context.close();
  });
});

describe('a visible focus', () => {
  /** Whether the focused element draws a ring: its outline, its box shadow, or (the search box's input) its form's. */
  const focusRing = (on: Page) =>
    on.evaluate(() => {
      const element = document.activeElement as HTMLElement;
      const drawn = (el: Element) => {
        const style = getComputedStyle(el);
        return (
          (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2) ||
          style.boxShadow.includes('inset') ||
          /\b2px\b/.test(style.boxShadow)
        );
      };
      const form = element.closest('.tree-search');
      return {
        name: element.getAttribute('aria-label') ?? element.textContent?.trim().slice(0, 40) ?? element.tagName,
        ring: drawn(element) || (element.tagName === 'INPUT' && form !== null && drawn(form)),
      };
    });

  it('every control of the tree page shows where the keyboard is, the small search box included', async () => {
    await openTree();
    await settled();
    await tabToCanvas();
    const seen: { name: string; ring: boolean }[] = [await focusRing(page)];
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      const inTree = await page.evaluate(
        () => document.activeElement?.closest('.tree-area') !== null && document.activeElement !== document.body,
      );
      if (!inTree) break;
      seen.push(await focusRing(page));
    }
    // The canvas, the panel's buttons, the replay's, and the survey's button and links.
    expect(seen.length).toBeGreaterThan(12);
    expect(seen.map((s) => s.name)).toEqual(
      expect.arrayContaining(['Zoom in', 'Pan left', 'Search', 'Help', 'What is here?']),
    );
    expect(seen.filter((s) => !s.ring)).toEqual([]);

    await page.getByRole('button', { name: 'Search', exact: true }).focus();
    await page.keyboard.press('Enter');
    await page.locator('.tree-search input').waitFor();
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('INPUT');
    expect(await focusRing(page)).toMatchObject({ ring: true });
    await page.keyboard.press('Tab');
    expect(await focusRing(page)).toEqual({ name: 'Cancel search', ring: true });
  });
});
