/**
 * The tree page's features in a real browser (issue 5; decision 010): the top panel, zoom about the pointer, find-free,
 * search, the keyboard path with its live description, the view in the address, the popups a click opens, and
 * find-my-slots for a signed-in artist.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { art, cells, reservations, trees } from '#drizzle/schema.ts';
import { ArtStatus, CellStatus } from '#shared/domain.ts';
import { TREE_VIEW } from '#shared/constants.ts';
import { SNAPSHOT_DETAIL_LIMIT } from '#shared/tree/snapshot.ts';
import { buildApp, type App } from '#server/app.ts';
import { createSession, SESSION_COOKIE } from '#server/auth/sessions.ts';
import { testConfig } from '#server/config.ts';
import { openDatabase, type Db } from '#server/db.ts';
import { generateSyntheticTree } from '#server/seed/synthetic.ts';
import { getDefaultTree } from '#server/services/tree/tree.ts';
import '#client/tree/engine/stats.ts';
import { launchBrowser, startGallery, watchErrors, type Gallery } from '../helpers/browser/harness.ts';
import { E2E_CLIENT_DIR } from '../helpers/paths.ts';

const PITCH = TREE_VIEW.cellSize + TREE_VIEW.gap;

let gallery: Gallery;
let browser: Browser;
let page: Page;
let errors: string[];
/** tRPC procedures the page called, in order (e.g. 'cell.search'). */
let calls: string[];

/** The engine's own camera (window.__treeStats): positions are checked against it, not the DOM. */
const stats = (on: Page = page) => on.evaluate(() => ({ ...window.__treeStats! }));

async function openTree(search = '', on: Page = page): Promise<void> {
  await on.goto(`${gallery.url}/observe${search}`);
  await on.waitForSelector('[data-tree-ready="true"]', { timeout: 60_000 });
}

async function canvasBox(on: Page = page) {
  return (await on.locator('canvas').first().boundingBox())!;
}

