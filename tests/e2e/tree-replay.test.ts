/**
 * The growth replay in a real browser (decision 023): `?at=DAY` opens the tree as it was at the end of that day,
 * paused, with only what is known of it (the pieces published by then; no reservation, available square or branch
 * slot of today); play, pause and the scrubber move it; its end is today's live tree; Back to live returns; a
 * malformed or unreached day opens the live tree.
 *
 * The growth as a video (decision 049): the whole tree recorded (a short video: the length is the viewer's choice)
 * and downloaded as a WebM of at most 10 MB that a <video> loads with its duration and seeks to its end, its picture
 * the tree over a caption band; the viewer's view and the replay's day put back after it; a cancelled recording leaves
 * no file and the view as it was; a browser without MediaRecorder is not offered it.
 */
import fs from 'node:fs';
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
import { openTree, stats, treeReady } from '../helpers/browser/tree-page.ts';
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
/** Downloads the page started (the growth as a video), counted from the start. */
let downloads = 0;

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

const panel = () => page.getByRole('group', { name: 'Save the growth as a video' });
const status = () => panel().getByRole('status');
const camera = async () => {
  const { x, y, scale } = await stats(page);
  return { x, y, scale };
};

/** The video's bytes loaded into a <video> and seeked to the end, in a page of its own (the site's policy keeps blob: media out of its pages). */
async function play(bytes: Buffer) {
  const blank = await browser.newPage();
  try {
    return await blank.evaluate(async (base64) => {
      const data = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const video = document.createElement('video');
      video.muted = true;
      document.body.append(video);
      const next = (name: string) =>
        new Promise<void>((resolve, reject) => {
          video.addEventListener(name, () => resolve(), { once: true });
          video.addEventListener('error', () => reject(new Error(video.error?.message ?? 'video error')), {
            once: true,
          });
        });
      const loaded = next('loadedmetadata');
      video.src = URL.createObjectURL(new Blob([data], { type: 'video/webm' }));
      await loaded;
      const durationAtLoad = video.duration;
      // A file without its duration says Infinity until a seek past its end makes the player read it all.
      if (!Number.isFinite(video.duration)) {
        const known = next('durationchange');
        video.currentTime = 1e9;
        await known;
      }
      // Seeked to its end, the last picture is decoded (playing it through would take the video's length again).
      const seeked = next('seeked');
      video.currentTime = video.duration;
      await seeked;
      // The last picture: the caption band's colour at the bottom, and the tree's squares above it.
      const canvas = document.createElement('canvas');
      canvas.width = video.videoWidth;
      canvas.height = video.videoHeight;
      const context = canvas.getContext('2d')!;
      // The band's colour: the median of an 8 × 8 patch in its left margin (no caption there), since a single pixel
      // of a lossy frame may stray far from it on a busy machine.
      const bandNow = () => {
        context.drawImage(video, 0, 0);
        const patch = context.getImageData(2, canvas.height - 10, 8, 8).data;
        return [0, 1, 2].map((channel) => {
          const values = patch.filter((_, k) => k % 4 === channel).sort((a, b) => a - b);
          return values[values.length >> 1]!;
        });
      };
      // Just after the seek, a busy machine may not have the picture yet: the copy is black (the band is never),
      // so it is copied again a moment later.
      let band = bandNow();
      for (let tries = 0; tries < 30 && band.every((value) => value === 0); tries++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        band = bandNow();
      }
      const tree = context.getImageData(0, 0, canvas.width, Math.floor(canvas.height * 0.8)).data;
      const colours = new Set<number>();
      for (let k = 0; k < tree.length; k += 4 * 97) colours.add((tree[k]! << 16) | (tree[k + 1]! << 8) | tree[k + 2]!);
      return {
        durationAtLoad,
        duration: video.duration,
        endedAt: video.currentTime,
        decoded: video.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA,
        width: video.videoWidth,
        height: video.videoHeight,
        band,
        colours: colours.size,
      };
    }, bytes.toString('base64'));
  } finally {
    await blank.close();
  }
}

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

