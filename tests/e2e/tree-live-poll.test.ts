/**
 * The live tree by long-poll (LIVE_TRANSPORT=poll, decision 033): the page opens no event stream, follows the tree
 * by /changes?since=&wait=25 from each version it reaches, draws a piece staff publish through the API within two
 * seconds, applies each change once and in order, and when the server is full (LONG_POLLS_MAX) waits as long as its
 * Retry-After says before it asks again, then catches up with what it missed meanwhile.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createTree, getDefaultTree } from '#server/services/tree/tree.ts';
import {
  failedLoad,
  launchBrowser,
  postFromPage,
  releaseBrowser,
  startGallery,
  type Gallery,
} from '../helpers/browser/harness.ts';
import {
  NEW_COLOUR,
  colourSeenAt,
  freeSquareOnScreen,
  live,
  submitPieceOn,
  watchColour,
} from '../helpers/browser/live-tree.ts';
import { WIDE } from '../helpers/browser/pages.ts';
import { openTree, pointOf, stats } from '../helpers/browser/tree-page.ts';
import { logInAsAdmin } from '../helpers/browser/public-pages.ts';

/** Room for the viewer's poll and one more: a poll held for another tree fills the server. */
const LONG_POLLS_MAX = 2;

let gallery: Gallery;
let browser: Browser;
/** Signed in as staff, publishing through the API. */
let staff: Page;
/** Follows the tree by long-poll. */
let viewer: Viewer;

interface Viewer {
  page: Page;
  errors: string[];
  /** The page's /changes requests and answers, in order, with the test's clock. */
  polls: {
    at: number;
    kind: 'asked' | 'answered';
    url: URL;
    status?: number;
    /** A request's headers, cookies included (known once it is answered). */
    headers?: Promise<Record<string, string>>;
  }[];
}

/** The page's own record, kept by an init script: every EventSource it built and every live status it reported. */
interface PageRecord {
  __eventSources: number;
  __liveVersions: number[];
}

/** Opens the tree in a page of its own that records its EventSources, its live versions and its /changes polls. */
async function openViewer(): Promise<Viewer> {
  const page = await browser.newPage({ viewport: WIDE });
  const opened: Viewer = { page, errors: [], polls: [] };
  page.on('console', (message) => {
    // The refusal this file provokes on purpose is logged by the browser as a failed load.
    if (message.type() === 'error' && !failedLoad(503).test(message.text())) opened.errors.push(message.text());
  });
  page.on('pageerror', (error) => opened.errors.push(error.message));
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (!/^\/api\/tree\/[^/]+\/changes$/.test(url.pathname)) return;
    const headers = request.allHeaders();
    // Read only by a test that wants them (a closed page never gives them).
    headers.catch(() => {});
    opened.polls.push({ at: Date.now(), kind: 'asked', url, headers });
  });
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (/^\/api\/tree\/[^/]+\/changes$/.test(url.pathname))
      opened.polls.push({ at: Date.now(), kind: 'answered', url, status: response.status() });
  });
  await page.addInitScript(() => {
    const w = window as unknown as PageRecord;
    w.__eventSources = 0;
    w.__liveVersions = [];
    const Native = window.EventSource;
    window.EventSource = class extends Native {
      constructor(url: string | URL, init?: EventSourceInit) {
        super(url, init);
        w.__eventSources++;
      }
    };
    let status: { version: number } | undefined;
    Object.defineProperty(window, '__treeLive', {
      configurable: true,
      get: () => status,
      set: (value: { version: number }) => {
        status = value;
        w.__liveVersions.push(value.version);
      },
    });
  });
  await openTree(page, gallery);
  return opened;
}

const record = ({ page }: Viewer) =>
  page.evaluate(() => {
    const w = window as unknown as PageRecord;
    return { eventSources: w.__eventSources, versions: [...w.__liveVersions] };
  });

const treeVersion = async () => (await getDefaultTree(gallery.app.deps.db))!.version;
const heldPolls = () => gallery.app.deps.treeEvents!.longPolls.size;

/** Staff publish the piece through the API (tRPC admin.publish over HTTP, from their signed-in page). */
async function publishThroughApi(artToken: string): Promise<void> {
  expect(await postFromPage(staff, '/trpc/admin.publish', { artToken })).toBe(200);
}

/** Puts a piece on a free square on the viewer's screen and starts watching for it: answers the piece's token. */
async function pieceOnScreen(): Promise<string> {
  const square = await freeSquareOnScreen(gallery, viewer.page);
  const artToken = submitPieceOn(gallery, square.id);
  await watchColour(viewer.page, await pointOf(viewer.page, square), NEW_COLOUR);
  return artToken;
}

/**
 * Another viewer's long-poll of a tree no one changes: one of the process's slots, held wait after wait until
 * `signal` aborts.
 */
async function holdPollsOf(treeToken: string, version: number, signal: AbortSignal): Promise<void> {
  const url = new URL(`/api/tree/${treeToken}/changes?since=${version}&wait=25`, gallery.url);
  while (!signal.aborted) {
    await new Promise<void>((resolve) => {
      const req = http.get(url, { agent: false, signal }, (res) => {
        res.resume();
        res.on('end', resolve);
        res.on('error', () => resolve());
      });
      req.on('error', () => resolve());
    });
  }
}

beforeAll(async () => {
  [gallery, browser] = await Promise.all([
    startGallery({ liveTransport: 'poll', longPollsMax: LONG_POLLS_MAX }),
    launchBrowser(),
  ]);
  staff = await browser.newPage();
  await staff.goto(`${gallery.url}/learn`);
  expect(await logInAsAdmin(staff)).toBe(200);
  viewer = await openViewer();
});