/** Waits until the camera has stopped moving (a flight has landed). */
async function settled(on: Page = page): Promise<Awaited<ReturnType<typeof stats>>> {
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

/** Waits for the address to reach `pathname` and the tree to be gone (the router renders the next page in a transition). */
async function leftTreeFor(pathname: string, on: Page = page): Promise<void> {
  await on.waitForURL((url) => url.pathname === pathname);
  await on.locator('.tree-canvas').waitFor({ state: 'detached' });
}

/** The grid position at the middle of the canvas. */
async function centreCell(on: Page = page): Promise<{ row: number; column: number; x: number; y: number }> {
  const s = await stats(on);
  const box = await canvasBox(on);
  const x = s.x + box.width / 2 / s.scale;
  const y = s.y + box.height / 2 / s.scale;
  return { row: Math.floor(y / PITCH), column: Math.floor(x / PITCH), x, y };
}

/** Where a cell's middle is on the page, for a click. */
async function pointOfCell(row: number, column: number): Promise<{ x: number; y: number }> {
  const s = await stats();
  const box = await canvasBox();
  return { x: box.x + (column * PITCH + 50 - s.x) * s.scale, y: box.y + (row * PITCH + 50 - s.y) * s.scale };
}

function cellsWith(status: number) {
  const { db } = gallery.app.deps;
  const tree = getDefaultTree(db)!;
  return db
    .select({ token: cells.token, row: cells.row, column: cells.column })
    .from(cells)
    .where(and(eq(cells.treeId, tree.id), eq(cells.status, status)))
    .all();
}

beforeAll(async () => {
  [gallery, browser] = await Promise.all([startGallery(), launchBrowser()]);
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  errors = watchErrors(page);
  calls = [];
  page.on('request', (request) => {
    const match = /\/trpc\/([^?]+)/.exec(request.url());
    if (match) calls.push(...match[1]!.split(','));
  });
  await openTree();
});

afterAll(async () => {
  await browser?.close();
  await gallery?.stop();
});

describe('the top panel', () => {
  it('zooms in and out in steps, each button disabled at its end of the range', async () => {
    const zoomIn = page.getByRole('button', { name: 'Zoom in' });
    const zoomOut = page.getByRole('button', { name: 'Zoom out' });
    while (await zoomOut.isEnabled()) await zoomOut.click();
    await page.waitForFunction(() => window.__treeStats!.scale === 0.5);
    expect(await zoomOut.isDisabled()).toBe(true);
    expect(await zoomIn.isEnabled()).toBe(true);
    const steps: number[] = [];
    while (await zoomIn.isEnabled()) {
      await zoomIn.click();
      steps.push((await settled()).scale);
    }
    expect(steps).toEqual([1, 1.5, 2, 2.5]);
    expect(await zoomIn.isDisabled()).toBe(true);
    await expect(page.locator('output[aria-label="Zoom level"]').textContent()).resolves.toBe('250%');
    await zoomOut.click();
    await zoomOut.click();
    await zoomOut.click();
    expect((await settled()).scale).toBe(1);
  });

  it('zooms about the pointer with Ctrl+wheel, scrolls with the wheel and Shift+wheel', async () => {
    const box = await canvasBox();
    const pointer = { x: box.x + box.width * 0.3, y: box.y + box.height * 0.6 };
    const before = await stats();
    const worldBefore = {
      x: before.x + (pointer.x - box.x) / before.scale,
      y: before.y + (pointer.y - box.y) / before.scale,
    };
    await page.mouse.move(pointer.x, pointer.y);
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, -120);
    await page.keyboard.up('Control');
    await page.waitForFunction((scale) => window.__treeStats!.scale !== scale, before.scale);
    const after = await settled();
    expect(after.scale).toBe(1.5);
    // The world point under the pointer stayed under it.
    expect(after.x + (pointer.x - box.x) / after.scale).toBeCloseTo(worldBefore.x, 0);
    expect(after.y + (pointer.y - box.y) / after.scale).toBeCloseTo(worldBefore.y, 0);

    await page.mouse.wheel(0, 150);
    await page.waitForFunction((y) => window.__treeStats!.y !== y, after.y);
    const scrolled = await settled();
    expect((scrolled.y - after.y) * scrolled.scale).toBeCloseTo(150, 0);
    expect(scrolled.x).toBe(after.x);

    await page.keyboard.down('Shift');
    await page.mouse.wheel(0, 90);
    await page.keyboard.up('Shift');
    await page.waitForFunction((x) => window.__treeStats!.x !== x, scrolled.x);
    const sideways = await settled();
    expect((sideways.x - scrolled.x) * sideways.scale).toBeCloseTo(90, 0);
    expect(sideways.y).toBe(scrolled.y);
  });

  it('find-free glides to the last available square, then cycles through the others', async () => {
    const available = cellsWith(CellStatus.Available).sort((a, b) => a.row - b.row || a.column - b.column);
    const findFree = page.getByRole('button', { name: 'Find next free square' });
    const visited: { row: number; column: number }[] = [];
    for (let press = 0; press < 3; press++) {
      await findFree.click();
      await page.waitForTimeout(100);
      await settled();
      const centre = await centreCell();
      // Exactly centred on the square's middle.
      expect(centre.x).toBeCloseTo(centre.column * PITCH + 50, 0);
      expect(centre.y).toBeCloseTo(centre.row * PITCH + 50, 0);
      visited.push({ row: centre.row, column: centre.column });
    }
    // The demo's branch slots are available squares too; the last square of all is a trunk cell near the ground.
    const last = available.at(-1)!;
    expect(visited[0]).toEqual({ row: last.row, column: last.column });
    expect(new Set(visited.map((v) => `${v.row},${v.column}`)).size).toBe(3);
    for (const square of visited.slice(1)) {
      expect(square.row * 1000 + square.column).toBeLessThan(last.row * 1000 + last.column);
    }
    await expect(page.locator('.tree-toast').textContent()).resolves.toMatch(/A free square: row \d+, column -?\d+\./);
  });

  it('opens the help popup, whose Escape closes it and gives focus back', async () => {
    const help = page.getByRole('button', { name: 'Help' });
    await help.click();
    const dialog = page.getByTestId('help-popup');
    await dialog.waitFor();
    expect(await dialog.getAttribute('aria-modal')).toBe('true');
    const text = await dialog.textContent();
    for (const words of [
      'Zoom',
      'Ctrl',
      'Pan',
      'Shift',
      'Search',
      'Reserved square',
      'Unavailable square',
      'Available square',
      'Contact us',
    ]) {
      expect(text).toContain(words);
    }
    // A guest has no squares: find-my-slots is not explained.
    expect(await page.getByTestId('help-find-mine').count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.closest('dialog') !== null)).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Help');
  });
});

