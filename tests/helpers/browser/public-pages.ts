/**
 * The shared set-up of the public pages' browser tests: `const site = usePublicPages()` at a test file's top starts one
 * gallery (with a contact phone) and one Chromium for the file (beforeAll/afterAll, through fileFixture), answered as
 * `site.gallery` and `site.browser`. `site.openPage()` takes the file's one reused page for a new visitor (a new page
 * to the app: no cookies, no storage) and `site.openFirstVisit()` opens a page in a new context (nothing cached);
 * each is kept in `site.pages` with its errors. `site.tab` is the reused page itself, for a test that keeps its
 * errors to itself.
 */
import type { Page } from 'playwright-core';
import { fileFixture } from '../file-fixture.ts';
import { launchBrowser, postFromPage, releaseBrowser, startGallery } from './harness.ts';
import { openPage, reusablePage, WIDE, type OpenedPage } from './pages.ts';
import { E2E_ADMIN } from '../paths.ts';

/** A phone number set by the operator (CONTACT_PHONE): shown on the contact page and in the footer. */
export const PHONE = '+1 (555) 010-0199';

export function usePublicPages() {
  const state = fileFixture(
    async () => {
      const [gallery, browser] = await Promise.all([startGallery({ contactPhone: PHONE }), launchBrowser('cpu')]);
      return { gallery, browser, pages: [] as OpenedPage[] };
    },
    async ({ gallery, browser }) => {
      await releaseBrowser(browser);
      await gallery.stop();
    },
  );
  const tab = reusablePage(() => state().browser);
  return {
    tab,
    get gallery() {
      return state().gallery;
    },
    get browser() {
      return state().browser;
    },
    /** Every page opened so far, with the errors it logged. */
    get pages() {
      return state().pages;
    },
    /** The reused page, for a new visitor: the last test's visitor is gone. */
    async openPage(viewport = WIDE): Promise<Page> {
      const opened = await tab.take({ viewport });
      state().pages.push(opened);
      return opened.page;
    },
    /** A page in a new context: a first visit, nothing in the browser's cache. */
    async openFirstVisit(viewport = WIDE): Promise<Page> {
      const opened = await openPage(state().browser, { viewport });
      state().pages.push(opened);
      return opened.page;
    },
    async visit(page: Page, path: string): Promise<void> {
      await page.goto(`${state().gallery.url}${path}`);
      await page.waitForSelector('.site-header');
      await page.waitForFunction(() => !document.querySelector('.shell__loading'));
    },
  };
}

/** The menu items the header offers, in order, after opening the menu. */
export async function headerItems(page: Page): Promise<string[]> {
  if ((await page.getAttribute('.menu-toggle', 'aria-expanded')) !== 'true') await page.click('.menu-toggle');
  await page.waitForSelector('[data-testid="menu-panel"]', { state: 'visible' });
  return page.$$eval('[data-testid="menu-panel"] nav [data-menu-item]', (links) =>
    links.map((link) => link.getAttribute('data-menu-item')!),
  );
}

export function logInAsAdmin(page: Page): Promise<number> {
  return postFromPage(page, '/api/auth/login', { username: E2E_ADMIN.email, password: E2E_ADMIN.password });
}
