/**
 * The tree page's features in a real browser (decision 010): the top panel, zoom about the pointer,
 * find-free, search, the view in the address and the popups a click opens.
 */
import { describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import { art, cells } from '#drizzle/schema.ts';
import { ArtStatus, CellStatus } from '#shared/domain.ts';
import { SEARCH_PLACEHOLDER } from '#shared/validation/search.ts';
import '#client/tree/engine/stats.ts';
import { failedLoad } from '../helpers/browser/harness.ts';
import { PITCH, useTreeFeatures } from '#tests/helpers/browser/tree-features.ts';

const treePage = useTreeFeatures();

/**
 * The world point (and its grid position) at the middle of what the page's controls leave of the canvas, once the
 * camera rests: the toolbar covers its top, the Replay growth button its bottom.
 */
async function uncoveredCentre(): Promise<{ row: number; column: number; x: number; y: number }> {
  const s = await treePage.settled();
  const box = await treePage.canvasBox();
  const toolbar = (await treePage.page.getByRole('toolbar', { name: 'Tree view' }).boundingBox())!;
  const replay = (await treePage.page.getByRole('button', { name: 'Replay growth' }).boundingBox())!;
  const top = toolbar.y + toolbar.height - box.y;
  const bottom = box.y + box.height - replay.y;
  const x = s.x + box.width / 2 / s.scale;
  const y = s.y + (top + (box.height - top - bottom) / 2) / s.scale;
  return { row: Math.floor(y / PITCH), column: Math.floor(x / PITCH), x, y };
}

describe('the top panel', () => {
  it('zooms in and out in steps, each button disabled at its end of the range', async () => {
    const zoomIn = treePage.page.getByRole('button', { name: 'Zoom in' });
    const zoomOut = treePage.page.getByRole('button', { name: 'Zoom out' });
    while (await zoomOut.isEnabled()) await zoomOut.click();
    await treePage.page.waitForFunction(() => window.__treeStats!.scale === 0.5);
    expect(await zoomOut.isDisabled()).toBe(true);
    expect(await zoomIn.isEnabled()).toBe(true);
    const steps: number[] = [];
    while (await zoomIn.isEnabled()) {
      await zoomIn.click();
      steps.push((await treePage.settled()).scale);
    }
    expect(steps).toEqual([1, 1.5, 2, 2.5]);
    expect(await zoomIn.isDisabled()).toBe(true);
    await expect(treePage.page.locator('output[aria-label="Zoom level"]').textContent()).resolves.toBe('250%');
    await zoomOut.click();
    await zoomOut.click();
    await zoomOut.click();
    expect((await treePage.settled()).scale).toBe(1);
  });

  it('zooms about the pointer with Ctrl+wheel, scrolls with the wheel and Shift+wheel', async () => {
    const box = await treePage.canvasBox();
    const pointer = { x: box.x + box.width * 0.3, y: box.y + box.height * 0.6 };
    const before = await treePage.stats();
    const worldBefore = {
      x: before.x + (pointer.x - box.x) / before.scale,
      y: before.y + (pointer.y - box.y) / before.scale,
    };
    await treePage.page.mouse.move(pointer.x, pointer.y);
    await treePage.page.keyboard.down('Control');
    await treePage.page.mouse.wheel(0, -120);
    await treePage.page.keyboard.up('Control');
    await treePage.page.waitForFunction((scale) => window.__treeStats!.scale !== scale, before.scale);
    const after = await treePage.settled();
    expect(after.scale).toBe(1.5);
    // The world point under the pointer stayed under it.
    expect(after.x + (pointer.x - box.x) / after.scale).toBeCloseTo(worldBefore.x, 0);
    expect(after.y + (pointer.y - box.y) / after.scale).toBeCloseTo(worldBefore.y, 0);

    await treePage.page.mouse.wheel(0, 150);
    await treePage.page.waitForFunction((y) => window.__treeStats!.y !== y, after.y);
    const scrolled = await treePage.settled();
    expect((scrolled.y - after.y) * scrolled.scale).toBeCloseTo(150, 0);
    expect(scrolled.x).toBe(after.x);

    await treePage.page.keyboard.down('Shift');
    await treePage.page.mouse.wheel(0, 90);
    await treePage.page.keyboard.up('Shift');
    await treePage.page.waitForFunction((x) => window.__treeStats!.x !== x, scrolled.x);
    const sideways = await treePage.settled();
    expect((sideways.x - scrolled.x) * sideways.scale).toBeCloseTo(90, 0);
    expect(sideways.y).toBe(scrolled.y);
  });

  it('find-free glides to the last available square, then cycles through the others', async () => {
    const available = (await treePage.cellsWith(CellStatus.Available)).sort(
      (a, b) => a.row - b.row || a.column - b.column,
    );
    const findFree = treePage.page.getByRole('button', { name: 'Find next free square' });
    const visited: { row: number; column: number }[] = [];
    for (let press = 0; press < 3; press++) {
      await findFree.click();
      await treePage.page.waitForTimeout(100);
      const centre = await uncoveredCentre();
      // Exactly centred on the square's middle, in the part of the canvas the toolbar and Replay growth leave.
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
    await expect(treePage.page.locator('.tree-toast').textContent()).resolves.toMatch(
      /A free square: row \d+, column -?\d+\./,
    );
    // The address follows the find: a link copied now opens on that square.
    const last3 = visited.at(-1)!;
    await expect
      .poll(() => {
        const params = new URL(treePage.page.url()).searchParams;
        return `${params.get('row')},${params.get('col')}`;
      })
      .toBe(`${last3.row},${last3.column}`);
    // Opening the square (Enter, where the find left the keyboard) puts its popup in place of the toast, which would
    // otherwise go on naming a square the visitor may be about to take.
    await treePage.page.locator('.tree-canvas').focus();
    await treePage.page.keyboard.press('Enter');
    await treePage.page.getByRole('dialog').waitFor();
    expect(await treePage.page.locator('.tree-toast').count()).toBe(0);
    await treePage.page.keyboard.press('Escape');
    await treePage.page.getByRole('dialog').waitFor({ state: 'detached' });
  });

  it('opens the help popup, whose Escape closes it and gives focus back', async () => {
    const help = treePage.page.getByRole('button', { name: 'Help' });
    await help.click();
    const dialog = treePage.page.getByTestId('help-popup');
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
    expect(await treePage.page.getByTestId('help-find-mine').count()).toBe(0);
    expect(await treePage.page.evaluate(() => document.activeElement?.closest('dialog') !== null)).toBe(true);
    await treePage.page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await treePage.page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Help');
  });
});

describe('search', () => {
  it('sends nothing for 2 characters or fewer', async () => {
    const before = treePage.calls.filter((c) => c === 'cell.search').length;
    await treePage.page.getByRole('button', { name: 'Search', exact: true }).click();
    const box = treePage.page.locator('.tree-search input');
    await box.fill('  ab  ');
    await box.press('Enter');
    await treePage.page.getByText('Type at least 3 letters.').waitFor();
    await treePage.page.waitForTimeout(300);
    expect(treePage.calls.filter((c) => c === 'cell.search').length).toBe(before);
    expect(await treePage.page.getByTestId('search-popup').count()).toBe(0);
    await treePage.page.getByRole('button', { name: 'Cancel search' }).click();
    await box.waitFor({ state: 'detached' });
  });

  it('finds a seeded piece by its title and opens its details page', async () => {
    const { db } = treePage.gallery.app.deps;
    const piece = db
      .select({ title: art.title, cellToken: cells.token })
      .from(art)
      .innerJoin(cells, eq(cells.id, art.cellId))
      .where(eq(art.status, ArtStatus.Published))
      .orderBy(desc(art.id))
      .limit(1)
      .get()!;
    const cameraBefore = await treePage.stats();
    await treePage.page.getByRole('button', { name: 'Search', exact: true }).click();
    const box = treePage.page.locator('.tree-search input');
    expect(await box.getAttribute('placeholder')).toBe(SEARCH_PLACEHOLDER);
    await box.fill(`  ${piece.title} `);
    await box.press('Enter');
    await box.waitFor({ state: 'detached' });
    const popup = treePage.page.getByTestId('search-popup');
    await popup.waitFor();
    await expect.poll(() => treePage.calls.includes('cell.search')).toBe(true);
    const row = popup.getByTestId('search-result').filter({ hasText: piece.title }).first();
    await row.waitFor();
    expect(await popup.locator('th').allTextContents()).toEqual(
      expect.arrayContaining(['Artist name', 'Title', 'Category', 'Date added', 'AI']),
    );

    // Enter in the popup's own box runs the search again; nothing found is 'No records'.
    const own = popup.locator('input');
    // Both boxes ask with the same words (decision 032).
    expect(await own.getAttribute('placeholder')).toBe(SEARCH_PLACEHOLDER);
    await own.fill('zzqqxx nothing like it');
    await own.press('Enter');
    await popup.getByText('No records').waitFor();
    await own.fill(piece.title);
    await own.press('Enter');
    await row.waitFor();

    await row.getByRole('link', { name: /View details/ }).click();
    await treePage.leftTreeFor(`/observe/cell/${piece.cellToken}/details`);
    // Back on the tree, the view is where it was before the popup opened.
    await treePage.page.goBack();
    await treePage.page.waitForSelector('[data-tree-ready="true"]');
    const back = await treePage.settled();
    expect(back.scale).toBe(cameraBefore.scale);
    expect(back.x).toBeCloseTo(cameraBefore.x, 0);
    expect(back.y).toBeCloseTo(cameraBefore.y, 0);
  });
});

describe('the view in the address', () => {
  it('follows the camera, and a shared link opens the same view elsewhere', async () => {
    await treePage.page.getByRole('button', { name: 'Zoom in' }).click();
    const box = await treePage.canvasBox();
    await treePage.page.mouse.move(box.x + 400, box.y + 300);
    await treePage.page.mouse.down();
    for (let step = 1; step <= 8; step++)
      await treePage.page.mouse.move(box.x + 400 - step * 25, box.y + 300 - step * 15);
    await treePage.page.mouse.up();
    const here = await treePage.settled();
    const centre = await treePage.centreCell();
    await treePage.page.waitForFunction(
      (expected) => location.search.includes(expected),
      `row=${centre.row}&col=${centre.column}&zoom=${here.scale}`,
    );

    const { page: other, errors: otherErrors } = await treePage.tab.take({ viewport: { width: 1024, height: 700 } });
    await treePage.openTree(new URL(treePage.page.url()).search, other);
    const there = await treePage.settled(other);
    expect(there.scale).toBe(here.scale);
    expect(await treePage.centreCell(other)).toMatchObject({ row: centre.row, column: centre.column });
    expect(otherErrors).toEqual([]);
  });

  it('opens on a cell named by token', async () => {
    const target = (await treePage.cellsWith(CellStatus.Published))[3]!;
    await treePage.openTree(`?cell=${target.token}&zoom=2`);
    const s = await treePage.settled();
    expect(s.scale).toBe(2);
    expect(await treePage.centreCell()).toMatchObject({ row: target.row, column: target.column });
  });

  it('opens the default view, with no error, for a zoom or cell that does not exist', async () => {
    await treePage.openTree('?nothing');
    const reference = await treePage.settled();
    for (const search of [
      '?row=40&col=2&zoom=9',
      '?row=abc&col=2',
      `?cell=${'x'.repeat(22)}`,
      '?row=900000&col=3&zoom=1',
      '?cell=<b>',
    ]) {
      await treePage.openTree(search);
      const s = await treePage.settled();
      expect({ search, x: s.x, y: s.y, scale: s.scale }).toEqual({
        search,
        x: reference.x,
        y: reference.y,
        scale: reference.scale,
      });
    }
    // A token of no square is asked of the server, whose 404 the browser notes: those lines are expected.
    const notFound = failedLoad(404);
    for (let i = treePage.errors.length - 1; i >= 0; i--)
      if (notFound.test(treePage.errors[i]!)) treePage.errors.splice(i, 1);
    expect(treePage.errors).toEqual([]);
  });

  it('restores zoom and position after leaving for another page and coming back', async () => {
    await treePage.openTree('?row=20&col=1&zoom=1.5');
    const before = await treePage.settled();
    await treePage.page.getByRole('button', { name: 'menu', exact: true }).click();
    await treePage.page.locator('[data-menu-item="learn"]').click();
    await treePage.leftTreeFor('/learn');
    await treePage.page.getByRole('button', { name: 'menu', exact: true }).click();
    await treePage.page.locator('[data-menu-item="observe"]').click();
    await treePage.page.waitForSelector('[data-tree-ready="true"]');
    const after = await treePage.settled();
    expect({ x: after.x, y: after.y, scale: after.scale }).toEqual({ x: before.x, y: before.y, scale: before.scale });
  });

  it('keeps the view while the header menu opens and closes', async () => {
    const before = await treePage.settled();
    await treePage.page.getByRole('button', { name: 'menu', exact: true }).click();
    await treePage.page.getByTestId('menu-panel').waitFor();
    await treePage.page.getByRole('button', { name: 'close', exact: true }).click();
    await treePage.page.getByTestId('menu-panel').waitFor({ state: 'hidden' });
    const after = await treePage.settled();
    expect({ x: after.x, y: after.y, scale: after.scale }).toEqual({ x: before.x, y: before.y, scale: before.scale });
  });
});

describe('a click on a square', () => {
  it('opens the reserve popup on an available square and the subscribe popup on a pending one, keeping the view', async () => {
    const available = (await treePage.cellsWith(CellStatus.Available))[0]!;
    await treePage.openTree(`?row=${available.row}&col=${available.column}&zoom=1`);
    const before = await treePage.settled();
    let point = await treePage.pointOfCell(available.row, available.column);
    await treePage.page.mouse.click(point.x, point.y);
    const reserve = treePage.page.getByTestId('reserve-popup');
    await reserve.waitFor();
    expect(await reserve.locator('h2').first().textContent()).toBe('reserve.');
    await reserve.getByRole('button', { name: 'Close', exact: true }).first().click();
    await reserve.waitFor({ state: 'detached' });
    const after = await treePage.settled();
    expect({ x: after.x, y: after.y, scale: after.scale }).toEqual({ x: before.x, y: before.y, scale: before.scale });

    const pending = (await treePage.cellsWith(CellStatus.Pending))[0]!;
    await treePage.openTree(`?row=${pending.row}&col=${pending.column}&zoom=1`);
    await treePage.settled();
    point = await treePage.pointOfCell(pending.row, pending.column);
    await treePage.page.mouse.click(point.x, point.y);
    const subscribe = treePage.page.getByTestId('subscribe-popup');
    await subscribe.waitFor();
    expect(await subscribe.locator('h2').first().textContent()).toBe('subscribe.');
    await treePage.page.keyboard.press('Escape');
    await subscribe.waitFor({ state: 'detached' });
  });

  it("opens a published piece's details, and a reserved square (not yours) the subscribe popup", async () => {
    const reserved = (await treePage.cellsWith(CellStatus.Reserved))[0]!;
    await treePage.openTree(`?row=${reserved.row}&col=${reserved.column}&zoom=1`);
    await treePage.settled();
    const point = await treePage.pointOfCell(reserved.row, reserved.column);
    await treePage.page.mouse.click(point.x, point.y);
    await treePage.page.getByTestId('subscribe-popup').waitFor();
    await treePage.page.keyboard.press('Escape');

    const published = (await treePage.cellsWith(CellStatus.Published))[5]!;
    await treePage.openTree(`?row=${published.row}&col=${published.column}&zoom=1`);
    await treePage.settled();
    const at = await treePage.pointOfCell(published.row, published.column);
    await treePage.page.mouse.click(at.x, at.y);
    await treePage.leftTreeFor(`/observe/cell/${published.token}/details`);
  });
});
