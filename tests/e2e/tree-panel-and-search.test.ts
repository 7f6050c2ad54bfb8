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
import { failedLoad, watchErrors } from '../helpers/browser/harness.ts';
import {
  browser,
  calls,
  canvasBox,
  cellsWith,
  centreCell,
  errors,
  gallery,
  leftTreeFor,
  openTree,
  page,
  PITCH,
  pointOfCell,
  settled,
  stats,
  useTreeFeatures,
} from '#tests/helpers/browser/tree-features.ts';

useTreeFeatures();

/**
 * The world point (and its grid position) at the middle of what the page's controls leave of the canvas, once the
 * camera rests: the toolbar covers its top, the Replay growth button its bottom.
 */
async function uncoveredCentre(): Promise<{ row: number; column: number; x: number; y: number }> {
  const s = await settled();
  const box = await canvasBox();
  const toolbar = (await page.getByRole('toolbar', { name: 'Tree view' }).boundingBox())!;
  const replay = (await page.getByRole('button', { name: 'Replay growth' }).boundingBox())!;
  const top = toolbar.y + toolbar.height - box.y;
  const bottom = box.y + box.height - replay.y;
  const x = s.x + box.width / 2 / s.scale;
  const y = s.y + (top + (box.height - top - bottom) / 2) / s.scale;
  return { row: Math.floor(y / PITCH), column: Math.floor(x / PITCH), x, y };
}

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
    await expect(page.locator('.tree-toast').textContent()).resolves.toMatch(/A free square: row \d+, column -?\d+\./);
    // The address follows the find: a link copied now opens on that square.
    const last3 = visited.at(-1)!;
    await expect
      .poll(() => {
        const params = new URL(page.url()).searchParams;
        return `${params.get('row')},${params.get('col')}`;
      })
      .toBe(`${last3.row},${last3.column}`);
    // Opening the square (Enter, where the find left the keyboard) puts its popup in place of the toast, which would
    // otherwise go on naming a square the visitor may be about to take.
    await page.locator('.tree-canvas').focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor();
    expect(await page.locator('.tree-toast').count()).toBe(0);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
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
    expect(await box.getAttribute('placeholder')).toBe(SEARCH_PLACEHOLDER);
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
    // Both boxes ask with the same words (decision 032).
    expect(await own.getAttribute('placeholder')).toBe(SEARCH_PLACEHOLDER);
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
    // A token of no square is asked of the server, whose 404 the browser notes: those lines are expected.
    const notFound = failedLoad(404);
    for (let i = errors.length - 1; i >= 0; i--) if (notFound.test(errors[i]!)) errors.splice(i, 1);
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
