/**
 * The growth replay in a real browser (decision 023): `?at=DAY` opens the tree as it was at the end of that day,
 * paused, with only what is known of it (the pieces published by then; no reservation, available square or branch
 * slot of today); play, pause and the scrubber move it; its end is today's live tree; Back to live returns; a
 * malformed or unreached day opens the live tree.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { CellStatus, CellType } from '#shared/domain.ts';
import type { TreeHistoryWire } from '#shared/tree/history.ts';
import { DAY_OUT_OF_REACH, NOT_A_DAY, parseReplayDay, replayDayOf } from '#shared/tree/tree-url.ts';
import type { TreeCells } from '#shared/tree/snapshot.ts';
import { and, eq, isNull } from 'drizzle-orm';
import { cells, reservations, users } from '#drizzle/schema.ts';
import { reserveCell } from '#server/services/reservations/reservations.ts';
import { getDefaultTree } from '#server/services/tree/tree.ts';
import { recordCellChanges } from '#server/services/tree/tree-changes.ts';
import { launchBrowser, releaseBrowser, startGallery, type Gallery, watchErrors } from '../helpers/browser/harness.ts';
import { WIDE } from '../helpers/browser/pages.ts';
import { decodedTree } from '../helpers/browser/tree-pixels.ts';
import { openTree } from '../helpers/browser/tree-page.ts';
import { write } from '#server/db.ts';

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
/** A trunk square reserved today, before the page opened, and a trunk square available now. */
let reservedToday: { row: number; column: number };
let availableNow: { row: number; column: number };

type Square = { kind: 'cell' | 'slot'; status: number } | null;

/** A member who has never reserved reserves the first available trunk square, now, through the reservation service. */
async function reserveASquareToday(): Promise<{ row: number; column: number }> {
  const { db } = gallery.app.deps;
  const member = db
    .select({ id: users.id, role: users.role, token: users.token })
    .from(users)
    .leftJoin(reservations, eq(reservations.userId, users.id))
    .where(isNull(reservations.id))
    .get()!;
  const square = (await availableTrunkSquares())[0]!;
  await reserveCell(gallery.app.deps, member, square.token);
  return square;
}

async function availableTrunkSquares() {
  const { db } = gallery.app.deps;
  return db
    .select({ token: cells.token, row: cells.row, column: cells.column })
    .from(cells)
    .where(
      and(
        eq(cells.treeId, (await getDefaultTree(db))!.id),
        eq(cells.status, CellStatus.Available),
        eq(cells.type, CellType.Trunk),
      ),
    )
    .all();
}

const squareAt = (position: { row: number; column: number }) =>
  page.evaluate(({ row, column }) => window.__treeSquareAt!(row, column), position);

/** How many branch slots the page draws over the whole demo tree (it is small: a few thousand positions). */
function slotsShown(): Promise<number> {
  return page.evaluate(() => {
    let slots = 0;
    for (let row = -5; row <= 60; row++) {
      for (let column = -40; column <= 40; column++) if (window.__treeSquareAt!(row, column)?.kind === 'slot') slots++;
    }
    return slots;
  });
}

/** What every cell position of the live tree holds on screen now (window.__treeSquareAt, engine/stats.ts). */
function squaresShown(): Promise<Square[]> {
  const positions = Array.from({ length: tree.count }, (_, i) => [tree.row[i]!, tree.col[i]!] as const);
  return page.evaluate((list) => list.map(([row, column]) => window.__treeSquareAt!(row, column)), positions);
}

/** Whether the replay shows the live tree at `time`: today's end of the timeline; any earlier day is a past one. */
const isToday = (time: number) => replayDayOf(time) === replayDayOf(Date.now());

/**
 * What the replay shows at `time` (the end of a day, as a paused replay rests): today, the live tree as it is now; a
 * past day, the pieces published by then and every other square not there yet (a trunk square pending, a branch square
 * not drawn), whatever it is now: a square reserved or available today shows neither.
 */
function expectedAt(time: number): (string | null)[] {
  if (isToday(time)) return liveNow;
  return Array.from({ length: tree.count }, (_, i) => {
    const at = publishedAt.get(`${tree.row[i]},${tree.col[i]}`);
    if (at !== undefined && at <= time) return `cell:${CellStatus.Published}`;
    return tree.type[i] === CellType.Trunk ? `cell:${CellStatus.Pending}` : 'no cell';
  });
}

