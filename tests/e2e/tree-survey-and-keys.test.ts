/**
 * The tree for everyone, in a real browser: the survey in words beside the canvas (also of a crowded view), and the
 * keyboard's long moves with the tree's edge said aloud.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trees } from '#drizzle/schema.ts';
import { CellStatus } from '#shared/domain.ts';
import { CELL_PITCH } from '#shared/tree/camera.ts';
import { bandStarts, type TreeSettings } from '#shared/tree/geometry.ts';
import { buildApp, type App } from '#server/app.ts';
import { testConfig } from '#server/config.ts';
import { openDatabase, type Db } from '#server/db.ts';
import { generateSyntheticTree } from '#server/seed/synthetic.ts';
import '#client/tree/engine/stats.ts';
import { axeViolations } from '../helpers/browser/axe.ts';
import { E2E_CLIENT_DIR } from '../helpers/paths.ts';
import {
  countsOf,
  countsWords,
  nearestInRow,
  parseView,
  squaresIn,
  useTreeAccess,
} from '#tests/helpers/browser/tree-access.ts';

const treePage = useTreeAccess();

describe('the survey in words', () => {
  it('lists the bands with their squares of each kind, as the tree holds them', async () => {
    await treePage.openTree();
    const squares = await treePage.allSquares();
    const b = bandStarts(treePage.settings);
    const inRows = (from: number, to: number) => squares.filter(([row]) => row >= from && row <= to);
    const bands = treePage.page.getByTestId('tree-survey-bands').locator('li');
    await bands.first().waitFor({ state: 'attached' });
    const trunk = inRows(b.trunk, b.seed - 1);
    const branches = countsOf(trunk.filter(([, column]) => column < 0 || column >= treePage.settings.trunk.columns));
    expect(await bands.allTextContents()).toEqual([
      `Crown, rows 0 to ${b.trunk - 1}: ${countsWords(countsOf(inRows(0, b.trunk - 1)))}`,
      `Trunk and branches, rows ${b.trunk} to ${b.seed - 1}: ${countsWords(countsOf(trunk))} (on the branches: ${countsWords(branches)})`,
      `Seed, rows ${b.seed} to ${b.roots - 1}: ${countsWords(countsOf(inRows(b.seed, b.roots - 1)))}`,
      `Roots, rows ${b.roots} to ${b.end - 1}: ${countsWords(countsOf(inRows(b.roots, b.end - 1)))}`,
    ]);
    // A heading a screen reader can jump to, and the survey stays out of sight until the keyboard is in it.
    expect(await treePage.page.getByRole('heading', { name: 'The tree in words', level: 2 }).count()).toBe(1);
    expect((await treePage.page.getByTestId('tree-survey').boundingBox())!.width).toBeLessThanOrEqual(1);
  });

  it('follows the view: its squares counted, its pieces linked to their pages, and What is here? says it', async () => {
    await treePage.openTree('?row=24&col=2&zoom=1');
    await treePage.settled();
    await treePage.surveyView().waitFor({ state: 'attached' });
    // Once the camera rests, the survey names the positions the view shows (in part or whole) and what they hold.
    const s = await treePage.stats();
    const box = (await treePage.page.locator('.tree-canvas').boundingBox())!;
    const expected = {
      rowFrom: Math.floor(s.y / CELL_PITCH),
      rowTo: Math.floor((s.y + box.height / s.scale) / CELL_PITCH),
      columnFrom: Math.floor(s.x / CELL_PITCH),
      columnTo: Math.floor((s.x + box.width / s.scale) / CELL_PITCH),
    };
    await expect.poll(async () => parseView((await treePage.surveyView().textContent())!)).toMatchObject(expected);
    const view = parseView((await treePage.surveyView().textContent())!);
    const inView = await squaresIn(treePage.page, view.rowFrom, view.rowTo, view.columnFrom, view.columnTo);
    expect(view.counts).toBe(countsWords(countsOf(inView)));
    expect(view.bands).toBe('trunk and branches');

    // Every published piece in view, in reading order, by title and artist, linked to its page (titles come with the
    // view's region once it rests).
    const published = inView.filter(([, , , status]) => status === CellStatus.Published);
    const links = treePage.page.getByTestId('tree-survey-pieces').getByRole('link');
    await expect
      .poll(async () => (await links.allTextContents()).filter((text) => text.includes('on its way')).length, {
        timeout: 10_000,
      })
      .toBe(0);
    expect(await links.count()).toBe(published.length);
    for (const [k, [row, column]] of published.entries()) {
      const piece = await treePage.pieceAt(row, column);
      const link = links.nth(k);
      expect(await link.textContent()).toBe(
        `${piece.title} by ${piece.firstname} ${piece.lastname}, row ${row}, column ${column}`,
      );
      expect(await link.getAttribute('href')).toBe(`/observe/cell/${piece.token}/details`);
    }

    // What is here? says the view in a polite status.
    const saidHere = treePage.page.getByTestId('tree-survey-said');
    expect(await saidHere.getAttribute('role')).toBe('status');
    // Out of sight until the keyboard is in it: the keyboard presses it.
    await treePage.page.getByRole('button', { name: 'What is here?' }).focus();
    await treePage.page.keyboard.press('Enter');
    await expect.poll(() => saidHere.textContent()).toBe(await treePage.surveyView().textContent());
    // Once said, the words leave the status: the survey then holds each sentence once (the view's under "In view").
    await expect.poll(() => saidHere.textContent(), { timeout: 10_000 }).toBe('');
    const sentences = await treePage.page.getByTestId('tree-survey').evaluate((survey) =>
      [...survey.querySelectorAll('h2, h3, p, li, button')]
        .flatMap((element) =>
          element.tagName === 'P' ? element.textContent!.split(/(?<=[.?!])\s+/) : [element.textContent!],
        )
        .map((sentence) => sentence.trim())
        .filter(Boolean),
    );
    expect(sentences.filter((sentence, i) => sentences.indexOf(sentence) !== i)).toEqual([]);

    // The view moves (a pan button): the survey follows once it rests.
    await treePage.page.getByRole('button', { name: 'Pan up' }).click();
    await treePage.settled();
    await expect
      .poll(async () => parseView((await treePage.surveyView().textContent())!).rowFrom)
      .toBeLessThan(view.rowFrom);
    const moved = parseView((await treePage.surveyView().textContent())!);
    expect(moved.counts).toBe(
      countsWords(
        countsOf(await squaresIn(treePage.page, moved.rowFrom, moved.rowTo, moved.columnFrom, moved.columnTo)),
      ),
    );
    expect(treePage.errors).toEqual([]);
  });

  it('shows itself once the keyboard is in it, and axe finds nothing wrong on the page', async () => {
    await treePage.openTree();
    await treePage.settled();
    await treePage.page.getByRole('button', { name: 'What is here?' }).focus();
    const panel = (await treePage.page.getByTestId('tree-survey').boundingBox())!;
    expect(panel.width).toBeGreaterThan(200);
    expect(panel.height).toBeGreaterThan(100);
    expect(await axeViolations(treePage.page)).toEqual([]);
    expect(treePage.errors).toEqual([]);
  });

  it('a piece opened from the survey has the keyboard again on the way back', async () => {
    await treePage.openTree('?row=30&col=2&zoom=1');
    await treePage.settled();
    const link = treePage.page.getByTestId('tree-survey-pieces').getByRole('link').first();
    await link.waitFor({ state: 'attached' });
    const match = /, row (\d+), column (-?\d+)$/.exec((await link.textContent())!)!;
    const square = { row: Number(match[1]), column: Number(match[2]) };
    await link.focus();
    await treePage.page.keyboard.press('Enter');
    await treePage.page.waitForURL((url) => url.pathname.endsWith('/details'));
    await treePage.page.locator('.tree-canvas').waitFor({ state: 'detached' });
    await treePage.page.goBack();
    await treePage.page.waitForSelector('[data-tree-ready="true"]');
    await treePage.page.waitForFunction(() => document.activeElement?.classList.contains('tree-canvas'));
    await treePage.page.waitForFunction(() => window.__treeStats!.focusRow !== null);
    expect(await treePage.focusAt()).toEqual(square);
  });
});

describe('a survey of a crowded view', () => {
  let big: { app: App; db: Db; dir: string; url: string };

  beforeAll(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gallery-e2e-survey-'));
    const db = openDatabase(path.join(dir, 'gallery.db'));
    await generateSyntheticTree(db, { cells: 3_000 });
    const app = await buildApp(testConfig(dir, { port: 0, host: '127.0.0.1', clientDir: E2E_CLIENT_DIR }), { db });
    big = { app, db, dir, url: await app.start() };
  });

  afterAll(async () => {
    await big?.app.stop();
    big?.db.$client.close();
    if (big) fs.rmSync(big.dir, { recursive: true, force: true });
  });

  it('lists 60 pieces at most and counts the rest', async () => {
    const { page: crowded, errors: crowdedErrors } = await treePage.tab.take();
    const tree = big.db.select({ settings: trees.settings }).from(trees).get()!;
    const b = bandStarts(tree.settings as TreeSettings);
    await crowded.goto(`${big.url}/observe?row=${b.seed - 8}&col=2&zoom=0.5`);
    await crowded.waitForSelector('[data-tree-ready="true"]', { timeout: 60_000 });
    await treePage.settled(crowded);
    const viewText = treePage.surveyView(crowded);
    await viewText.waitFor({ state: 'attached' });
    // The survey follows the camera once it rests, and counts the squares the page holds. In full CI runs the
    // view was once found with no published square in it (cause unknown, not seen alone or under a CPU load), so
    // give the page time, and say what it showed if it never comes.
    const around = { row: b.seed - 8, column: 2 };
    const viewNow = async () => {
      const text = (await viewText.textContent())!;
      const view = parseView(text);
      const holds =
        view.rowFrom <= around.row &&
        around.row <= view.rowTo &&
        view.columnFrom <= around.column &&
        around.column <= view.columnTo;
      const squares = await squaresIn(crowded, view.rowFrom, view.rowTo, view.columnFrom, view.columnTo);
      return { text, holds, published: countsOf(squares).published, squares: squares.length };
    };
    let seen = await viewNow();
    for (const until = Date.now() + 15_000; !(seen.holds && seen.published > 60) && Date.now() < until;) {
      await crowded.waitForTimeout(250);
      seen = await viewNow();
    }
    const camera = await treePage.stats(crowded);
    expect({ ...seen, camera: { x: camera.x, y: camera.y, scale: camera.scale } }).toMatchObject({ holds: true });
    expect(seen.published, JSON.stringify(seen)).toBeGreaterThan(60);
    const { published } = seen;
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
  });
});

describe('keys for moving far', () => {
  it("Home and End reach the row's ends, Page Up and Down go a screenful, and the edge of the tree is said", async () => {
    await treePage.openTree('?row=24&col=2&zoom=1');
    await treePage.settled();
    await treePage.tabToCanvas();
    expect(await treePage.focusAt()).toEqual({ row: 24, column: 2 });
    const squares = await treePage.allSquares();
    const row24 = squares.filter(([row]) => row === 24).map(([, column]) => column);
    const [first, last] = [Math.min(...row24), Math.max(...row24)];

    expect(await treePage.pressAndHear('Home', `row 24, column ${first}:`)).toMatch(/^row 24, column -?\d+: /);
    expect(await treePage.focusAt()).toEqual({ row: 24, column: first });
    expect(await treePage.pressAndHear('ArrowLeft', 'Edge of the tree')).toBe(
      'Edge of the tree: no more columns to the left.',
    );
    expect(await treePage.focusAt()).toEqual({ row: 24, column: first });
    // Said again when pressed again.
    await treePage.page.keyboard.press('Home');
    await treePage.page.waitForFunction(() =>
      document.querySelector('[data-testid="tree-focus-description"]')!.textContent.endsWith('\u00a0'),
    );
    expect(await treePage.said()).toBe('Edge of the tree: no more columns to the left.');

    await treePage.pressAndHear('End', `row 24, column ${last}:`);
    expect(await treePage.pressAndHear('ArrowRight', 'Edge of the tree')).toBe(
      'Edge of the tree: no more columns to the right.',
    );

    // A screenful of rows: as many whole rows as the canvas shows at this zoom.
    const s = await treePage.stats();
    const box = (await treePage.page.locator('.tree-canvas').boundingBox())!;
    const rows = Math.max(1, Math.floor(box.height / (CELL_PITCH * s.scale)));
    const target = 24 + rows;
    const column = nearestInRow(squares, target, last)!;
    await treePage.pressAndHear('PageDown', `row ${target}, column ${column}:`);
    expect(await treePage.focusAt()).toEqual({ row: target, column });
    // The square is on screen: the view went with it.
    const after = await treePage.settled();
    expect(target * CELL_PITCH).toBeGreaterThanOrEqual(after.y);
    expect((target + 1) * CELL_PITCH).toBeLessThanOrEqual(after.y + box.height / after.scale + CELL_PITCH);

    const lastRow = bandStarts(treePage.settings).end - 1;
    for (let i = 0; i < 20 && (await treePage.focusAt()).row !== lastRow; i++)
      await treePage.page.keyboard.press('PageDown');
    expect((await treePage.focusAt()).row).toBe(lastRow);
    expect(await treePage.pressAndHear('PageDown', 'Edge of the tree')).toBe('Edge of the tree: no more rows below.');
    const up = lastRow - rows;
    await treePage.pressAndHear('PageUp', `row ${up}, column `);
    expect((await treePage.focusAt()).row).toBe(up);
    expect(treePage.errors).toEqual([]);
  });

  it('B jumps from band to band, P to the next published piece and F to the next free square, Shift going back', async () => {
    const b = bandStarts(treePage.settings);
    await treePage.openTree(`?row=1&col=2&zoom=1`);
    await treePage.settled();
    await treePage.tabToCanvas();
    const start = await treePage.focusAt();
    expect(start.row).toBeLessThan(b.trunk);
    const squares = await treePage.allSquares();
    // A band key lands on the band's first row with a square, on the square nearest the column the focus is in.
    const firstWithSquare = (from: number, near = start.column!) => {
      for (let row = from; row < b.end; row++) {
        const column = nearestInRow(squares, row, near);
        if (column !== null) return { row, column };
      }
      throw new Error(`No square from row ${from}`);
    };

    let at = firstWithSquare(b.trunk);
    expect(await treePage.pressAndHear('b', 'Trunk and branches band. ')).toMatch(
      new RegExp(`^Trunk and branches band\\. row ${at.row}, column ${at.column}: `),
    );
    expect(await treePage.focusAt()).toEqual(at);
    at = firstWithSquare(b.seed, at.column);
    await treePage.pressAndHear('b', `Seed band. row ${at.row}, column ${at.column}: `);
    at = firstWithSquare(b.roots, at.column);
    await treePage.pressAndHear('b', `Roots band. row ${at.row}, column ${at.column}: `);
    expect(await treePage.pressAndHear('b', 'Edge of the tree')).toBe('Edge of the tree: no band below this one.');
    at = firstWithSquare(b.seed, at.column);
    await treePage.pressAndHear('Shift+B', `Seed band. row ${at.row}, column ${at.column}: `);
    expect(await treePage.focusAt()).toEqual(at);

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
    // The seeded tree varies from run to run: when no piece follows the seed band's first square, P starts from the
    // trunk band's.
    if (after(at, CellStatus.Published, 1) === null) {
      at = firstWithSquare(b.trunk, at.column);
      await treePage.pressAndHear('Shift+B', `Trunk and branches band. row ${at.row}, column ${at.column}: `);
    }
    let next = after(at, CellStatus.Published, 1)!;
    expect(await treePage.pressAndHear('p', `row ${next.row}, column ${next.column}: published — `)).toMatch(/ by /);
    expect(await treePage.focusAt()).toEqual(next);
    const previous = after(next, CellStatus.Published, -1);
    if (previous) await treePage.pressAndHear('Shift+P', `row ${previous.row}, column ${previous.column}: published`);
    else
      expect(await treePage.pressAndHear('Shift+P', 'Edge of the tree')).toBe(
        'Edge of the tree: no published piece before this square.',
      );
    next = after(previous ?? next, CellStatus.Available, 1)!;
    await treePage.pressAndHear('f', `row ${next.row}, column ${next.column}: available`);
    expect(await treePage.focusAt()).toEqual(next);
    const free = after(next, CellStatus.Available, -1)!;
    await treePage.pressAndHear('Shift+F', `row ${free.row}, column ${free.column}: available`);

    // Up, band after band, to the crown and its edge; at the start of its first row with a square, no piece comes
    // before it.
    for (let i = 0; i < 5 && (await treePage.said()) !== 'Edge of the tree: no band above this one.'; i++) {
      const before = await treePage.page.getByTestId('tree-focus-description').textContent();
      await treePage.page.keyboard.press('Shift+B');
      await treePage.page.waitForFunction(
        (text) => document.querySelector('[data-testid="tree-focus-description"]')!.textContent !== text,
        before,
      );
    }
    expect(await treePage.said()).toBe('Edge of the tree: no band above this one.');
    expect((await treePage.focusAt()).row).toBeLessThan(b.trunk);
    await treePage.page.keyboard.press('Home');
    expect(await treePage.pressAndHear('Shift+P', 'Edge of the tree')).toBe(
      'Edge of the tree: no published piece before this square.',
    );
    expect(treePage.errors).toEqual([]);
  });

  it('find-free takes the keyboard to the square it shows, so Enter opens that square', async () => {
    await treePage.openTree();
    await treePage.settled();
    // The keyboard is on the canvas first, on the square in the middle.
    await treePage.tabToCanvas();
    const before = await treePage.focusAt();
    const findFree = treePage.page.getByRole('button', { name: 'Find next free square' });
    await findFree.focus();
    await treePage.page.keyboard.press('Enter');
    await treePage.page.waitForFunction(() => window.__treeStats!.targetRow !== null);
    const shown = await treePage.settled();
    expect({ row: shown.targetRow, column: shown.targetColumn }).not.toEqual(before);
    // Back to the canvas (Shift+Tab would walk the panel's buttons first): its focus cell is the square find-free showed.
    await treePage.page.locator('.tree-canvas').focus();
    await treePage.page.waitForFunction(() => window.__treeStats!.focusRow !== null);
    expect(await treePage.focusAt()).toEqual({ row: shown.targetRow, column: shown.targetColumn });
    await treePage.page.keyboard.press('Enter');
    const facts = treePage.page.getByTestId('reserve-popup').getByTestId('cell-facts');
    await facts.waitFor();
    expect(await facts.locator('dd').allTextContents()).toEqual([
      String(shown.targetRow),
      String(shown.targetColumn),
      expect.stringMatching(/^available/),
    ]);
    await treePage.page.keyboard.press('Escape');
    await treePage.page.getByTestId('reserve-popup').waitFor({ state: 'detached' });
  });

  it("lists the keys in the help popup and in the canvas's description", async () => {
    await treePage.openTree();
    const description = await treePage.page.evaluate(() => {
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
    await treePage.page.getByRole('button', { name: 'Help' }).click();
    const keys = treePage.page.getByTestId('help-keys');
    await keys.waitFor();
    expect((await keys.locator('dt').allTextContents()).map((text) => text.replace(/\s+/g, ' ').trim())).toEqual([
      'Home / End',
      'Page Up / Page Down',
      'B / Shift+B',
      'P / Shift+P',
      'F / Shift+F',
    ]);
    await treePage.page.keyboard.press('Escape');
    await keys.waitFor({ state: 'detached' });
  });
});
