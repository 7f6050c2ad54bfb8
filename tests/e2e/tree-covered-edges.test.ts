/**
 * The page's controls drawn over the tree's canvas, in a real browser: the toolbar along the top and the growth
 * replay's button or bar along the bottom. Walking the keyboard's focus to the tree's top and bottom edges, on a wide
 * screen and on a phone, the focused square is always revealed clear of them, never under them.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CELL_PITCH, CELL_SIZE } from '#shared/tree/camera.ts';
import { decodeHistory, type TreeHistoryWire } from '#shared/tree/history.ts';
import { replayDayOf } from '#shared/tree/tree-url.ts';
import { getDefaultTree } from '#server/services/tree/tree.ts';
import '#client/tree/engine/stats.ts';
import { watchErrors } from '../helpers/browser/harness.ts';
import { PHONE, useTreeAccess } from '#tests/helpers/browser/tree-access.ts';

const treePage = useTreeAccess();

type Box = { x: number; y: number; width: number; height: number };

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

const sideBySide = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width;

/** The focused square's rectangle on the page, from the engine's own camera (window.__treeStats). */
async function focusedSquare(on: Page): Promise<Box> {
  const s = await treePage.stats(on);
  const canvas = (await on.locator('.tree-canvas').boundingBox())!;
  return {
    x: canvas.x + (s.focusColumn! * CELL_PITCH - s.x) * s.scale,
    y: canvas.y + (s.focusRow! * CELL_PITCH - s.y) * s.scale,
    width: CELL_SIZE * s.scale,
    height: CELL_SIZE * s.scale,
  };
}

const toolbarBox = async (on: Page) => (await on.getByRole('toolbar', { name: 'Tree view' }).boundingBox())!;
const replayButtonBox = async (on: Page) => (await on.getByRole('button', { name: 'Replay growth' }).boundingBox())!;
const replayBarBox = async (on: Page) => (await on.getByRole('group', { name: 'Growth replay' }).boundingBox())!;

/**
 * Presses `key` until the focus reaches the tree's edge (it stops moving), checking after every press that the
 * focused square lies on the canvas and clear of each of `covers`; answers the focused square at the edge.
 */
async function walkToEdge(on: Page, key: 'ArrowUp' | 'ArrowDown', covers: Box[]): Promise<Box> {
  const canvas = (await on.locator('.tree-canvas').boundingBox())!;
  let previous = await treePage.focusAt(on);
  for (let press = 0; press < 60; press++) {
    await on.keyboard.press(key);
    const square = await focusedSquare(on);
    const at = await treePage.focusAt(on);
    expect(overlaps(square, canvas), `row ${at.row} on the canvas`).toBe(true);
    for (const cover of covers)
      expect(overlaps(square, cover), `row ${at.row} under ${JSON.stringify(cover)}`).toBe(false);
    if (at.row === previous.row) return square;
    previous = at;
  }
  throw new Error(`The focus never reached the tree's edge with ${key}.`);
}

/** A day the growth history reaches that is not today: the replay shows it paused, with its bar at the bottom. */
async function pastDay(): Promise<string> {
  const token = (await getDefaultTree(treePage.gallery.app.deps.db))!.token;
  const answer = await treePage.gallery.app.server.inject({ url: `/api/tree/${token}/history` });
  const pieces = decodeHistory((answer.json() as { r: TreeHistoryWire }).r);
  const day = replayDayOf(pieces.at[Math.floor(pieces.count / 2)]!);
  expect(day).not.toBe(replayDayOf(Date.now()));
  return day;
}

describe('the keyboard focus at the edges of the view', () => {
  it('on a wide screen, stays clear of the toolbar at the top and of Replay growth', async () => {
    // The trunk's last column under the toolbar, at the smallest zoom (where a square's margin is smallest).
    await treePage.openTree('?row=30&col=-3&zoom=0.5');
    await treePage.tabToCanvas();
    await treePage.page.keyboard.press('End');
    const covers = [await toolbarBox(treePage.page), await replayButtonBox(treePage.page)];
    const top = await walkToEdge(treePage.page, 'ArrowUp', covers);
    expect((await treePage.focusAt()).row).toBe(0);
    // The square at the top was under the toolbar's width: only the reveal kept it from under it.
    expect(sideBySide(top, covers[0]!)).toBe(true);
    await walkToEdge(treePage.page, 'ArrowDown', covers);
  });

  it("on a wide screen, stays clear of the replay's bar at the bottom", async () => {
    await treePage.openTree(`?at=${await pastDay()}&row=38&col=10&zoom=0.5`);
    const bar = await replayBarBox(treePage.page);
    await treePage.tabToCanvas();
    // The trunk's first column lies over the bar's width.
    await treePage.page.keyboard.press('Home');
    const bottom = await walkToEdge(treePage.page, 'ArrowDown', [bar, await toolbarBox(treePage.page)]);
    expect(sideBySide(bottom, bar)).toBe(true);
    expect(treePage.errors).toEqual([]);
  });

  it("on a phone, stays clear of the replay's bar at the bottom and of the toolbar's strip at the top", async () => {
    const context = await treePage.browser.newContext({
      viewport: PHONE,
      deviceScaleFactor: 3,
      hasTouch: true,
      isMobile: true,
    });
    const phone = await context.newPage();
    const phoneErrors = watchErrors(phone);
    await treePage.openTree(`?at=${await pastDay()}&row=38&col=2&zoom=0.5`, phone);
    const covers = [await replayBarBox(phone), await toolbarBox(phone)];
    await treePage.tabToCanvas(phone);
    const bottom = await walkToEdge(phone, 'ArrowDown', covers);
    expect(sideBySide(bottom, covers[0]!)).toBe(true);
    await walkToEdge(phone, 'ArrowUp', covers);
    expect((await treePage.focusAt(phone)).row).toBe(0);
    expect(phoneErrors).toEqual([]);
    await context.close();
  });
});
