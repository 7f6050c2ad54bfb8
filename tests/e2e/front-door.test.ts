/**
 * Two browsers through nginx (deploy/nginx.conf, run by tests/helpers/server/nginx.ts) in front of two real app
 * processes on one copy of the seeded gallery: a piece staff publish in one browser, through the API, is drawn in the
 * other within two seconds, over the event stream nginx passes through, and again with the processes set to
 * LIVE_TRANSPORT=poll, over long-polls nginx caches and collapses. nginx must be installed
 * (`apt-get install nginx-light`; .ci/run does it): without it this test fails.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { and, eq, isNull, ne } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { cells } from '#drizzle/schema.ts';
import { CellStatus } from '#shared/domain.ts';
import { TREE_VIEW } from '#shared/constants.ts';
import type { LiveTransport } from '#shared/api-types.ts';
import { closeDatabase, openDatabase, type Db } from '#server/db.ts';
import { getDefaultTree } from '#server/services/tree/tree.ts';
import '#client/tree/engine/stats.ts';
import { launchBrowser, releaseBrowser, watchErrors } from '../helpers/browser/harness.ts';
import { live, NEW_COLOUR, submitPieceOn } from '../helpers/browser/live-tree.ts';
import { logInAsAdmin } from '../helpers/browser/public-pages.ts';
import { E2E_CLIENT_DIR } from '../helpers/paths.ts';
import {
  freePorts,
  nginxBinary,
  reservePorts,
  startNginx,
  type AccessLogLine,
  type Nginx,
} from '../helpers/server/nginx.ts';
import { startRealServer, stopRealServer, type RealServer } from '../helpers/server/real-server.ts';

const PITCH = TREE_VIEW.cellSize + TREE_VIEW.gap;
/** How soon the other browser must show the change. */
const DRAWN_WITHIN_MS = 2000;

let dataDir: string;
let db: Db;
let browser: Browser;
/** nginx and its two processes, one front door per way of following the live tree. */
const doors: Partial<Record<LiveTransport, FrontDoor>> = {};

interface FrontDoor {
  nginx: Nginx;
  apps: RealServer[];
}

/** Two `npm start` processes on the data folder, as the README's "Behind nginx or a CDN" runs them, and nginx. */
async function openFrontDoor(transport: LiveTransport): Promise<FrontDoor> {
  const [app1, app2] = (await freePorts(2)) as [number, number];
  // nginx's ports are held until it starts, after the apps (which must know its address).
  const [site, redirect] = (await reservePorts(2)) as [number, number];
  const env = {
    TRUST_PROXY: 'true',
    SITE_URL: `http://127.0.0.1:${site}`,
    LIVE_TRANSPORT: transport,
  };
  const apps = await Promise.all(
    [app1, app2].map((port) =>
      startRealServer(dataDir, { ...env, PORT: String(port) }, [
        'tests/helpers/server/client-dir-server.ts',
        E2E_CLIENT_DIR,
      ]),
    ),
  );
  const door = { nginx: await startNginx({ apps: [app1, app2], site, redirect }), apps };
  expect(door.nginx.url).toBe(env.SITE_URL);
  return door;
}

beforeAll(async () => {
  nginxBinary();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gallery-e2e-front-door-'));
  fs.cpSync(inject('templateDir'), dataDir, { recursive: true });
  // Four processes on the one data folder (the template's tree is there already: none seeds).
  [doors.events, doors.poll, browser] = await Promise.all([
    openFrontDoor('events'),
    openFrontDoor('poll'),
    launchBrowser(),
  ]);
  db = openDatabase(path.join(dataDir, 'gallery.db'));
});

