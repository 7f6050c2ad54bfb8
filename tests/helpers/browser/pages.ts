/**
 * Pages for browser tests, one way each: a page in a fresh browser context with its errors watched (openPage), and
 * screenshots saved only when a test's *_SHOTS folder is set (screenshotsTo).
 */
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { watchErrors } from './harness.ts';

export const WIDE = { width: 1280, height: 800 };

export interface OpenedPage {
  context: BrowserContext;
  page: Page;
  /** Console errors and page errors (CSP violations included), for a test to assert there were none. */
  errors: string[];
}

/** A page in a context of its own (its own cookies), `WIDE` unless told otherwise, its errors watched. */
export async function openPage(browser: Browser, options: BrowserContextOptions = {}): Promise<OpenedPage> {
  const context = await browser.newContext({ viewport: WIDE, ...options });
  const page = await context.newPage();
  return { context, page, errors: watchErrors(page) };
}

export interface ShotOptions {
  /** The whole page (default), or the viewport only. */
  fullPage?: boolean;
  /** Waits this long first, for transitions to end. */
  pauseMs?: number;
  /** Saves a second one at a 360 × 740 phone's size (`<name>-360.png`), the page's size restored after. */
  alsoOnPhone?: boolean;
}

/**
 * A screenshot saver for a test's folder (`folder` from its *_SHOTS variable): `shot(page, name)` writes
 * `<folder>/<name>.png`, and does nothing at all without a folder.
 */
export function screenshotsTo(folder: string | undefined | null, options: ShotOptions = {}) {
  const { fullPage = true, pauseMs = 0, alsoOnPhone = false } = options;
  return async (page: Page, name: string): Promise<void> => {
    if (!folder) return;
    if (pauseMs > 0) await page.waitForTimeout(pauseMs);
    await page.screenshot({ path: `${folder}/${name}.png`, fullPage });
    if (!alsoOnPhone) return;
    const size = page.viewportSize()!;
    await page.setViewportSize({ width: 360, height: 740 });
    await page.screenshot({ path: `${folder}/${name}-360.png`, fullPage });
    await page.setViewportSize(size);
  };
}