describe('search', () => {
  it('sends nothing for 2 characters or fewer', async () => {
    const before = calls.filter((c) => c === 'cell.search').length;
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const box = page.locator('.tree-search input');
    await box.fill('  ab  ');
    await box.press('Enter');
    await page.getByText('Type at least 3 letters.').waitFor();
    await page.waitForTimeout(300);
    expect(calls.filter((c) => c === 'cell.search').length).toBe(before);
    expect(await page.getByTestId('search-popup').count()).toBe(0);
    await page.getByRole('button', { name: 'Cancel search' }).click();
    await box.waitFor({ state: 'detached' });
  });

  it('finds a seeded piece by its title and opens its details page', async () => {
    const { db } = gallery.app.deps;
    const piece = db
      .select({ title: art.title, cellToken: cells.token })
      .from(art)
      .innerJoin(cells, eq(cells.id, art.cellId))
      .where(eq(art.status, ArtStatus.Published))
      .orderBy(desc(art.id))
      .limit(1)
      .get()!;
    const cameraBefore = await stats();
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const box = page.locator('.tree-search input');
    await box.fill(`  ${piece.title} `);
    await box.press('Enter');
    await box.waitFor({ state: 'detached' });
    const popup = page.getByTestId('search-popup');
    await popup.waitFor();
    await expect.poll(() => calls.includes('cell.search')).toBe(true);
    const row = popup.getByTestId('search-result').filter({ hasText: piece.title }).first();
    await row.waitFor();
    expect(await popup.locator('th').allTextContents()).toEqual(
      expect.arrayContaining(['Artist name', 'Title', 'Category', 'Date added', 'AI']),
    );

    // Enter in the popup's own box runs the search again; nothing found is 'No records'.
    const own = popup.locator('input');
    await own.fill('zzqqxx nothing like it');
    await own.press('Enter');
    await popup.getByText('No records').waitFor();
    await own.fill(piece.title);
    await own.press('Enter');
    await row.waitFor();

    await row.getByRole('link', { name: /View details/ }).click();
    await leftTreeFor(`/observe/cell/${piece.cellToken}/details`);
    // Back on the tree, the view is where it was before the popup opened.
    await page.goBack();
    await page.waitForSelector('[data-tree-ready="true"]');
    const back = await settled();
    expect(back.scale).toBe(cameraBefore.scale);
    expect(back.x).toBeCloseTo(cameraBefore.x, 0);
    expect(back.y).toBeCloseTo(cameraBefore.y, 0);
  });
});

describe('the view in the address', () => {
  it('follows the camera, and a shared link opens the same view elsewhere', async () => {
    await page.getByRole('button', { name: 'Zoom in' }).click();
    const box = await canvasBox();
    await page.mouse.move(box.x + 400, box.y + 300);
    await page.mouse.down();
    for (let step = 1; step <= 8; step++) await page.mouse.move(box.x + 400 - step * 25, box.y + 300 - step * 15);
    await page.mouse.up();
    const here = await settled();
    const centre = await centreCell();
    await page.waitForFunction(
      (expected) => location.search.includes(expected),
      `row=${centre.row}&col=${centre.column}&zoom=${here.scale}`,
    );

    const other = await browser.newPage({ viewport: { width: 1024, height: 700 } });
    const otherErrors = watchErrors(other);
    await openTree(new URL(page.url()).search, other);
    const there = await settled(other);
    expect(there.scale).toBe(here.scale);
    expect(await centreCell(other)).toMatchObject({ row: centre.row, column: centre.column });
    expect(otherErrors).toEqual([]);
    await other.close();
  });

  it('opens on a cell named by token', async () => {
    const target = cellsWith(CellStatus.Published)[3]!;
    await openTree(`?cell=${target.token}&zoom=2`);
    const s = await settled();
    expect(s.scale).toBe(2);
    expect(await centreCell()).toMatchObject({ row: target.row, column: target.column });
  });

  it('opens the default view, with no error, for a zoom or cell that does not exist', async () => {
    await openTree('?nothing');
    const reference = await settled();
    for (const search of [
      '?row=40&col=2&zoom=9',
      '?row=abc&col=2',
      `?cell=${'x'.repeat(22)}`,
      '?row=900000&col=3&zoom=1',
      '?cell=<b>',
    ]) {
      await openTree(search);
      const s = await settled();
      expect({ search, x: s.x, y: s.y, scale: s.scale }).toEqual({
        search,
        x: reference.x,
        y: reference.y,
        scale: reference.scale,
      });
    }
    expect(errors).toEqual([]);
  });

  it('restores zoom and position after leaving for another page and coming back', async () => {
    await openTree('?row=20&col=1&zoom=1.5');
    const before = await settled();
    await page.getByRole('button', { name: 'menu', exact: true }).click();
    await page.locator('[data-menu-item="learn"]').click();
    await leftTreeFor('/learn');
    await page.getByRole('button', { name: 'menu', exact: true }).click();
    await page.locator('[data-menu-item="observe"]').click();
    await page.waitForSelector('[data-tree-ready="true"]');
    const after = await settled();
    expect({ x: after.x, y: after.y, scale: after.scale }).toEqual({ x: before.x, y: before.y, scale: before.scale });
  });

  it('keeps the view while the header menu opens and closes', async () => {
    const before = await settled();
    await page.getByRole('button', { name: 'menu', exact: true }).click();
    await page.getByTestId('menu-panel').waitFor();
    await page.getByRole('button', { name: 'close', exact: true }).click();
    await page.getByTestId('menu-panel').waitFor({ state: 'hidden' });
    const after = await settled();
    expect({ x: after.x, y: after.y, scale: after.scale }).toEqual({ x: before.x, y: before.y, scale: before.scale });
  });
});

