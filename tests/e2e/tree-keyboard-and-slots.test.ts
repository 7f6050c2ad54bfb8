/**
 * The tree page's features in a real browser (decision 010): the keyboard path with its live description,
 * find-my-slots for a signed-in artist, a tree too large for the snapshot's details, failures, and no console errors.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { art, cells, reservations, trees } from '#drizzle/schema.ts';
import { CellStatus } from '#shared/domain.ts';
import { SNAPSHOT_DETAIL_LIMIT } from '#shared/tree/snapshot.ts';
import { buildApp, type App } from '#server/app.ts';
import { createSession, SESSION_COOKIE } from '#server/auth/sessions.ts';
import { testConfig } from '#server/config.ts';
import { openDatabase, type Db } from '#server/db.ts';
import { generateSyntheticTree } from '#server/seed/synthetic.ts';
import { getDefaultTree } from '#server/services/tree/tree.ts';
import '#client/tree/engine/stats.ts';
import { E2E_CLIENT_DIR } from '../helpers/paths.ts';
import { useTreeFeatures } from '#tests/helpers/browser/tree-features.ts';

const treePage = useTreeFeatures();

describe('the keyboard path', () => {
  it('moves a visible focus cell with the arrow keys, names it in a live region, and Enter opens it', async () => {
    const published = (await treePage.cellsWith(CellStatus.Published))[0]!;
    const title = treePage.gallery.app.deps.db
      .select({ title: art.title })
      .from(art)
      .innerJoin(cells, eq(cells.artId, art.id))
      .where(eq(cells.token, published.token))
      .get()!.title;
    await treePage.openTree(`?row=${published.row}&col=${published.column}&zoom=1`);
    await treePage.settled();
    const live = treePage.page.getByTestId('tree-focus-description');
    expect(await live.getAttribute('aria-live')).toBe('polite');

    await treePage.page.keyboard.press('Tab'); // the skip link
    while (!(await treePage.page.evaluate(() => document.activeElement?.classList.contains('tree-canvas'))))
      await treePage.page.keyboard.press('Tab');
    await treePage.page.waitForFunction(() => window.__treeStats!.focusRow !== null);
    let s = await treePage.stats();
    // Keyboard focus starts on the square in the middle of the view: the published piece the address named.
    expect({ row: s.focusRow, column: s.focusColumn }).toEqual({ row: published.row, column: published.column });
    await treePage.page.waitForFunction(
      (text) => document.querySelector('[data-testid="tree-focus-description"]')?.textContent?.includes(text),
      title,
    );
    expect(await live.textContent()).toMatch(
      new RegExp(`^row ${published.row}, column ${published.column}: published — .+ by .+`),
    );

    // Down and back up; then sideways (whichever way has a square) and back.
    await treePage.page.keyboard.press('ArrowDown');
    s = await treePage.stats();
    expect(s.focusRow).toBeGreaterThan(published.row);
    expect(s.focusColumn).toBe(published.column);
    expect(await live.textContent()).toMatch(new RegExp(`^row ${s.focusRow}, column ${s.focusColumn}:`));
    await treePage.page.keyboard.press('ArrowUp');
    let [there, back] = ['ArrowRight', 'ArrowLeft'];
    await treePage.page.keyboard.press(there);
    s = await treePage.stats();
    if (s.focusColumn === published.column) {
      [there, back] = ['ArrowLeft', 'ArrowRight'];
      await treePage.page.keyboard.press(there);
      s = await treePage.stats();
    }
    expect(s.focusRow).toBe(published.row);
    expect(s.focusColumn).not.toBe(published.column);
    expect(await live.textContent()).toMatch(new RegExp(`^row ${published.row}, column ${s.focusColumn}:`));
    await treePage.page.keyboard.press(back);
    s = await treePage.stats();
    expect({ row: s.focusRow, column: s.focusColumn }).toEqual({ row: published.row, column: published.column });

    await treePage.page.keyboard.press('Enter');
    await treePage.leftTreeFor(`/observe/cell/${published.token}/details`);
  });
});

describe('a signed-in artist', () => {
  let artistPage: Page;
  let held: { token: string; row: number; column: number };
  let artistErrors: string[];

  beforeAll(async () => {
    const { db, clock } = treePage.gallery.app.deps;
    const tree = (await getDefaultTree(db))!;
    const reservation = db
      .select({ userId: reservations.userId, token: cells.token, row: cells.row, column: cells.column })
      .from(reservations)
      .innerJoin(cells, eq(cells.id, reservations.cellId))
      .innerJoin(trees, eq(trees.id, cells.treeId))
      .where(and(eq(reservations.state, 'active'), eq(trees.id, tree.id)))
      .get()!;
    held = reservation;
    const session = await createSession(db, clock, reservation.userId);
    const opened = await treePage.tab.take();
    await opened.context.addCookies([{ name: SESSION_COOKIE, value: session.token, url: treePage.gallery.url }]);
    ({ page: artistPage, errors: artistErrors } = opened);
    await treePage.openTree('', artistPage);
    // The reservation work's own prompt ("continue working on your square?") may come up first: answer it later.
    const prompt = artistPage.getByTestId('edit-reserved-cell-popup');
    await prompt.waitFor({ timeout: 4_000 }).then(
      () => prompt.getByRole('button', { name: /later/i }).click(),
      () => undefined,
    );
    await prompt.waitFor({ state: 'detached' });
  });

  it('find-my-slots brings their reserved square to the middle, and a click on it opens the editor', async () => {
    const findMine = artistPage.getByRole('button', { name: 'Find my squares' });
    await findMine.waitFor();
    await findMine.click();
    await artistPage.waitForTimeout(100);
    await treePage.settled(artistPage);
    expect(await treePage.centreCell(artistPage)).toMatchObject({ row: held.row, column: held.column });
    await expect(artistPage.locator('.tree-toast').textContent()).resolves.toContain('Your reserved square');

    const box = (await artistPage.locator('canvas').first().boundingBox())!;
    await artistPage.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await treePage.leftTreeFor(`/observe/cell/${held.token}/edit`, artistPage);
    expect(artistErrors).toEqual([]);
  });
});

describe('a tree too large to carry its details in the snapshot', () => {
  let big: { app: App; db: Db; dir: string; url: string };
  let bigPage: Page;
  let bigErrors: string[];
  const regionRequests: string[] = [];

  beforeAll(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gallery-e2e-large-'));
    const db = openDatabase(path.join(dir, 'gallery.db'));
    await generateSyntheticTree(db, { cells: SNAPSHOT_DETAIL_LIMIT + 5_000 });
    const app = await buildApp(testConfig(dir, { port: 0, host: '127.0.0.1', clientDir: E2E_CLIENT_DIR }), { db });
    big = { app, db, dir, url: await app.start() };
    ({ page: bigPage, errors: bigErrors } = await treePage.tab.take());
    bigPage.on('request', (request) => {
      if (request.url().includes('/region?')) regionRequests.push(new URL(request.url()).search);
    });
  });

  afterAll(async () => {
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
    await bigPage.goto(`${big.url}/observe?row=${piece.row}&col=${piece.column}&zoom=1`);
    await bigPage.waitForSelector('[data-tree-ready="true"]', { timeout: 60_000 });
    // Straight away, before the view's regions have settled: the tap loads the cell's region itself.
    const box = (await bigPage.locator('canvas').first().boundingBox())!;
    await bigPage.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await treePage.leftTreeFor(`/observe/cell/${piece.token}/details`, bigPage);
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
    const context = treePage.page.context();
    await context.route(/\/api\/tree\/[^/?]+$/, (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"r":{"error":"internal_error"}}' }),
    );
    await treePage.page.goto(`${treePage.gallery.url}/observe`);
    const notice = treePage.page.getByRole('alert').filter({ hasText: 'The tree could not be loaded.' });
    await notice.waitFor({ timeout: 30_000 });
    await context.unroute(/\/api\/tree\/[^/?]+$/);
    await notice.getByRole('button', { name: 'Retry' }).click();
    await treePage.page.waitForSelector('[data-tree-ready="true"]', { timeout: 60_000 });
    expect((await treePage.stats()).cellsDrawn).toBeGreaterThan(0);
    // The failed request is the page's own doing: it is not a console error of the app.
    const index = treePage.errors.findIndex((e) => /500/.test(e));
    if (index >= 0) treePage.errors.splice(index, 1);
  });

  it('a failed search shows No records', async () => {
    await treePage.page.route(/\/trpc\/cell\.search/, (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '[]' }),
    );
    await treePage.page.getByRole('button', { name: 'Search', exact: true }).click();
    const box = treePage.page.locator('.tree-search input');
    await box.fill('anything at all');
    await box.press('Enter');
    const popup = treePage.page.getByTestId('search-popup');
    await popup.getByText('No records').waitFor();
    await treePage.page.keyboard.press('Escape');
    await popup.waitFor({ state: 'detached' });
    await treePage.page.unroute(/\/trpc\/cell\.search/);
    for (let i = treePage.errors.length - 1; i >= 0; i--)
      if (/500|Internal Server Error/i.test(treePage.errors[i]!)) treePage.errors.splice(i, 1);
  });
});

describe('the page as a whole', () => {
  it('runs without console errors or Content Security Policy violations', () => {
    expect(treePage.errors).toEqual([]);
  });
});
