/**
 * The growth replay in a real browser (issue 17): `?at=DAY` opens the tree as it was at the end of that day, paused;
 * play, pause and the scrubber move it; Back to live returns; a malformed or unreached day opens the live tree.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { CellStatus, CellType } from '#shared/domain.ts';
import type { TreeHistoryWire } from '#shared/tree/history.ts';
import { DAY_OUT_OF_REACH, NOT_A_DAY, parseReplayDay, replayDayOf } from '#shared/tree/tree-url.ts';
import type { TreeCells } from '#shared/tree/snapshot.ts';
import { and, eq } from 'drizzle-orm';
import { cells } from '#drizzle/schema.ts';
import { getDefaultTree } from '#server/services/tree/tree.ts';
import { recordCellChanges } from '#server/services/tree/tree-changes.ts';
import '#client/tree/engine/stats.ts';
import { launchBrowser, startGallery, watchErrors, type Gallery } from '../helpers/browser/harness.ts';
import { decodedTree } from '../helpers/browser/tree-pixels.ts';

let gallery: Gallery;
let browser: Browser;
let page: Page;
let errors: string[];
let tree: TreeCells;
/** When each position's piece was published, by "row,column". */
let publishedAt: Map<string, number>;
let history: TreeHistoryWire;
/** The live tree's squares as the test expects them now (after its own live change). */
let liveNow: string[] = [];

type Square = { kind: 'cell' | 'slot'; status: number } | null;

/** What every cell position of the live tree holds on screen now (window.__treeSquareAt, engine/stats.ts). */
function squaresShown(): Promise<Square[]> {
  const positions = Array.from({ length: tree.count }, (_, i) => [tree.row[i]!, tree.col[i]!] as const);
  return page.evaluate((list) => list.map(([row, column]) => window.__treeSquareAt!(row, column)), positions);
}

/** What the tree looked like at `time`: published by then, else as before its piece (or as now, if none). */
function expectedAt(time: number): (string | null)[] {
  return Array.from({ length: tree.count }, (_, i) => {
    const at = publishedAt.get(`${tree.row[i]},${tree.col[i]}`);
    if (at === undefined || at <= time) return `cell:${tree.status[i]}`;
    return tree.type[i] === CellType.Trunk ? `cell:${CellStatus.Pending}` : 'no cell';
  });
}

const described = (squares: Square[]) => squares.map((s) => (s?.kind === 'cell' ? `cell:${s.status}` : 'no cell'));

async function openTree(search: string): Promise<void> {
  await page.goto(`${gallery.url}/observe${search}`);
  await page.waitForSelector('.tree-canvas[data-tree-ready="true"]', { timeout: 30_000 });
}

const replayBar = () => page.getByRole('group', { name: 'Growth replay' });
const addressDay = () => new URL(page.url()).searchParams.get('at');

beforeAll(async () => {
  [gallery, browser] = await Promise.all([startGallery(), launchBrowser()]);
  tree = await decodedTree(gallery);
  const token = getDefaultTree(gallery.app.deps.db)!.token;
  history = ((await gallery.app.server.inject({ url: `/api/tree/${token}/history` })).json() as { r: TreeHistoryWire })
    .r;
  publishedAt = new Map();
  let row = 0;
  let steps = 0;
  for (let k = 0; k < history.count; k++) {
    row += history.row[k]!;
    steps += history.time[k]!;
    const key = `${row},${history.col[k]}`;
    if (!publishedAt.has(key)) publishedAt.set(key, history.start + steps * history.step);
  }
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  errors = watchErrors(page);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await gallery?.stop();
});

