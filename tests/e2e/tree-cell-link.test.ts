/**
 * A link to a square (`/observe?cell=TOKEN`: the "square available" e-mail's, a shared one) in a real browser: the
 * view centres on it, rings it as find-free does, names it in a toast, and puts the keyboard's focus on it, so Enter
 * opens it, also for a square made since the snapshot the server keeps; a token that is not on the tree says so.
 */
import { eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { art, cells, users } from '#drizzle/schema.ts';
import { CellStatus, CellType, Role } from '#shared/domain.ts';
import { CELL_PITCH, CELL_SIZE } from '#shared/tree/camera.ts';
import { computeBranchSlots, gridOfCells, type TreeSettings } from '#shared/tree/geometry.ts';
import { reserveBranchSlot } from '#server/services/reservations/reservations.ts';
import { getDefaultTree } from '#server/services/tree/tree.ts';
import { newToken } from '#server/tokens.ts';
import { failedLoad, launchBrowser, releaseBrowser, startGallery, type Gallery } from '../helpers/browser/harness.ts';
import { reusablePage } from '../helpers/browser/pages.ts';
import { cellsWith as cellsOfGallery, openTree, stats } from '../helpers/browser/tree-page.ts';

let gallery: Gallery;
let browser: Browser;
/** One page for the file: each link is opened on it as on a new page (no cookies, no storage of the last visit). */
const tab = reusablePage(() => browser);

beforeAll(async () => {
  [gallery, browser] = await Promise.all([startGallery(), launchBrowser()]);
});

afterAll(async () => {
  await releaseBrowser(browser);
  await gallery?.stop();
});

const cellsWith = (status: number) => cellsOfGallery(gallery, status);

/** The file's page, taken anew, at the address once the tree has drawn. */
async function openLink(search: string): Promise<{ page: Page; errors: string[] }> {
  const { page, errors } = await tab.take();
  await openTree(page, gallery, search);
  return { page, errors };
}

const toast = (page: Page) => page.locator('.tree-toast');

/** The screen's middle lies on the square (the camera rests once the view is applied: no flight). */
async function expectCentredOn(page: Page, square: { row: number; column: number }): Promise<void> {
  const s = await stats(page);
  const box = (await page.locator('.tree-canvas').boundingBox())!;
  const x = s.x + box.width / 2 / s.scale - square.column * CELL_PITCH;
  const y = s.y + box.height / 2 / s.scale - square.row * CELL_PITCH;
  expect(x).toBeGreaterThanOrEqual(0);
  expect(x).toBeLessThanOrEqual(CELL_SIZE);
  expect(y).toBeGreaterThanOrEqual(0);
  expect(y).toBeLessThanOrEqual(CELL_SIZE);
}

describe('a link to a square', () => {
  it('centres an available square, rings it, names it, and Enter opens its reserve popup', async () => {
    const square = (await cellsWith(CellStatus.Available))[0]!;
    const { page, errors } = await openLink(`?cell=${square.token}`);
    await page.waitForFunction(
      ({ row, column }) => window.__treeStats!.targetRow === row && window.__treeStats!.targetColumn === column,
      square,
    );
    await expectCentredOn(page, square);
    await toast(page).waitFor();
    expect(await toast(page).textContent()).toBe(`Row ${square.row}, column ${square.column}: available`);

    // The keyboard is on the square: the canvas has the page's focus, and its focus cell is the square.
    expect(await page.evaluate(() => document.activeElement?.classList.contains('tree-canvas'))).toBe(true);
    await page.waitForFunction(() => window.__treeStats!.focusRow !== null);
    const s = await stats(page);
    expect({ row: s.focusRow, column: s.focusColumn }).toEqual({ row: square.row, column: square.column });

    await page.keyboard.press('Enter');
    const reserve = page.getByTestId('reserve-popup');
    await reserve.waitFor();
    expect(await reserve.locator('h2').first().textContent()).toBe('reserve.');
    expect(errors).toEqual([]);
  });

  it("names a published piece by its title, and Enter opens the piece's page", async () => {
    const { db } = gallery.app.deps;
    const square = (await cellsWith(CellStatus.Published)).at(-1)!;
    const { title } = db
      .select({ title: art.title })
      .from(art)
      .innerJoin(cells, eq(cells.artId, art.id))
      .where(eq(cells.token, square.token))
      .get()!;
    const { page, errors } = await openLink(`?cell=${square.token}&zoom=2`);
    await toast(page).waitFor();
    expect(await toast(page).textContent()).toMatch(
      new RegExp(`^Row ${square.row}, column ${square.column}: ${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} by .+$`),
    );
    const s = await stats(page);
    expect({ row: s.targetRow, column: s.targetColumn, scale: s.scale }).toEqual({
      row: square.row,
      column: square.column,
      scale: 2,
    });
    await expectCentredOn(page, square);

    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === `/observe/cell/${square.token}/details`);
    expect(errors).toEqual([]);
  });

  it('finds a branch square made since the snapshot the server keeps, by asking the server where it is', async () => {
    const { deps } = gallery.app;
    const tree = (await getDefaultTree(deps.db))!;
    // A visit has the server build the tree's snapshot; it is then kept and served (the change log brings a page up
    // to date from it) until the tree is far ahead of it.
    await openLink('');
    expect(deps.snapshots.peek(tree.id)?.version).toBe(tree.version);

    const all = deps.db
      .select({ row: cells.row, column: cells.column, status: cells.status })
      .from(cells)
      .where(eq(cells.treeId, tree.id))
      .all();
    const slot = computeBranchSlots(tree.settings as TreeSettings, gridOfCells(all))[0]!;
    expect(slot).toBeDefined();
    const now = deps.clock.now();
    const member = deps.db
      .insert(users)
      .values({
        token: newToken(),
        email: `brancher-${newToken(4)}@example.test`,
        passwordHash: 'unusable',
        firstname: 'Branch',
        lastname: 'Maker',
        role: Role.Artist,
        createdAt: now,
        updatedAt: now,
      })
      .returning()
      .get();
    const square = await reserveBranchSlot(deps, member, slot);
    expect(square).toMatchObject({ row: slot.row, column: slot.column, type: CellType.Branch });
    // The snapshot a page gets is still the one from before the square.
    expect(deps.snapshots.peek(tree.id)!.version).toBeLessThan((await getDefaultTree(deps.db))!.version);

    const { page, errors } = await openLink(`?cell=${square.token}`);
    await toast(page).waitFor();
    expect(await toast(page).textContent()).toBe(`Row ${slot.row}, column ${slot.column}: reserved`);
    // The square arrived with the page's catch-up, after the first frame: its view is applied at the next one.
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    const s = await stats(page);
    expect({ row: s.targetRow, column: s.targetColumn }).toEqual(slot);
    await expectCentredOn(page, slot);
    expect(errors).toEqual([]);
  });

  it('says so when the token is not on the tree, and the default view stays, unringed', async () => {
    const { page: reference } = await openLink('');
    const expected = await stats(reference);
    for (const search of [`?cell=${'x'.repeat(22)}`, '?cell=<b>']) {
      const { page, errors } = await openLink(search);
      await toast(page).waitFor();
      expect(await toast(page).textContent()).toBe('That square is not on the tree.');
      const s = await stats(page);
      expect({ search, x: s.x, y: s.y, scale: s.scale, row: s.targetRow, column: s.targetColumn }).toEqual({
        search,
        x: expected.x,
        y: expected.y,
        scale: expected.scale,
        row: null,
        column: null,
      });
      // A well-formed token the tree on screen does not know is asked of the server, whose 404 the browser notes.
      expect(errors.filter((line) => !failedLoad(404).test(line))).toEqual([]);
    }
  });
});