describe('the growth as a video', () => {
  beforeAll(async () => {
    page.on('download', () => downloads++);
    await openTree(page, gallery);
    await page.getByRole('button', { name: 'Replay growth' }).click();
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    await page.getByRole('button', { name: 'Play', exact: true }).waitFor();
  }, 60_000);

  it('records the whole tree as a WebM that seeks to its end, then puts the view and the day back', async () => {
    const view = await camera();
    const day = await page.getByTestId('tree-replay-date').textContent();
    await page.getByRole('button', { name: 'Save as video' }).click();
    await panel().getByRole('radio', { name: 'The whole tree' }).check();
    await panel().getByRole('combobox', { name: 'Length' }).selectOption({ label: '5 seconds' });
    await panel().getByRole('button', { name: 'Record' }).click();
    await expect.poll(() => status().textContent()).toBe('Recording the growth as a video of 5 seconds.');
    await expect
      .poll(() => panel().locator('.tree-video__progress').textContent(), { timeout: 10_000 })
      .toMatch(/^Recording… [1-5] s of 5$/);
    // The whole tree is fitted to the canvas while it records, the replay's controls waiting.
    expect(await camera()).not.toEqual(view);
    expect(await page.getByRole('slider', { name: 'Replay date' }).isDisabled()).toBe(true);

    const link = panel().getByRole('link', { name: 'Download the video' });
    await link.waitFor({ timeout: 30_000 });
    expect(await status().textContent()).toMatch(/^The video is ready to download: \d+\.\d MB\.$/);
    expect(await link.evaluate((element) => element === document.activeElement)).toBe(true);
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toMatch(/^gallery-tree-growth-\d{4}-\d\d-\d\d-to-\d{4}-\d\d-\d\d\.webm$/);
    const bytes = fs.readFileSync((await download.path())!);

    // WebM: the EBML header's magic, and its DocType "webm".
    expect([...bytes.subarray(0, 4)]).toEqual([0x1a, 0x45, 0xdf, 0xa3]);
    const docType = bytes.subarray(0, 64).indexOf(Buffer.from([0x42, 0x82]));
    expect(bytes.subarray(docType + 3, docType + 3 + (bytes[docType + 2]! & 0x7f)).toString('latin1')).toBe('webm');
    expect(bytes.length).toBeGreaterThan(1000);
    expect(bytes.length).toBeLessThanOrEqual(10_000_000);

    const played = await play(bytes);
    // The duration is written into the file: known at once, about the length chosen.
    expect(played.durationAtLoad).toBe(played.duration);
    expect(played.duration).toBeGreaterThan(4.5);
    expect(played.duration).toBeLessThan(12);
    expect(played.endedAt).toBeCloseTo(played.duration, 1);
    expect(played.decoded).toBe(true);
    expect(played.width).toBeGreaterThan(0);
    expect(played.width).toBeLessThanOrEqual(1280);
    expect(played.height).toBeGreaterThan(0);
    // The caption band (its ink, within the codec's loss) under a tree of several colours.
    for (const [channel, ink] of played.band.map((value, k) => [value, [0x2b, 0x28, 0x24][k]!]))
      expect(Math.abs(channel! - ink!)).toBeLessThan(24);
    expect(played.colours).toBeGreaterThan(3);

    // The viewer's view and the replay's day as they were, the controls back.
    await expect.poll(camera).toEqual(view);
    expect(await page.getByTestId('tree-replay-date').textContent()).toBe(day);
    expect(await page.getByRole('slider', { name: 'Replay date' }).isDisabled()).toBe(false);
  });

  it('cancelled, leaves no file and the view as it was', async () => {
    const view = await camera();
    const day = await page.getByTestId('tree-replay-date').textContent();
    const downloaded = downloads;
    await panel().getByRole('button', { name: 'Record again' }).click();
    await panel().getByRole('button', { name: 'Record' }).click();
    await expect
      .poll(() => panel().locator('.tree-video__progress').textContent(), { timeout: 10_000 })
      .toMatch(/^Recording… [1-5] s of 5$/);
    expect(await camera()).not.toEqual(view);
    await panel().getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => status().textContent()).toBe('Recording cancelled: no video was made.');
    expect(await panel().getByRole('link', { name: 'Download the video' }).count()).toBe(0);
    expect(
      await panel()
        .getByRole('button', { name: 'Record' })
        .evaluate((b) => b === document.activeElement),
    ).toBe(true);
    await expect.poll(camera).toEqual(view);
    expect(await page.getByTestId('tree-replay-date').textContent()).toBe(day);
    await page.waitForTimeout(300);
    expect(downloads).toBe(downloaded);
  });

  it('says so when its code cannot be loaded, and the tree stays live', async () => {
    // The replay's module comes after the first frame: a page that could not fetch it still draws the tree.
    const offline = await browser.newPage({ viewport: WIDE });
    let pages = 0;
    let failures = 0;
    offline.on('domcontentloaded', () => pages++);
    await offline.route(/\/assets\/replay-parts[^/]*\.js$/, (route) => {
      failures++;
      return route.abort();
    });
    // Where the page notes that it reloaded for a module of its build (client/app/client-updates.ts).
    const reloadedForBuild = () => offline.evaluate(() => sessionStorage.getItem('gallery-tree.reloaded-for-build'));
    try {
      await openTree(offline, gallery, '');
      // Fetched ahead of need once the first frame is drawn: its failure does not reload the page under the visitor.
      await expect.poll(() => failures, { timeout: 20_000 }).toBe(1);
      await offline.waitForTimeout(1_000);
      expect(pages).toBe(1);
      expect(await reloadedForBuild()).toBeNull();
      // Asked for, it is fetched again; failing, it reloads the page once (as a page older than the builds kept
      // must), and the reloaded page, asked again, says so.
      await offline.getByRole('button', { name: 'Replay growth' }).click();
      await expect.poll(() => pages, { timeout: 20_000 }).toBe(2);
      await treeReady(offline);
      await offline.getByRole('button', { name: 'Replay growth' }).click();
      await offline.getByText('The replay could not be loaded. Reload the page to try again.').waitFor();
      expect(pages).toBe(2);
      expect(await offline.evaluate(() => window.__treeStats!.replaying)).toBe(false);
      expect(await offline.getByRole('button', { name: 'Replay growth' }).isEnabled()).toBe(true);
    } finally {
      await offline.close();
    }
  });

  it('is not offered where the browser has no MediaRecorder', async () => {
    await panel().getByRole('button', { name: 'Close' }).click();
    await page.getByRole('button', { name: 'Back to live' }).click();
    await page.evaluate(() => delete (window as { MediaRecorder?: unknown }).MediaRecorder);
    await page.getByRole('button', { name: 'Replay growth' }).click();
    await page.getByRole('button', { name: 'Pause', exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Play', exact: true }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Save as video' }).count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
