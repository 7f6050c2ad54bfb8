/**
 * The tree on a phone ("pinch and one-finger drag on touch screens"): a touch-only, phone-sized page in
 * Chromium, driven with real touch events through the DevTools protocol, which the browser turns into pointer
 * events exactly as it does for a finger. The page must not scroll or zoom itself: the canvas takes the gestures.
 */
import { and, eq } from 'drizzle-orm';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cells } from '#drizzle/schema.ts';
import { TREE_VIEW } from '#shared/constants.ts';
import { CellStatus } from '#shared/domain.ts';
import { getDefaultTree } from '#server/services/tree/tree.ts';
import { CELL_PITCH as PITCH } from '#shared/tree/camera.ts';
import { launchBrowser, releaseBrowser, startGallery, type Gallery, watchErrors } from '../helpers/browser/harness.ts';
import { openTree, stats } from '../helpers/browser/tree-page.ts';

const PHONE = { width: 390, height: 844 };

let gallery: Gallery;
let browser: Browser;
let page: Page;
let touch: CDPSession;
let errors: string[];

type Finger = { x: number; y: number };

/** Fingers down at `from`, moved in `steps` even steps to `to` (one finger or two, paired by index), then lifted. */
async function gesture(from: Finger[], to: Finger[], steps = 12): Promise<void> {
  const points = (t: number) =>
    from.map((f, id) => ({ id, x: f.x + (to[id]!.x - f.x) * t, y: f.y + (to[id]!.y - f.y) * t }));
  await touch.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: points(0) });
  for (let step = 1; step <= steps; step++) {
    await touch.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: points(step / steps) });
  }
  await touch.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}

async function canvasCentre(): Promise<Finger & { box: { x: number; y: number; width: number; height: number } }> {
  const box = (await page.locator('canvas').first().boundingBox())!;
  return { x: box.x + box.width / 2, y: box.y + box.height / 2, box };
}

/** The page has not scrolled or zoomed itself. */
const pageStill = () => page.evaluate(() => ({ scrollX, scrollY, zoom: window.visualViewport?.scale ?? 1 }));

beforeAll(async () => {
  [gallery, browser] = await Promise.all([startGallery(), launchBrowser()]);
  const context = await browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
  page = await context.newPage();
  errors = watchErrors(page);
  touch = await context.newCDPSession(page);
  await openTree(page, gallery);
});

afterAll(async () => {
  await releaseBrowser(browser);
  await gallery?.stop();
});

describe('the tree on a touch screen', () => {
  it('fits the phone: the canvas fills the width and nothing scrolls sideways', async () => {
    const { box } = await canvasCentre();
    expect(box.width).toBe(PHONE.width);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await expect(page.getByRole('button', { name: /zoom in/i }).isVisible()).resolves.toBe(true);
  });

  it('pans with one finger, without scrolling the page', async () => {
    const before = await stats(page);
    const centre = await canvasCentre();
    await gesture([centre], [{ x: centre.x - 120, y: centre.y - 180 }]);
    await page.waitForFunction((y) => window.__treeStats!.y !== y, before.y);
    const after = await stats(page);
    // x and y are the world point at the canvas's top-left: a finger moving left and up shows what lies right and below.
    expect((after.x - before.x) * after.scale).toBeCloseTo(120, -1);
    expect((after.y - before.y) * after.scale).toBeCloseTo(180, -1);
    expect(after.scale).toBe(before.scale);
    expect(await pageStill()).toEqual({ scrollX: 0, scrollY: 0, zoom: 1 });
  });

  it('zooms with two fingers about the point between them, and never past the largest zoom', async () => {
    const before = await stats(page);
    const { x, y, box } = await canvasCentre();
    // The world point under the fingers' midpoint before the pinch.
    const worldX = before.x + (x - box.x) / before.scale;
    const worldY = before.y + (y - box.y) / before.scale;
    await gesture(
      [
        { x: x - 40, y },
        { x: x + 40, y },
      ],
      [
        { x: x - 70, y },
        { x: x + 70, y },
      ],
    );
    await page.waitForFunction((scale) => window.__treeStats!.scale !== scale, before.scale);
    const pinched = await stats(page);
    expect(pinched.scale / before.scale).toBeCloseTo(140 / 80, 1);
    // The same world point is still under the midpoint (within a couple of screen pixels).
    expect(Math.abs((worldX - pinched.x) * pinched.scale - (x - box.x))).toBeLessThan(3);
    expect(Math.abs((worldY - pinched.y) * pinched.scale - (y - box.y))).toBeLessThan(3);

    // Spreading far wider stops at the zoom range's end, and pinching in brings it back down.
    await gesture(
      [
        { x: x - 20, y },
        { x: x + 20, y },
      ],
      [
        { x: x - 180, y },
        { x: x + 180, y },
      ],
    );
    await page.waitForFunction((max) => window.__treeStats!.scale === max, TREE_VIEW.zoomMax);
    expect((await stats(page)).scale).toBe(TREE_VIEW.zoomMax);
    await gesture(
      [
        { x: x - 150, y },
        { x: x + 150, y },
      ],
      [
        { x: x - 50, y },
        { x: x + 50, y },
      ],
    );
    await page.waitForFunction((max) => window.__treeStats!.scale < max, TREE_VIEW.zoomMax);
    expect((await stats(page)).scale).toBeLessThan(TREE_VIEW.zoomMax);
    expect(await pageStill()).toEqual({ scrollX: 0, scrollY: 0, zoom: 1 });
  });

  it('opens a published piece with a tap', async () => {
    const { db } = gallery.app.deps;
    const tree = (await getDefaultTree(db))!;
    const published = db
      .select({ token: cells.token, row: cells.row, column: cells.column })
      .from(cells)
      .where(and(eq(cells.treeId, tree.id), eq(cells.status, CellStatus.Published)))
      .all();
    const { box } = await canvasCentre();
    const view = await stats(page);
    // A piece whose middle is on screen, away from the edges and the top panel.
    const onScreen = published
      .map((cell) => ({
        ...cell,
        x: box.x + (cell.column * PITCH + TREE_VIEW.cellSize / 2 - view.x) * view.scale,
        y: box.y + (cell.row * PITCH + TREE_VIEW.cellSize / 2 - view.y) * view.scale,
      }))
      .find(
        (p) => p.x > box.x + 30 && p.x < box.x + box.width - 30 && p.y > box.y + 90 && p.y < box.y + box.height - 30,
      );
    expect(onScreen, 'a published piece in view').toBeDefined();
    await gesture([onScreen!], [onScreen!], 0);
    await page.waitForURL((url) => url.pathname === `/observe/cell/${onScreen!.token}/details`, { timeout: 15_000 });
  });

  it('runs without console errors', () => {
    expect(errors).toEqual([]);
  });
});
