/**
 * The shared set-up of the tree page's feature tests: `const tree = useTreeFeatures()` at a test file's top starts one
 * gallery, one Chromium and one page on the tree, recording the tRPC calls it makes, for the file
 * (beforeAll/afterAll, through fileFixture), answered as `tree.gallery`, `tree.browser`, `tree.page`, `tree.errors`
 * and `tree.calls`, with `tree.tab`, a second page tests take in turn, and the helpers that read the camera and find
 * squares (on the file's page unless given another).
 */
import type { Page } from 'playwright-core';
import { CELL_PITCH } from '#shared/tree/camera.ts';
import { fileFixture } from '../file-fixture.ts';
import { launchBrowser, releaseBrowser, startGallery, watchErrors } from './harness.ts';
import { reusablePage, WIDE } from './pages.ts';
import { canvasBox, cellsWith, openTree, pointOf, settled, stats } from './tree-page.ts';

export const PITCH = CELL_PITCH;

export function useTreeFeatures() {
  const state = fileFixture(
    async () => {
      const [gallery, browser] = await Promise.all([startGallery(), launchBrowser()]);
      const page = await browser.newPage({ viewport: WIDE });
      const errors = watchErrors(page);
      /** tRPC procedures the page called, in order (e.g. 'cell.search'). */
      const calls: string[] = [];
      page.on('request', (request) => {
        const match = /\/trpc\/([^?]+)/.exec(request.url());
        if (match) calls.push(...match[1]!.split(','));
      });
      await openTree(page, gallery);
      return { gallery, browser, page, errors, calls };
    },
    async ({ gallery, browser }) => {
      await releaseBrowser(browser);
      await gallery.stop();
    },
  );
  const page = () => state().page;
  const tab = reusablePage(() => state().browser, { locale: 'en-US' });
  return {
    /**
     * A second page, in a context of its own, for another visitor or another gallery: taken anew by each test that
     * needs one (no cookies, no storage of the last), instead of a new context each time.
     */
    tab,
    get gallery() {
      return state().gallery;
    },
    get browser() {
      return state().browser;
    },
    get page() {
      return page();
    },
    get errors() {
      return state().errors;
    },
    /** tRPC procedures the page called, in order (e.g. 'cell.search'). */
    get calls() {
      return state().calls;
    },
    stats: (on: Page = page()) => stats(on),
    openTree: (search = '', on: Page = page()) => openTree(on, state().gallery, search),
    canvasBox: (on: Page = page()) => canvasBox(on),
    settled: (on: Page = page()) => settled(on),
    /** Waits for the address to reach `pathname` and the tree to be gone (the router renders the next page in a transition). */
    async leftTreeFor(pathname: string, on: Page = page()): Promise<void> {
      await on.waitForURL((url) => url.pathname === pathname);
      await on.locator('.tree-canvas').waitFor({ state: 'detached' });
    },
    /** The grid position at the middle of the canvas. */
    async centreCell(on: Page = page()): Promise<{ row: number; column: number; x: number; y: number }> {
      const s = await stats(on);
      const box = await canvasBox(on);
      const x = s.x + box.width / 2 / s.scale;
      const y = s.y + box.height / 2 / s.scale;
      return { row: Math.floor(y / PITCH), column: Math.floor(x / PITCH), x, y };
    },
    /** Where a cell's middle is on the page, for a click. */
    pointOfCell: (row: number, column: number) => pointOf(page(), { row, column }),
    cellsWith: (status: number) => cellsWith(state().gallery, status),
  };
}