afterAll(async () => {
  await releaseBrowser(browser);
  for (const door of Object.values(doors)) {
    await door.nginx.stop();
    await Promise.all(door.apps.map((app) => stopRealServer(app)));
  }
  if (db) closeDatabase(db);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

interface TreePage {
  page: Page;
  errors: string[];
  /** Statuses of the snapshot's answers, in order. */
  snapshots: number[];
}

/** A page of the site in a browser of its own (its own cookies), through `door`; the tree page is ready when answered. */
async function open(door: FrontDoor, route: string): Promise<TreePage> {
  // A smaller window than the other browser tests': Chromium draws the canvas in software here, and the drawing is
  // part of the time measured.
  const context = await browser.newContext({ viewport: { width: 960, height: 640 } });
  const page = await context.newPage();
  const opened: TreePage = { page, errors: watchErrors(page), snapshots: [] };
  page.on('response', (response) => {
    if (/^\/api\/tree\/[^/]+$/.test(new URL(response.url()).pathname)) opened.snapshots.push(response.status());
  });
  await page.goto(`${door.nginx.url}${route}`);
  if (route === '/observe') await page.waitForSelector('[data-tree-ready="true"]', { timeout: 60_000 });
  else await page.waitForSelector('h1');
  return opened;
}

/** A square without a piece, well inside the page's canvas. */
async function freeSquareOnScreen(page: Page): Promise<{ id: number; point: { x: number; y: number } }> {
  const tree = (await getDefaultTree(db))!;
  const box = (await page.locator('.tree-canvas canvas').boundingBox())!;
  const camera = await page.evaluate(() => ({ ...window.__treeStats! }));
  const pointOf = (cell: { row: number; column: number }) => ({
    x: box.x + (cell.column * PITCH + TREE_VIEW.cellSize / 2 - camera.x) * camera.scale,
    y: box.y + (cell.row * PITCH + TREE_VIEW.cellSize / 2 - camera.y) * camera.scale,
  });
  const square = db
    .select({ id: cells.id, row: cells.row, column: cells.column })
    .from(cells)
    .where(and(eq(cells.treeId, tree.id), isNull(cells.artId), ne(cells.status, CellStatus.Published)))
    .all()
    .find((cell) => {
      const { x, y } = pointOf(cell);
      return x > box.x + 80 && x < box.x + box.width - 80 && y > box.y + 160 && y < box.y + box.height - 80;
    });
  expect(square).toBeDefined();
  return { id: square!.id, point: pointOf(square!) };
}

/**
 * Watches a point of the page's canvas, each frame the engine draws: resolves with the page's Date.now() (the
 * machine's clock, as the test's) when it first shows `colour` (null after `ms`), and when the live tree's version
 * first moved before that (the changes were applied).
 */
function drawnAt(
  page: Page,
  point: { x: number; y: number },
  colour: number,
  ms: number,
): Promise<{ drawn: number | null; applied: number | null }> {
  return page.evaluate(
    ({ x, y, colour, ms }) =>
      new Promise<{ drawn: number | null; applied: number | null }>((resolve) => {
        const canvas = document.querySelector<HTMLCanvasElement>('.tree-canvas canvas')!;
        const box = canvas.getBoundingClientRect();
        const ratio = canvas.width / box.width;
        const [sx, sy] = [Math.round((x - box.left) * ratio), Math.round((y - box.top) * ratio)];
        const probe = document.createElement('canvas');
        probe.width = probe.height = 1;
        const context = probe.getContext('2d', { willReadFrequently: true })!;
        const until = Date.now() + ms;
        const version = window.__treeLive!.version;
        let applied: number | null = null;
        let frames = -1;
        const check = () => {
          if (applied === null && window.__treeLive!.version !== version) applied = Date.now();
          if (frames !== window.__treeStats!.frames) {
            frames = window.__treeStats!.frames;
            context.drawImage(canvas, sx, sy, 1, 1, 0, 0, 1, 1);
            const [r, g, b] = context.getImageData(0, 0, 1, 1).data;
            const off = Math.max(
              Math.abs(r! - ((colour >> 16) & 0xff)),
              Math.abs(g! - ((colour >> 8) & 0xff)),
              Math.abs(b! - (colour & 0xff)),
            );
            if (off <= 32) return resolve({ drawn: Date.now(), applied });
          }
          if (Date.now() > until) return resolve({ drawn: null, applied });
          requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      }),
    { ...point, colour, ms },
  );
}

/**
 * Staff publish a piece through the API in one browser; the other browser, following the tree as `door` tells it,
 * draws it. Answers how long after the publish answered it was drawn, and applied.
 */
async function publishedAndDrawn(door: FrontDoor, mode: string): Promise<{ drawn: number; applied: number | null }> {
  // Staff on a page without the canvas (two software-drawn trees at once would only slow each other down).
  const [staff, viewer] = await Promise.all([open(door, '/faqs'), open(door, '/observe')]);
  expect(await logInAsAdmin(staff.page)).toBe(200);
  await expect.poll(async () => (await live(viewer.page)).mode, { timeout: 10_000 }).toBe(mode);

  const square = await freeSquareOnScreen(viewer.page);
  const artToken = submitPieceOn(db, square.id, 'Through the Front Door');
  const drawn = drawnAt(viewer.page, square.point, NEW_COLOUR, DRAWN_WITHIN_MS + 8000);
  // Staff publish it from their page, as the dashboard's Publish does: through nginx to either process.
  const published = await staff.page.evaluate(async (artToken) => {
    const token = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')!.content;
    const response = await fetch('/trpc/admin.publish', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': token, 'X-Requested-With': 'XMLHttpRequest' },
      body: JSON.stringify({ artToken }),
    });
    return { status: response.status, at: Date.now() };
  }, artToken);
  expect(published.status).toBe(200);
  const seen = await drawn;
  expect(seen.drawn, 'the other browser never drew the piece').not.toBeNull();

  // Applied in place: no second snapshot, and the page is at the tree's version.
  expect(viewer.snapshots).toEqual([200]);
  await expect.poll(async () => (await live(viewer.page)).version).toBe((await getDefaultTree(db))!.version);
  expect([...staff.errors, ...viewer.errors]).toEqual([]);
  for (const app of door.apps) expect(app.stderr()).toBe('');
  await Promise.all([staff.page.context().close(), viewer.page.context().close()]);
  return { drawn: seen.drawn! - published.at, applied: seen.applied === null ? null : seen.applied - published.at };
}

describe('two browsers through nginx, two app processes behind it', () => {
  it('a piece published in one browser is drawn in the other within 2 s, over the event stream', async () => {
    const { drawn, applied } = await publishedAndDrawn(doors.events!, 'stream');
    console.log(
      `front door, event stream: published in one browser (answered) → drawn in the other: ${drawn} ms (applied at ${applied} ms)`,
    );
    expect(drawn).toBeLessThanOrEqual(DRAWN_WITHIN_MS);
  });

  it('the same with LIVE_TRANSPORT=poll: over long-polls nginx caches', async () => {
    const { nginx } = doors.poll!;
    const { drawn, applied } = await publishedAndDrawn(doors.poll!, 'long-poll');
    // The page's long-polls went through nginx's cache (its access log names each one's cache status).
    const pollsIn = (lines: AccessLogLine[]) =>
      lines.filter((line) => /^\/api\/tree\/[^/]+\/changes\?since=\d+&wait=25$/.test(line.uri));
    const polls = pollsIn(await nginx.accessLog((lines) => pollsIn(lines).length > 0));
    console.log(
      `front door, long-poll: published in one browser (answered) → drawn in the other: ${drawn} ms (applied at ${applied} ms); ` +
        `the page's polls through nginx: ${polls.map((line) => `${line.status} ${line.cache}`).join(', ')}`,
    );
    expect(polls.length).toBeGreaterThan(0);
    expect(polls.every((line) => line.cache !== '')).toBe(true);
    expect(drawn).toBeLessThanOrEqual(DRAWN_WITHIN_MS);
  });
});