describe('a click on a square', () => {
  it('opens the reserve popup on an available square and the subscribe popup on a pending one, keeping the view', async () => {
    const available = cellsWith(CellStatus.Available)[0]!;
    await openTree(`?row=${available.row}&col=${available.column}&zoom=1`);
    const before = await settled();
    let point = await pointOfCell(available.row, available.column);
    await page.mouse.click(point.x, point.y);
    const reserve = page.getByTestId('reserve-popup');
    await reserve.waitFor();
    expect(await reserve.locator('h2').first().textContent()).toBe('reserve.');
    await reserve.getByRole('button', { name: 'Close', exact: true }).first().click();
    await reserve.waitFor({ state: 'detached' });
    const after = await settled();
    expect({ x: after.x, y: after.y, scale: after.scale }).toEqual({ x: before.x, y: before.y, scale: before.scale });

    const pending = cellsWith(CellStatus.Pending)[0]!;
    await openTree(`?row=${pending.row}&col=${pending.column}&zoom=1`);
    await settled();
    point = await pointOfCell(pending.row, pending.column);
    await page.mouse.click(point.x, point.y);
    const subscribe = page.getByTestId('subscribe-popup');
    await subscribe.waitFor();
    expect(await subscribe.locator('h2').first().textContent()).toBe('subscribe.');
    await page.keyboard.press('Escape');
    await subscribe.waitFor({ state: 'detached' });
  });

  it("opens a published piece's details, and a reserved square (not yours) the subscribe popup", async () => {
    const reserved = cellsWith(CellStatus.Reserved)[0]!;
    await openTree(`?row=${reserved.row}&col=${reserved.column}&zoom=1`);
    await settled();
    const point = await pointOfCell(reserved.row, reserved.column);
    await page.mouse.click(point.x, point.y);
    await page.getByTestId('subscribe-popup').waitFor();
    await page.keyboard.press('Escape');

    const published = cellsWith(CellStatus.Published)[5]!;
    await openTree(`?row=${published.row}&col=${published.column}&zoom=1`);
    await settled();
    const at = await pointOfCell(published.row, published.column);
    await page.mouse.click(at.x, at.y);
    await leftTreeFor(`/observe/cell/${published.token}/details`);
  });
});

