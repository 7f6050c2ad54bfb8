/**
 * Pages for browser tests, one way each: a page in a fresh browser context with its errors watched (openPage), one
 * page that the tests of a file take in turn, reset between them (reusablePage), and screenshots saved only when a
 * test's *_SHOTS folder is set (screenshotsTo).
 */
import type { Browser, BrowserContext, BrowserContextOptions, Page, ViewportSize } from 'playwright-core';
import { onTestFinished, TestRunner } from 'vitest';
import { reportErrors, watchErrors } from './harness.ts';

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

/**
 * A same-origin file a reused page rests on between tests: it ends the last test's page (its timers, requests and
 * event stream) without a new renderer process. about:blank, or any other origin, would cost two: the app's
 * Cross-Origin-Opener-Policy puts a page that comes from another origin, or goes to one, in a process of its own.
 */
const RESTING_PATH = '/favicon.svg';

/** What a test adds to a page or context by listening (`page.on('dialog', …)`), to be taken away after it. */
interface Listened {
  eventNames: () => (string | symbol)[];
  rawListeners: (event: string | symbol) => unknown[];
  removeListener: (event: string | symbol, listener: (...args: unknown[]) => void) => unknown;
}

function listenersOf(target: Listened): Set<unknown> {
  return new Set(target.eventNames().flatMap((event) => target.rawListeners(event)));
}

function removeListenersSince(target: Listened, kept: Set<unknown>): void {
  for (const event of target.eventNames()) {
    for (const listener of target.rawListeners(event)) {
      if (!kept.has(listener)) target.removeListener(event, listener as (...args: unknown[]) => void);
    }
  }
}

export interface ReusablePage {
  /**
   * The page for the next test, as a page in a new context would be to the app: resting on a same-origin file, no
   * cookies, the origin's localStorage and sessionStorage empty, no permissions granted, no routes, no other pages
   * of the context, no listener a test added (dialog handlers included), the pointer off the page, at `viewport`
   * (the context's own unless told), with a new list of errors. What stays: the HTTP cache, and init scripts, which a
   * test that adds one removes itself (the Disposable addInitScript answers). Taken by a test (not a beforeAll), the
   * page is reset again as the test ends, so that it does not go on running (a tree drawing live changes, say) while
   * later tests run.
   */
  take: (options?: { viewport?: ViewportSize }) => Promise<OpenedPage>;
}

/**
 * One context and page that tests take in turn. A new page costs Chromium a renderer process and its pipeline,
 * about two core-seconds once the app is drawn; a navigation of a page already open, a third of that. Tests that are
 * about isolation itself (two people at once, a first visit with empty caches, a context option such as a phone's
 * touch screen) open their own with openPage.
 */
export function reusablePage(browser: () => Browser, options: BrowserContextOptions = {}): ReusablePage {
  const viewport = options.viewport ?? WIDE;
  let kept: { context: BrowserContext; page: Page; own: { page: Set<unknown>; context: Set<unknown> } } | null = null;
  let errors: string[] = [];
  /** Reset since it was last taken. */
  let clean = false;

  async function rest(): Promise<void> {
    if (clean || !kept || kept.page.isClosed()) return;
    await reset(kept);
    clean = true;
  }

  async function open(): Promise<NonNullable<typeof kept>> {
    // A test closed the page (or its context) itself: a new context, as a first one.
    await kept?.context.close().catch(() => null);
    const context = await browser().newContext({ ...options, viewport });
    const page = await context.newPage();
    reportErrors(page, (text) => errors.push(text));
    const own = {
      page: listenersOf(page as unknown as Listened),
      context: listenersOf(context as unknown as Listened),
    };
    return { context, page, own };
  }

  async function reset({ context, page, own }: NonNullable<typeof kept>): Promise<void> {
    removeListenersSince(page as unknown as Listened, own.page);
    removeListenersSince(context as unknown as Listened, own.context);
    await Promise.all(
      context
        .pages()
        .filter((other) => other !== page)
        .map((other) => other.close()),
    );
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await context.unrouteAll({ behavior: 'ignoreErrors' });
    const at = new URL(page.url());
    if (at.protocol === 'http:' || at.protocol === 'https:') {
      const resting = await page.goto(new URL(RESTING_PATH, at).href).then(
        (answer) => answer?.ok() ?? false,
        () => false,
      );
      if (resting) {
        await page.evaluate(() => {
          localStorage.clear();
          sessionStorage.clear();
        });
      } else {
        // The last test's server is gone (or has no such file): a blank page, whatever it costs.
        await page.goto('about:blank');
      }
    }
    await context.clearCookies();
    await context.clearPermissions();
    await page.mouse.move(-1, -1);
  }

  return {
    async take({ viewport: size = viewport } = {}) {
      if (kept && !kept.page.isClosed()) await rest();
      else kept = await open();
      clean = false;
      if (TestRunner.getCurrentTest()) onTestFinished(rest);
      errors = [];
      const { context, page } = kept;
      const now = page.viewportSize();
      if (now?.width !== size.width || now.height !== size.height) await page.setViewportSize(size);
      return { context, page, errors };
    },
  };
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
