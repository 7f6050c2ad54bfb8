/**
 * The live tree: open tree pages follow the event stream (or poll /changes when it is refused) and draw a piece
 * published elsewhere in place, keeping camera, popup and focus; they reload after a bulk change and catch up
 * when shown again or come back to. Prints the commit→drawn times; the one-second target is npm run bench:live's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { art, cells, users } from '#drizzle/schema.ts';
import { ArtStatus, CellStatus, Role } from '#shared/domain.ts';
import { newToken } from '#server/tokens.ts';
import { publishArt } from '#server/services/review/review.ts';
import { getDefaultTree } from '#server/services/tree/tree.ts';
import { recordBulkChange } from '#server/services/tree/tree-changes.ts';
import { launchBrowser, releaseBrowser, startGallery, type Gallery } from '../helpers/browser/harness.ts';
import {
  NEW_COLOUR,
  colourAt,
  colourSeenAt,
  freeSquareOnScreen as freeSquareIn,
  live,
  near,
  submitPieceOn as submitPieceIn,
  watchColour,
} from '../helpers/browser/live-tree.ts';
import { WIDE } from '../helpers/browser/pages.ts';
import { openTree, pointOf, stats, treeReady } from '../helpers/browser/tree-page.ts';
import { write } from '#server/db.ts';

/** The polling that replaces a refused stream, shortened (5 s in real use). */
const POLL_MS = 250;
const ROUNDS = 3;

interface TreePage {
  page: Page;
  errors: string[];
  /** Statuses of the snapshot's answers, in order. */
  snapshots: number[];
  /** Statuses of /changes answers. */
  changes: number[];
}

let gallery: Gallery;
let browser: Browser;
/** Follows the tree through its event stream. */
let viewer: TreePage;
/** Its event stream is refused: it polls /changes. */
let poller: TreePage;

async function openViewer(options: { blockStream?: boolean } = {}): Promise<TreePage> {
  const page = await browser.newPage({ viewport: WIDE });
  const opened: TreePage = { page, errors: [], snapshots: [], changes: [] };
  page.on('console', (message) => {
    // A refused stream is logged by the browser as a failed load: that one is expected.
    if (message.type() === 'error' && !(options.blockStream && message.location().url.includes('/events')))
      opened.errors.push(message.text());
  });
  page.on('pageerror', (error) => opened.errors.push(error.message));
  page.on('response', (response) => {
    const path = new URL(response.url()).pathname;
    if (/^\/api\/tree\/[^/]+$/.test(path)) opened.snapshots.push(response.status());
    if (/^\/api\/tree\/[^/]+\/changes$/.test(path)) opened.changes.push(response.status());
  });
  if (options.blockStream) await page.route('**/events*', (route) => route.abort());
  await page.addInitScript((ms) => {
    window.__treePollMs = ms;
  }, POLL_MS);
  await openTree(page, gallery);
  return opened;
}

const cameraOf = async (page: Page) => {
  const { x, y, scale } = await stats(page);
  return { x, y, scale };
};

const freeSquareOnScreen = (...pages: Page[]) => freeSquareIn(gallery, ...pages);
const submitPieceOn = (cellId: number) => submitPieceIn(gallery, cellId);

/** Staff publish the piece through the review service (the square, its neighbours, the change log); answers when it committed. */
async function publish(artToken: string): Promise<number> {
  const { db } = gallery.app.deps;
  const admin = db
    .select({ id: users.id, role: users.role, token: users.token })
    .from(users)
    .where(eq(users.role, Role.Admin))
    .get()!;
  await publishArt(gallery.app.deps, admin, artToken);
  return Date.now();
}

function setVisibility(page: Page, state: 'hidden' | 'visible'): Promise<void> {
  return page.evaluate((value) => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => value });
    document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
  }, state);
}

beforeAll(async () => {
  [gallery, browser] = await Promise.all([startGallery(), launchBrowser()]);
  viewer = await openViewer();
  poller = await openViewer({ blockStream: true });
});

afterAll(async () => {
  await releaseBrowser(browser);
  await gallery?.stop();
});