describe('the keyboard path', () => {
  it('moves a visible focus cell with the arrow keys, names it in a live region, and Enter opens it', async () => {
    const published = cellsWith(CellStatus.Published)[0]!;
    const title = gallery.app.deps.db
      .select({ title: art.title })
      .from(art)
      .innerJoin(cells, eq(cells.artId, art.id))
      .where(eq(cells.token, published.token))
      .get()!.title;
    await openTree(`?row=${published.row}&col=${published.column}&zoom=1`);
    await settled();
    const live = page.getByTestId('tree-focus-description');
    expect(await live.getAttribute('aria-live')).toBe('polite');

    await page.keyboard.press('Tab'); // the skip link
    while (!(await page.evaluate(() => document.activeElement?.classList.contains('tree-canvas'))))
      await page.keyboard.press('Tab');
    await page.waitForFunction(() => window.__treeStats!.focusRow !== null);
    let s = await stats();
    // Keyboard focus starts on the square in the middle of the view: the published piece the address named.
    expect({ row: s.focusRow, column: s.focusColumn }).toEqual({ row: published.row, column: published.column });
    await page.waitForFunction(
      (text) => document.querySelector('[data-testid="tree-focus-description"]')?.textContent?.includes(text),
      title,
    );
    expect(await live.textContent()).toMatch(
      new RegExp(`^row ${published.row}, column ${published.column}: published — .+ by .+`),
    );

    // Down and back up; then sideways (whichever way has a square) and back.
    await page.keyboard.press('ArrowDown');
    s = await stats();
    expect(s.focusRow).toBeGreaterThan(published.row);
    expect(s.focusColumn).toBe(published.column);
    expect(await live.textContent()).toMatch(new RegExp(`^row ${s.focusRow}, column ${s.focusColumn}:`));
    await page.keyboard.press('ArrowUp');
    let [there, back] = ['ArrowRight', 'ArrowLeft'];
    await page.keyboard.press(there);
    s = await stats();
    if (s.focusColumn === published.column) {
      [there, back] = ['ArrowLeft', 'ArrowRight'];
      await page.keyboard.press(there);
      s = await stats();
    }
    expect(s.focusRow).toBe(published.row);
    expect(s.focusColumn).not.toBe(published.column);
    expect(await live.textContent()).toMatch(new RegExp(`^row ${published.row}, column ${s.focusColumn}:`));
    await page.keyboard.press(back);
    s = await stats();
    expect({ row: s.focusRow, column: s.focusColumn }).toEqual({ row: published.row, column: published.column });

    await page.keyboard.press('Enter');
    await leftTreeFor(`/observe/cell/${published.token}/details`);
  });
});

describe('a signed-in artist', () => {
  let context: BrowserContext;
  let artistPage: Page;
  let held: { token: string; row: number; column: number };
  let artistErrors: string[];

  beforeAll(async () => {
    const { db, clock } = gallery.app.deps;
    const tree = getDefaultTree(db)!;
    const reservation = db
      .select({ userId: reservations.userId, token: cells.token, row: cells.row, column: cells.column })
      .from(reservations)
      .innerJoin(cells, eq(cells.id, reservations.cellId))
      .innerJoin(trees, eq(trees.id, cells.treeId))
      .where(and(eq(reservations.state, 'active'), eq(trees.id, tree.id)))
      .get()!;
    held = reservation;
    const session = createSession(db, clock, reservation.userId);
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addCookies([{ name: SESSION_COOKIE, value: session.token, url: gallery.url }]);
    artistPage = await context.newPage();
    artistErrors = watchErrors(artistPage);
    await openTree('', artistPage);
    // The reservation work's own prompt ("continue working on your square?") may come up first: answer it later.
    const prompt = artistPage.getByTestId('edit-reserved-cell-popup');
    await prompt.waitFor({ timeout: 4_000 }).then(
      () => prompt.getByRole('button', { name: /later/i }).click(),
      () => undefined,
    );
    await prompt.waitFor({ state: 'detached' });
  });

  afterAll(() => context?.close());

  it('find-my-slots brings their reserved square to the middle, and a click on it opens the editor', async () => {
    const findMine = artistPage.getByRole('button', { name: 'Find my squares' });
    await findMine.waitFor();
    await findMine.click();
    await artistPage.waitForTimeout(100);
    await settled(artistPage);
    expect(await centreCell(artistPage)).toMatchObject({ row: held.row, column: held.column });
    await expect(artistPage.locator('.tree-toast').textContent()).resolves.toContain('Your reserved square');

    const box = (await artistPage.locator('canvas').first().boundingBox())!;
    await artistPage.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await leftTreeFor(`/observe/cell/${held.token}/edit`, artistPage);
    expect(artistErrors).toEqual([]);
  });
});