describe('growth replay', () => {
  it('opens ?at=DAY paused on the tree as it was at the end of that day', async () => {
    const times = [...publishedAt.values()].sort((a, b) => a - b);
    expect(times.length).toBeGreaterThan(10);
    const day = replayDayOf(times[Math.floor(times.length / 2)]!);
    const end = parseReplayDay(`?at=${day}`)!;
    const middle = Math.floor(tree.count / 2);
    await openTree(`?at=${day}&row=${tree.row[middle]}&col=${tree.col[middle]}&zoom=0.5`);
    await expect.poll(() => page.evaluate(() => window.__treeStats!.replaying)).toBe(true);
    await replayBar().waitFor();
    const expected = expectedAt(end);
    expect(described(await squaresShown())).toEqual(expected);
    // Some pieces are published by then and some are not yet: the day shows a tree part-grown.
    expect(expected.filter((s) => s === `cell:${CellStatus.Published}`).length).toBeLessThan(times.length);
    expect(times.filter((t) => t <= end).length).toBeGreaterThan(0);
    expect(await page.getByRole('button', { name: 'Play', exact: true }).isVisible()).toBe(true);
    expect(await page.getByTestId('tree-replay-date').textContent()).toBe(
      new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' }).format(end),
    );
    expect(addressDay()).toBe(day);
    expect(new URL(page.url()).searchParams.get('zoom')).toBe('0.5');
  });

  it('moves the tree and the address with the scrubber', async () => {
    const scrubber = page.getByRole('slider', { name: 'Replay date' });
    const max = Number(await scrubber.getAttribute('max'));
    await scrubber.evaluate((input: HTMLInputElement, value) => {
      // React listens to the input event; set the value as the browser would.
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, String(value));
      input.dispatchEvent(new Event('input', { bubbles: true }));
    }, max);
    await expect.poll(addressDay).toBe(replayDayOf(max));
    await expect.poll(async () => described(await squaresShown())).toEqual(expectedAt(max));
  });

  it('plays and pauses', async () => {
    const date = page.getByTestId('tree-replay-date');
    const before = await date.textContent();
    // At the end, Play starts again from the first publish.
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await page.getByRole('button', { name: 'Pause', exact: true }).waitFor();
    await expect.poll(() => date.textContent(), { timeout: 10_000 }).not.toBe(before);
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    await page.getByRole('button', { name: 'Play', exact: true }).waitFor();
    const paused = await date.textContent();
    const day = addressDay();
    expect(day).not.toBeNull();
    await page.waitForTimeout(600);
    expect(await date.textContent()).toBe(paused);
    // Paused, the tree is the one of the day the address names.
    await expect.poll(async () => described(await squaresShown())).toEqual(expectedAt(parseReplayDay(`?at=${day}`)!));
  });

  it('keeps a live change that arrives meanwhile for the live tree, and goes back to it', async () => {
    // A square is reserved while the replay plays: the replay's tree stays as it was, the live one takes it.
    const waiting = Array.from({ length: tree.count }, (_, i) => i).find(
      (i) => tree.status[i] === CellStatus.Available,
    )!;
    const [row, column] = [tree.row[waiting]!, tree.col[waiting]!];
    const before = await page.evaluate(({ row, column }) => window.__treeSquareAt!(row, column), { row, column });
    const version = await page.evaluate(() => window.__treeLive!.version);
    const { db } = gallery.app.deps;
    const treeId = getDefaultTree(db)!.id;
    const cell = db
      .select({ id: cells.id })
      .from(cells)
      .where(and(eq(cells.treeId, treeId), eq(cells.row, row), eq(cells.column, column)))
      .get()!;
    db.transaction((tx) => {
      tx.update(cells).set({ status: CellStatus.Reserved }).where(eq(cells.id, cell.id)).run();
      recordCellChanges(tx, treeId, [cell.id], Date.now());
    });
    await expect.poll(() => page.evaluate(() => window.__treeLive!.version), { timeout: 15_000 }).not.toBe(version);
    expect(await page.evaluate(({ row, column }) => window.__treeSquareAt!(row, column), { row, column })).toEqual(
      before,
    );

    await page.getByRole('button', { name: 'Back to live' }).click();
    await expect.poll(() => page.evaluate(() => window.__treeStats!.replaying)).toBe(false);
    expect(addressDay()).toBeNull();
    liveNow = Array.from(tree.status, (s, i) => `cell:${i === waiting ? CellStatus.Reserved : s}`);
    expect(described(await squaresShown())).toEqual(liveNow);
    expect(await page.getByRole('button', { name: 'Replay growth' }).isVisible()).toBe(true);
  });

  it('opens the live tree for a day that is not one, or that the history does not reach, and says so', async () => {
    for (const [day, said] of [
      ['2025-02-30', NOT_A_DAY],
      ['yesterday', NOT_A_DAY],
      ['1990-01-01', DAY_OUT_OF_REACH],
    ] as const) {
      await openTree(`?at=${day}`);
      await page.waitForTimeout(300);
      expect(await page.evaluate(() => window.__treeStats!.replaying)).toBe(false);
      expect(await replayBar().count()).toBe(0);
      // The served snapshot may be a version behind; the page catches up from the change log.
      await expect.poll(async () => described(await squaresShown())).toEqual(liveNow);
      // Told why, and the day leaves the address (a link copied now opens the live tree).
      await expect.poll(() => page.locator('.tree-replay__problem').textContent()).toBe(said);
      await expect.poll(() => new URL(page.url()).searchParams.has('at')).toBe(false);
    }
    expect(errors).toEqual([]);
  });
});