const described = (squares: Square[]) => squares.map((s) => (s?.kind === 'cell' ? `cell:${s.status}` : 'no cell'));

const replayBar = () => page.getByRole('group', { name: 'Growth replay' });
const addressDay = () => new URL(page.url()).searchParams.get('at');

beforeAll(async () => {
  [gallery, browser] = await Promise.all([startGallery(), launchBrowser()]);
  reservedToday = await reserveASquareToday();
  availableNow = (await availableTrunkSquares())[0]!;
  tree = await decodedTree(gallery);
  liveNow = Array.from(tree.status, (s) => `cell:${s}`);
  const token = (await getDefaultTree(gallery.app.deps.db))!.token;
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
  page = await browser.newPage({ viewport: WIDE });
  errors = watchErrors(page);
}, 120_000);

afterAll(async () => {
  await releaseBrowser(browser);
  await gallery?.stop();
});

describe('growth replay', () => {
  it('opens ?at=DAY paused on the tree as it was at the end of that day', async () => {
    const times = [...publishedAt.values()].sort((a, b) => a - b);
    expect(times.length).toBeGreaterThan(10);
    const day = replayDayOf(times[Math.floor(times.length / 2)]!);
    const end = parseReplayDay(`?at=${day}`)!;
    const middle = Math.floor(tree.count / 2);
    await openTree(page, gallery, `?at=${day}&row=${tree.row[middle]}&col=${tree.col[middle]}&zoom=0.5`);
    await expect.poll(() => page.evaluate(() => window.__treeStats!.replaying)).toBe(true);
    await replayBar().waitFor();
    expect(isToday(end)).toBe(false);
    // Today's reservation and an available square are not drawn on a past day, nor is any branch slot.
    expect(await squareAt(reservedToday)).toEqual({ kind: 'cell', status: CellStatus.Pending });
    expect(await squareAt(availableNow)).toEqual({ kind: 'cell', status: CellStatus.Pending });
    expect(await slotsShown()).toBe(0);
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
    await expect.poll(addressDay).toBe(replayDayOf(Date.now()));
    // The far end is today: the live tree as it is, its reservation of today, available squares and slots included.
    await expect.poll(async () => described(await squaresShown())).toEqual(expectedAt(Date.now()));
    expect(await squareAt(reservedToday)).toEqual({ kind: 'cell', status: CellStatus.Reserved });
    expect(await squareAt(availableNow)).toEqual({ kind: 'cell', status: CellStatus.Available });
    expect(await slotsShown()).toBeGreaterThan(0);
    expect(await page.getByTestId('tree-replay-date').textContent()).toBe(
      new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' }).format(
        Date.now(),
      ),
    );
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
    const treeId = (await getDefaultTree(db))!.id;
    const cell = db
      .select({ id: cells.id })
      .from(cells)
      .where(and(eq(cells.treeId, treeId), eq(cells.row, row), eq(cells.column, column)))
      .get()!;
    await write(db, async (tx) => {
      tx.update(cells).set({ status: CellStatus.Reserved }).where(eq(cells.id, cell.id)).run();
      await recordCellChanges(tx, treeId, [cell.id], Date.now());
    });
    await expect.poll(() => page.evaluate(() => window.__treeLive!.version), { timeout: 15_000 }).not.toBe(version);
    expect(await page.evaluate(({ row, column }) => window.__treeSquareAt!(row, column), { row, column })).toEqual(
      before,
    );

    await page.getByRole('button', { name: 'Back to live' }).click();
    await expect.poll(() => page.evaluate(() => window.__treeStats!.replaying)).toBe(false);
    expect(addressDay()).toBeNull();
    liveNow = liveNow.map((square, i) => (i === waiting ? `cell:${CellStatus.Reserved}` : square));
    expect(described(await squaresShown())).toEqual(liveNow);
    expect(await page.getByRole('button', { name: 'Replay growth' }).isVisible()).toBe(true);
  });

  it('opens the live tree for a day that is not one, or that the history does not reach, and says so', async () => {
    for (const [day, said] of [
      ['2025-02-30', NOT_A_DAY],
      ['yesterday', NOT_A_DAY],
      ['1990-01-01', DAY_OUT_OF_REACH],
    ] as const) {
      await openTree(page, gallery, `?at=${day}`);
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