describe('a tree too large to carry its details in the snapshot', () => {
  let big: { app: App; db: Db; dir: string; url: string };
  let bigPage: Page;
  const regionRequests: string[] = [];

  beforeAll(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gallery-e2e-large-'));
    const db = openDatabase(path.join(dir, 'gallery.db'));
    generateSyntheticTree(db, { cells: SNAPSHOT_DETAIL_LIMIT + 5_000 });
    const app = await buildApp(testConfig(dir, { port: 0, host: '127.0.0.1', clientDir: E2E_CLIENT_DIR }), { db });
    big = { app, db, dir, url: await app.start() };
    bigPage = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    bigPage.on('request', (request) => {
      if (request.url().includes('/region?')) regionRequests.push(new URL(request.url()).search);
    });
  });

  afterAll(async () => {
    await bigPage?.close();
    await big?.app.stop();
    big?.db.$client.close();
    if (big) fs.rmSync(big.dir, { recursive: true, force: true });
  });

  it('asks for tokens and titles region by region, and a tap opens the right piece at once', async () => {
    const piece = big.db
      .select({ token: cells.token, row: cells.row, column: cells.column, title: art.title })
      .from(cells)
      .innerJoin(art, eq(art.id, cells.artId))
      .where(eq(cells.status, CellStatus.Published))
      .orderBy(desc(cells.row))
      .limit(1)
      .offset(400)
      .get()!;
    const bigErrors = watchErrors(bigPage);
    await bigPage.goto(`${big.url}/observe?row=${piece.row}&col=${piece.column}&zoom=1`);
    await bigPage.waitForSelector('[data-tree-ready="true"]', { timeout: 60_000 });
    // Straight away, before the view's regions have settled: the tap loads the cell's region itself.
    const box = (await bigPage.locator('canvas').first().boundingBox())!;
    await bigPage.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await leftTreeFor(`/observe/cell/${piece.token}/details`, bigPage);
    expect(regionRequests.length).toBeGreaterThan(0);
    for (const search of regionRequests) {
      const q = new URLSearchParams(search);
      expect(Number(q.get('row1')) - Number(q.get('row0'))).toBeLessThan(64);
      expect(Number(q.get('col1')) - Number(q.get('col0'))).toBeLessThan(64);
    }

    // Back on the tree, the view's regions arrive, and the keyboard names the piece with its title.
    await bigPage.goBack();
    await bigPage.waitForSelector('[data-tree-ready="true"]', { timeout: 60_000 });
    await bigPage.waitForFunction(() => window.__treeStats!.regionsLoaded > 0);
    // Keyboard focus lands on the square in the middle: the piece.
    while (!(await bigPage.evaluate(() => document.activeElement?.classList.contains('tree-canvas'))))
      await bigPage.keyboard.press('Tab');
    await bigPage.waitForFunction(
      (title) => document.querySelector('[data-testid="tree-focus-description"]')?.textContent?.includes(title),
      piece.title,
    );
    expect(bigErrors).toEqual([]);
  });
});

describe('failures', () => {
  it('a failed tree fetch leaves an empty tree with a Retry that works', async () => {
    const context = page.context();
    await context.route(/\/api\/tree\/[^/?]+$/, (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"r":{"error":"internal_error"}}' }),
    );
    await page.goto(`${gallery.url}/observe`);
    const notice = page.getByRole('alert').filter({ hasText: 'The tree could not be loaded.' });
    await notice.waitFor({ timeout: 30_000 });
    await context.unroute(/\/api\/tree\/[^/?]+$/);
    await notice.getByRole('button', { name: 'Retry' }).click();
    await page.waitForSelector('[data-tree-ready="true"]', { timeout: 60_000 });
    expect((await stats()).cellsDrawn).toBeGreaterThan(0);
    // The failed request is the page's own doing: it is not a console error of the app.
    const index = errors.findIndex((e) => /500/.test(e));
    if (index >= 0) errors.splice(index, 1);
  });

  it('a failed search shows No records', async () => {
    await page.route(/\/trpc\/cell\.search/, (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '[]' }),
    );
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const box = page.locator('.tree-search input');
    await box.fill('anything at all');
    await box.press('Enter');
    const popup = page.getByTestId('search-popup');
    await popup.getByText('No records').waitFor();
    await page.keyboard.press('Escape');
    await popup.waitFor({ state: 'detached' });
    await page.unroute(/\/trpc\/cell\.search/);
    for (let i = errors.length - 1; i >= 0; i--) if (/500|Internal Server Error/i.test(errors[i]!)) errors.splice(i, 1);
  });
});

describe('the page as a whole', () => {
  it('runs without console errors or Content Security Policy violations', () => {
    expect(errors).toEqual([]);
  });
});
