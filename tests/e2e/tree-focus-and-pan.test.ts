/**
 * The tree for everyone, in a real browser: where the keyboard goes after the popups and on the way back from a piece,
 * the pan buttons (on a wide screen and on a phone), and a visible focus on every control of the page.
 */
import { and, eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { cells, reservations } from '#drizzle/schema.ts';
import { CellStatus } from '#shared/domain.ts';
import { bandStarts } from '#shared/tree/geometry.ts';
import { createSession, SESSION_COOKIE } from '#server/auth/sessions.ts';
import { getDefaultTree } from '#server/services/tree/tree.ts';
import '#client/tree/engine/stats.ts';
import { axeViolations } from '../helpers/browser/axe.ts';
import { postFromPage, watchErrors } from '../helpers/browser/harness.ts';
import { PHONE, useTreeAccess } from '#tests/helpers/browser/tree-access.ts';

const treePage = useTreeAccess();

describe('where the keyboard goes', () => {
  it('closing the search results gives the focus to the Search button, the box that opened them being gone', async () => {
    await treePage.openTree();
    await treePage.page.getByRole('button', { name: 'Search', exact: true }).click();
    const box = treePage.page.locator('.tree-search input');
    await box.fill('tide');
    await box.press('Enter');
    const popup = treePage.page.getByTestId('search-popup');
    await popup.waitFor();
    await treePage.page.keyboard.press('Escape');
    await popup.waitFor({ state: 'detached' });
    expect(await treePage.page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Search');
  });

  it("back from a piece's page, by Back or by its close button, the view and the keyboard are on the piece again", async () => {
    // The demo's pieces lie where its seed put them: take one of the trunk's.
    const square = (await treePage.cellsWith(CellStatus.Published)).find(
      (cell) => cell.row >= bandStarts(treePage.settings).trunk && cell.row < bandStarts(treePage.settings).seed,
    )!;
    const piece = await treePage.pieceAt(square.row, square.column);
    await treePage.openTree(`?row=${square.row}&col=${square.column}&zoom=1`);
    await treePage.settled();
    await treePage.tabToCanvas();
    expect(await treePage.focusAt()).toEqual({ row: square.row, column: square.column });
    const before = await treePage.settled();

    await treePage.page.keyboard.press('Enter');
    await treePage.page.waitForURL((url) => url.pathname === `/observe/cell/${piece.token}/details`);
    await treePage.page.locator('.tree-canvas').waitFor({ state: 'detached' });
    await treePage.page.goBack();
    await treePage.page.waitForSelector('[data-tree-ready="true"]');
    await treePage.page.waitForFunction(() => document.activeElement?.classList.contains('tree-canvas'));
    await treePage.page.waitForFunction(() => window.__treeStats!.focusRow !== null);
    expect(await treePage.focusAt()).toEqual({ row: square.row, column: square.column });
    let after = await treePage.settled();
    expect({ x: after.x, y: after.y, scale: after.scale }).toEqual({ x: before.x, y: before.y, scale: before.scale });

    // Enter opens it again; the page's close button comes back the same way.
    await treePage.page.keyboard.press('Enter');
    await treePage.page.waitForURL((url) => url.pathname === `/observe/cell/${piece.token}/details`);
    const close = treePage.page.getByRole('button', { name: 'Close and return to the tree' });
    await close.focus();
    await treePage.page.keyboard.press('Enter');
    await treePage.page.waitForSelector('[data-tree-ready="true"]');
    await treePage.page.waitForFunction(() => document.activeElement?.classList.contains('tree-canvas'));
    await treePage.page.waitForFunction(() => window.__treeStats!.focusRow !== null);
    expect(await treePage.focusAt()).toEqual({ row: square.row, column: square.column });
    after = await treePage.settled();
    expect({ x: after.x, y: after.y, scale: after.scale }).toEqual({ x: before.x, y: before.y, scale: before.scale });
    // The arrows go on from there.
    await treePage.page.keyboard.press('ArrowDown');
    expect(await treePage.focusAt()).not.toEqual({ row: square.row, column: square.column });
    expect(treePage.errors).toEqual([]);
  });

  it("after the reserve popup's steps, the keyboard is back on the canvas", async () => {
    const { page: member, errors: memberErrors } = await treePage.tab.take();
    await member.goto(`${treePage.gallery.url}/`);
    await member.waitForFunction(() => !document.querySelector('.shell__loading'));
    const email = `access.${Date.now().toString(36)}@example.com`;
    expect(
      await postFromPage(member, '/api/register', {
        firstname: 'Key',
        lastname: 'Board',
        email,
        password: 'reserve-pass-1!',
      }),
    ).toBe(200);
    const square = (await treePage.cellsWith(CellStatus.Available)).find((cell) => cell.type === 1)!;
    // A link to the square: the canvas has the keyboard, on the square.
    await member.goto(`${treePage.gallery.url}/observe?cell=${square.token}`);
    await member.waitForSelector('[data-tree-ready="true"]', { timeout: 60_000 });
    await member.waitForFunction(() => document.activeElement?.classList.contains('tree-canvas'));
    await member.keyboard.press('Enter');
    const popup = member.getByTestId('reserve-popup');
    await popup.waitFor();
    const focused = () =>
      member.evaluate(() =>
        `${document.activeElement?.tagName} ${(document.activeElement as HTMLInputElement).value ?? ''}`.trim(),
      );
    await popup.getByRole('radio', { name: 'Yes' }).check();
    await member.keyboard.press('Enter');
    // Each step takes the keyboard to its first control: the button it came from is disabled, then gone.
    await popup.getByTestId('reserve-step-1').waitFor();
    await expect.poll(focused).toBe('INPUT yes');
    await member.keyboard.press('ArrowDown');
    expect(await focused()).toBe('INPUT no');
    await member.keyboard.press('Enter');
    await popup.getByTestId('reserve-step-2').waitFor();
    await expect.poll(focused).toBe('BUTTON');
    expect(await member.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Done');
    await member.keyboard.press('Enter');
    await popup.waitFor({ state: 'detached' });
    await member.waitForFunction(() => document.activeElement?.classList.contains('tree-canvas'));
    expect(memberErrors).toEqual([]);
  });

  it('find-my-squares takes the keyboard to the square it shows', async () => {
    const { db, clock } = treePage.gallery.app.deps;
    const tree = (await getDefaultTree(db))!;
    const held = db
      .select({ userId: reservations.userId, row: cells.row, column: cells.column })
      .from(reservations)
      .innerJoin(cells, eq(cells.id, reservations.cellId))
      .where(and(eq(reservations.state, 'active'), eq(cells.treeId, tree.id)))
      .get()!;
    const session = await createSession(db, clock, held.userId);
    const { context, page: artist, errors: artistErrors } = await treePage.tab.take();
    await context.addCookies([{ name: SESSION_COOKIE, value: session.token, url: treePage.gallery.url }]);
    await treePage.openTree('', artist);
    // The reservation's own prompt may come up first: answer it later.
    const prompt = artist.getByTestId('edit-reserved-cell-popup');
    await prompt.waitFor({ timeout: 4_000 }).then(
      () => prompt.getByRole('button', { name: /later/i }).click(),
      () => undefined,
    );
    await prompt.waitFor({ state: 'detached' });
    await treePage.tabToCanvas(artist);
    const findMine = artist.getByRole('button', { name: 'Find my squares' });
    await findMine.focus();
    await artist.keyboard.press('Enter');
    await artist.waitForFunction(() => window.__treeStats!.targetRow !== null);
    await treePage.settled(artist);
    await artist.locator('.tree-canvas').focus();
    await artist.waitForFunction(() => window.__treeStats!.focusRow !== null);
    expect(await treePage.focusAt(artist)).toEqual({ row: held.row, column: held.column });
    expect(artistErrors).toEqual([]);
  });
});

describe('pan without dragging', () => {
  it('on a wide screen, four named buttons in the panel move the view half a screen each way', async () => {
    await treePage.openTree('?row=24&col=2&zoom=1');
    const start = await treePage.settled();
    const box = (await treePage.page.locator('.tree-canvas').boundingBox())!;
    const group = treePage.page.getByRole('group', { name: 'Pan the view' });
    expect(
      await group.getByRole('button').evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label'))),
    ).toEqual(['Pan left', 'Pan up', 'Pan down', 'Pan right']);
    expect(await treePage.page.getByRole('button', { name: 'Pan buttons' }).isVisible()).toBe(false);
    // Where the camera is after each press, from where it started.
    const moves: [string, number, number][] = [
      ['Pan right', box.width / 2, 0],
      ['Pan down', box.width / 2, box.height / 2],
      ['Pan left', 0, box.height / 2],
      ['Pan up', 0, 0],
    ];
    for (const [name, dx, dy] of moves) {
      await treePage.page.getByRole('button', { name, exact: true }).click();
      const s = await treePage.settled();
      expect({ name, x: s.x - start.x, y: s.y - start.y }).toEqual({
        name,
        x: expect.closeTo(dx / s.scale, 3),
        y: expect.closeTo(dy / s.scale, 3),
      });
    }
  });

  it('on a phone, one button in the panel strip shows the four, which fit the screen', async () => {
    // A context of its own: a phone's touch screen and pixel ratio are options of a context.
    const context = await treePage.browser.newContext({
      viewport: PHONE,
      deviceScaleFactor: 3,
      hasTouch: true,
      isMobile: true,
    });
    const phone = await context.newPage();
    const phoneErrors = watchErrors(phone);
    await treePage.openTree('?row=24&col=2&zoom=1', phone);
    const start = await treePage.settled(phone);
    const toolbar = (await phone.getByRole('toolbar', { name: 'Tree view' }).boundingBox())!;
    expect(toolbar.x).toBeGreaterThanOrEqual(0);
    expect(toolbar.x + toolbar.width).toBeLessThanOrEqual(PHONE.width);
    const toggle = phone.getByRole('button', { name: 'Pan buttons' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await phone.getByRole('button', { name: 'Pan up' }).isVisible()).toBe(false);
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    for (const name of ['Pan left', 'Pan up', 'Pan down', 'Pan right']) {
      const button = (await phone.getByRole('button', { name, exact: true }).boundingBox())!;
      expect(button.x).toBeGreaterThanOrEqual(0);
      expect(button.x + button.width).toBeLessThanOrEqual(PHONE.width);
      expect(button.y).toBeGreaterThanOrEqual(toolbar.y + toolbar.height);
      expect(Math.min(button.width, button.height)).toBeGreaterThanOrEqual(24);
    }
    await phone.getByRole('button', { name: 'Pan up', exact: true }).click();
    const s = await treePage.settled(phone);
    expect(s.y).toBeLessThan(start.y);
    expect(s.x).toBe(start.x);
    expect(await axeViolations(phone)).toEqual([]);
    // Escape puts them away, the keyboard back on their button.
    await phone.getByRole('button', { name: 'Pan down', exact: true }).focus();
    await phone.keyboard.press('Escape');
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await phone.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Pan buttons');
    expect(phoneErrors).toEqual([]);
    await context.close();
  });

  it('the panel still fits a 320-pixel screen with every button, find-my-squares included', async () => {
    const { db, clock } = treePage.gallery.app.deps;
    const tree = (await getDefaultTree(db))!;
    const held = db
      .select({ userId: reservations.userId })
      .from(reservations)
      .innerJoin(cells, eq(cells.id, reservations.cellId))
      .where(and(eq(reservations.state, 'active'), eq(cells.treeId, tree.id)))
      .get()!;
    // A context of its own: a phone's touch screen is an option of a context.
    const context = await treePage.browser.newContext({
      viewport: { width: 320, height: 640 },
      hasTouch: true,
      isMobile: true,
    });
    await context.addCookies([
      { name: SESSION_COOKIE, value: (await createSession(db, clock, held.userId)).token, url: treePage.gallery.url },
    ]);
    const narrow = await context.newPage();
    await treePage.openTree('', narrow);
    await narrow.getByRole('button', { name: 'Find my squares' }).waitFor();
    const toolbar = narrow.getByRole('toolbar', { name: 'Tree view' });
    for (const button of await toolbar.getByRole('button').all()) {
      if (!(await button.isVisible())) continue;
      const box = (await button.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(320);
      expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(24);
    }
    await context.close();
  });
});

describe('a visible focus', () => {
  /** Whether the focused element draws a ring: its outline, its box shadow, or (the search box's input) its form's. */
  const focusRing = (on: Page) =>
    on.evaluate(() => {
      const element = document.activeElement as HTMLElement;
      const drawn = (el: Element) => {
        const style = getComputedStyle(el);
        return (
          (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2) ||
          style.boxShadow.includes('inset') ||
          /\b2px\b/.test(style.boxShadow)
        );
      };
      const form = element.closest('.tree-search');
      return {
        name: element.getAttribute('aria-label') ?? element.textContent?.trim().slice(0, 40) ?? element.tagName,
        ring: drawn(element) || (element.tagName === 'INPUT' && form !== null && drawn(form)),
      };
    });

  it('every control of the tree page shows where the keyboard is, the small search box included', async () => {
    await treePage.openTree();
    await treePage.settled();
    // The survey lists the view's pieces once the camera rests, a moment after the tree settles: on a busy machine
    // the tabbing below once ended before its links were there.
    await treePage.page.getByTestId('tree-survey-pieces').getByRole('link').first().waitFor({ state: 'attached' });
    await treePage.tabToCanvas();
    const seen: { name: string; ring: boolean }[] = [await focusRing(treePage.page)];
    for (let i = 0; i < 40; i++) {
      await treePage.page.keyboard.press('Tab');
      const inTree = await treePage.page.evaluate(
        () => document.activeElement?.closest('.tree-area') !== null && document.activeElement !== document.body,
      );
      if (!inTree) break;
      seen.push(await focusRing(treePage.page));
    }
    // The canvas, the panel's buttons, the replay's, and the survey's button and links.
    expect(seen.length).toBeGreaterThan(12);
    expect(seen.map((s) => s.name)).toEqual(
      expect.arrayContaining(['Zoom in', 'Pan left', 'Search', 'Help', 'What is here?']),
    );
    expect(seen.filter((s) => !s.ring)).toEqual([]);

    await treePage.page.getByRole('button', { name: 'Search', exact: true }).focus();
    await treePage.page.keyboard.press('Enter');
    await treePage.page.locator('.tree-search input').waitFor();
    expect(await treePage.page.evaluate(() => document.activeElement?.tagName)).toBe('INPUT');
    expect(await focusRing(treePage.page)).toMatchObject({ ring: true });
    await treePage.page.keyboard.press('Tab');
    expect(await focusRing(treePage.page)).toEqual({ name: 'Cancel search', ring: true });
  });
});
