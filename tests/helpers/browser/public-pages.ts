/**
 * The shared set-up of the public pages' browser tests: `usePublicPages()` starts one gallery (with a contact phone) and
 * one Chromium for the file (beforeAll/afterAll), answered as live bindings; every page opened is kept with its errors.
 */
import { afterAll, beforeAll } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, postFromPage, startGallery, watchErrors, type Gallery } from './harness.ts';
import { E2E_ADMIN } from '../paths.ts';

/** A phone number set by the operator (CONTACT_PHONE): shown on the contact page and in the footer. */
export const PHONE = '+1 (555) 010-0199';

// Set by usePublicPages's beforeAll; importers read the live bindings.
export let gallery: Gallery;
export let browser: Browser;
export const pages: { page: Page; errors: string[] }[] = [];

/** Registers the shared set-up (beforeAll/afterAll) in the calling test file; call it once, at the file's top. */
export function usePublicPages(): void {
  beforeAll(async () => {
    [gallery, browser] = await Promise.all([startGallery({ contactPhone: PHONE }), launchBrowser()]);
  });

  afterAll(async () => {
    await browser?.close();
    await gallery?.stop();
  });
}

export async function openPage(viewport = { width: 1280, height: 800 }): Promise<Page> {
  const page = await browser.newPage({ viewport });
  pages.push({ page, errors: watchErrors(page) });
  return page;
}

export async function visit(page: Page, path: string): Promise<void> {
  await page.goto(`${gallery.url}${path}`);
  await page.waitForSelector('.site-header');
  await page.waitForFunction(() => !document.querySelector('.shell__loading'));
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