describe('an open tree page', () => {
  it('loads the snapshot once, catches up from its version, and holds the event stream', async () => {
    const { version } = (await getDefaultTree(gallery.app.deps.db))!;
    await expect.poll(() => live(viewer.page)).toMatchObject({ mode: 'stream', version });
    expect(viewer.snapshots).toEqual([200]);
    // The snapshot may be behind the tree: the page asked what changed since its version at once.
    expect(viewer.changes.length).toBeGreaterThanOrEqual(1);
    expect(gallery.app.deps.treeEvents!.streamCount).toBe(1);
  });

  it('draws a piece published elsewhere in place, in every open page, and says how long it took', async () => {
    const times: number[] = [];
    /** commit → applied + applied → drawn, per round. */
    const steps: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const square = await freeSquareOnScreen(viewer.page);
      const point = await pointOf(viewer.page, square);
      expect(near(await colourAt(viewer.page, point), NEW_COLOUR)).toBe(false);
      const artToken = submitPieceOn(square.id);
      const before = await stats(viewer.page);
      await watchColour(viewer.page, point, NEW_COLOUR);
      const committedAt = await publish(artToken);
      const drawnAt = await colourSeenAt(viewer.page, 10_000);
      const appliedAt = await viewer.page.evaluate(
        () => (window as unknown as { __versionMovedAt: number }).__versionMovedAt,
      );
      times.push(drawnAt - committedAt);
      steps.push(`${appliedAt - committedAt} + ${drawnAt - appliedAt}`);
      const after = await stats(viewer.page);
      // Applied in place: no new snapshot, one more batch of changes.
      expect(after.applyCount).toBeGreaterThan(before.applyCount);
    }
    console.log(
      `live tree: publish committed → drawn in the other page, over the event stream: ${times.map((ms) => `${ms} ms`).join(', ')} (committed → applied + applied → drawn: ${steps.join(', ')} ms)`,
    );
    // The second's target is the benchmark's (npm run bench:live): a timed assertion would fail on a busy machine.
    expect(viewer.snapshots).toEqual([200]);
    expect((await live(viewer.page)).version).toBe((await getDefaultTree(gallery.app.deps.db))!.version);
  });

  it('polls /changes when its stream is refused, and still draws the change', async () => {
    expect((await live(poller.page)).mode).toBe('polling');
    const square = await freeSquareOnScreen(poller.page);
    const point = await pointOf(poller.page, square);
    const artToken = submitPieceOn(square.id);
    await watchColour(poller.page, point, NEW_COLOUR);
    const committedAt = await publish(artToken);
    const ms = (await colourSeenAt(poller.page, 10_000)) - committedAt;
    console.log(`live tree: publish committed → drawn, polling /changes every ${POLL_MS} ms: ${ms} ms`);
    expect(poller.snapshots).toEqual([200]);
    expect((await live(poller.page)).version).toBe((await getDefaultTree(gallery.app.deps.db))!.version);
  });

  it('keeps the camera and the keyboard focus when a change arrives', async () => {
    const { page } = viewer;
    await page.locator('.tree-canvas').focus();
    await page.keyboard.press('ArrowRight');
    const before = await stats(page);
    expect(before.focusRow).not.toBeNull();
    const square = await freeSquareOnScreen(page);
    const point = await pointOf(page, square);
    const applied = before.applyCount;
    await watchColour(page, point, NEW_COLOUR);
    await publish(submitPieceOn(square.id));
    await colourSeenAt(page, 10_000);
    const after = await stats(page);
    expect(after.applyCount).toBeGreaterThan(applied);
    expect({ x: after.x, y: after.y, scale: after.scale, row: after.focusRow, column: after.focusColumn }).toEqual({
      x: before.x,
      y: before.y,
      scale: before.scale,
      row: before.focusRow,
      column: before.focusColumn,
    });
    expect(await page.evaluate(() => document.activeElement?.classList.contains('tree-canvas'))).toBe(true);
    await page.locator('.tree-canvas').blur();
  });

  it('keeps an open popup and the page itself when a change arrives', async () => {
    const { page } = viewer;
    const camera = await cameraOf(page);
    await page.getByRole('button', { name: 'Help' }).click();
    const help = page.getByTestId('help-popup');
    await help.waitFor();
    // Anything set on the page survives: no reload.
    await page.evaluate(() => document.documentElement.setAttribute('data-before-publish', 'yes'));
    const square = await freeSquareOnScreen(page);
    const point = await pointOf(page, square);
    await watchColour(page, point, NEW_COLOUR);
    await publish(submitPieceOn(square.id));
    await colourSeenAt(page, 10_000);
    expect(await help.isVisible()).toBe(true);
    expect(await page.getAttribute('html', 'data-before-publish')).toBe('yes');
    expect(await cameraOf(page)).toEqual(camera);
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });
    expect(await cameraOf(page)).toEqual(camera);
  });

  it('loads the snapshot again after a bulk change (resync), keeping the camera, and follows the tree after it', async () => {
    const { db } = gallery.app.deps;
    const tree = (await getDefaultTree(db))!;
    const pages = [viewer, poller];
    const cameras = await Promise.all(pages.map(({ page }) => cameraOf(page)));
    const resyncs = await Promise.all(pages.map(async ({ page }) => (await live(page)).resyncs));
    const square = await freeSquareOnScreen(viewer.page, poller.page);
    for (const { page } of pages) await watchColour(page, await pointOf(page, square), NEW_COLOUR);
    // A repair that writes cells without logging them one by one: every open tree must fetch the snapshot.
    await write(db, async (tx) => {
      const now = Date.now();
      const author = tx.select({ id: users.id }).from(users).limit(1).get()!;
      const { id } = tx
        .insert(art)
        .values({
          token: newToken(),
          cellId: square.id,
          authorId: author.id,
          status: ArtStatus.Published,
          title: 'Bulk Arrival',
          dominantColor: NEW_COLOUR,
          publishedAt: now,
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: art.id })
        .get();
      tx.update(cells)
        .set({ artId: id, status: CellStatus.Published, updatedAt: now })
        .where(eq(cells.id, square.id))
        .run();
      await recordBulkChange(tx, tree.id, now);
    });
    for (const [i, { page, snapshots }] of pages.entries()) {
      await colourSeenAt(page, 15_000);
      expect((await live(page)).resyncs).toBe(resyncs[i]! + 1);
      expect(snapshots).toEqual([200, 200]);
      expect(await cameraOf(page)).toEqual(cameras[i]);
    }

    // After the new snapshot, changes apply on top of it again.
    const next = await freeSquareOnScreen(viewer.page);
    await watchColour(viewer.page, await pointOf(viewer.page, next), NEW_COLOUR);
    await publish(submitPieceOn(next.id));
    await colourSeenAt(viewer.page, 10_000);
    expect(viewer.snapshots).toEqual([200, 200]);
  });

  it('closes its stream while hidden, and catches up once shown', async () => {
    const { page } = viewer;
    const feed = gallery.app.deps.treeEvents!;
    await setVisibility(page, 'hidden');
    await expect.poll(async () => (await live(page)).mode).toBe('paused');
    await expect.poll(() => feed.streamCount).toBe(0);
    const square = await freeSquareOnScreen(page);
    const point = await pointOf(page, square);
    await watchColour(page, point, NEW_COLOUR);
    const changesBefore = viewer.changes.length;
    await publish(submitPieceOn(square.id));
    await page.waitForTimeout(1_500);
    expect(
      await page.evaluate(() => (window as unknown as { __colourSeenAt: number | null }).__colourSeenAt),
    ).toBeNull();
    expect(viewer.changes.length).toBe(changesBefore);

    const shownAt = Date.now();
    await setVisibility(page, 'visible');
    const ms = (await colourSeenAt(page, 10_000)) - shownAt;
    console.log(`live tree: shown again → missed change drawn in ${ms} ms`);
    await expect.poll(async () => (await live(page)).mode).toBe('stream');
    expect(feed.streamCount).toBe(1);
  });

  it('comes back from another page to the tree as it was left, and catches up from there without a new snapshot', async () => {
    const { page } = viewer;
    const feed = gallery.app.deps.treeEvents!;
    const square = await freeSquareOnScreen(page);
    const snapshots = viewer.snapshots.length;
    await page.getByRole('button', { name: 'menu', exact: true }).click();
    await page.locator('[data-menu-item="learn"]').click();
    await page.waitForURL((url) => url.pathname === '/learn');
    await page.locator('.tree-canvas').waitFor({ state: 'detached' });
    await expect.poll(() => feed.streamCount).toBe(0);

    await publish(submitPieceOn(square.id));
    await page.getByRole('button', { name: 'menu', exact: true }).click();
    await page.locator('[data-menu-item="observe"]').click();
    await treeReady(page);
    const point = await pointOf(page, square);
    await expect.poll(async () => near(await colourAt(page, point), NEW_COLOUR), { timeout: 10_000 }).toBe(true);
    expect(viewer.snapshots.length).toBe(snapshots);
    expect(await live(page)).toMatchObject({
      mode: 'stream',
      version: (await getDefaultTree(gallery.app.deps.db))!.version,
    });
  });

  it('runs without console errors', () => {
    expect(viewer.errors).toEqual([]);
    expect(poller.errors).toEqual([]);
  });
});