afterAll(async () => {
  await releaseBrowser(browser);
  await gallery?.stop();
});

describe('a tree page following by long-poll', () => {
  it('opens no event stream, and holds a long-poll from its version', async () => {
    await expect.poll(() => live(viewer.page)).toMatchObject({ mode: 'long-poll', version: await treeVersion() });
    await expect.poll(heldPolls).toBe(1);
    expect(gallery.app.deps.treeEvents!.streamCount).toBe(0);
    expect((await record(viewer)).eventSources).toBe(0);
    const asked = viewer.polls.filter((poll) => poll.kind === 'asked');
    expect(asked.length).toBeGreaterThanOrEqual(1);
    for (const { url } of asked) expect(url.searchParams.get('wait')).toBe('25');
    expect(asked.at(-1)!.url.searchParams.get('since')).toBe(String(await treeVersion()));
  });

  it('draws two changes published through the API, each within two seconds, each applied once', async () => {
    const before = await stats(viewer.page);
    const reached: number[] = [];
    const times: number[] = [];
    for (let round = 0; round < 2; round++) {
      const artToken = await pieceOnScreen();
      const publishedAt = Date.now();
      await publishThroughApi(artToken);
      reached.push(await treeVersion());
      times.push((await colourSeenAt(viewer.page, 10_000)) - publishedAt);
    }
    console.log(`live tree by long-poll: publish asked → drawn: ${times.map((ms) => `${ms} ms`).join(', ')}`);
    for (const ms of times) expect(ms).toBeLessThan(2_000);
    await expect.poll(async () => (await live(viewer.page)).version).toBe(reached[1]);
    // Applied in place, once each: two batches of changes, and the versions only went up, through both.
    expect((await stats(viewer.page)).applyCount - before.applyCount).toBe(2);
    const versions = (await record(viewer)).versions.filter((version, i, all) => i === 0 || version !== all[i - 1]);
    for (let i = 1; i < versions.length; i++) expect(versions[i]).toBeGreaterThan(versions[i - 1]!);
    expect(versions.slice(-2)).toEqual(reached);
    // The polls went on from each version reached.
    const asked = viewer.polls.filter((poll) => poll.kind === 'asked');
    expect(asked.map(({ url }) => Number(url.searchParams.get('since')))).toEqual(expect.arrayContaining(reached));
    // Nothing about the viewer went with the polls answered, though the page holds cookies: a cache may answer anyone.
    expect(await viewer.page.context().cookies()).not.toEqual([]);
    for (const poll of asked.slice(0, -1)) {
      const names = Object.keys(await poll.headers!);
      expect(names.filter((name) => /^(cookie|x-csrf-token|x-requested-with)$/i.test(name))).toEqual([]);
    }
    expect((await record(viewer)).eventSources).toBe(0);
    expect(gallery.app.deps.treeEvents!.streamCount).toBe(0);
  });

  it('waits as long as a busy server says, then catches up with what it missed', async () => {
    const first = viewer;
    await first.page.close();
    await expect.poll(heldPolls).toBe(0);
    // Other viewers follow a tree no one changes, and take every slot the server has.
    const quiet = await createTree(gallery.app.deps.db, Date.now(), 'Quiet tree');
    const room = new AbortController();
    const holders = Array.from({ length: LONG_POLLS_MAX }, () => holdPollsOf(quiet.token, quiet.version, room.signal));
    await expect.poll(heldPolls).toBe(LONG_POLLS_MAX);

    viewer = await openViewer();
    await expect.poll(() => viewer.polls.find((poll) => poll.status === 503), { timeout: 10_000 }).toBeDefined();
    const refused = viewer.polls.find((poll) => poll.status === 503)!;
    const { version: loaded } = await live(viewer.page);
    const before = await stats(viewer.page);

    // Published while the page waits: drawn once it asks again, after the server's Retry-After.
    const missed = await pieceOnScreen();
    await publishThroughApi(missed);
    const missedVersion = await treeVersion();
    room.abort();
    await Promise.all(holders);
    const drawnAt = await colourSeenAt(viewer.page, 20_000);
    const retried = viewer.polls.find((poll) => poll.kind === 'asked' && poll.at > refused.at)!;
    console.log(
      `live tree by long-poll: refused (503), asked again ${retried.at - refused.at} ms later, the missed change drawn ${drawnAt - refused.at} ms after the refusal`,
    );
    // Retry-After is 5 seconds (the test hears of each request a little after the browser made it).
    expect(retried.at - refused.at).toBeGreaterThanOrEqual(4_500);
    expect(Number(retried.url.searchParams.get('since'))).toBe(loaded);
    await expect.poll(() => live(viewer.page)).toMatchObject({ mode: 'long-poll', version: missedVersion });

    // And it follows on from there.
    const next = await pieceOnScreen();
    await publishThroughApi(next);
    const nextVersion = await treeVersion();
    await colourSeenAt(viewer.page, 10_000);
    await expect.poll(async () => (await live(viewer.page)).version).toBe(nextVersion);
    expect((await stats(viewer.page)).applyCount - before.applyCount).toBe(2);
    const versions = (await record(viewer)).versions.filter((version, i, all) => i === 0 || version !== all[i - 1]);
    expect(versions.slice(versions.indexOf(loaded))).toEqual([loaded, missedVersion, nextVersion]);
    expect(first.errors).toEqual([]);
  });

  it('runs without console errors', () => {
    expect(viewer.errors).toEqual([]);
  });
});
