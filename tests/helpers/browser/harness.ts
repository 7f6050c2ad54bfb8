/**
 * Browser tests' fixtures: a real server on a free loopback port over a copy of the seeded template, and Debian's
 * Chromium driven by playwright-core with software WebGL (PixiJS needs WebGL 2).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { buildApp, type App } from '#server/app.ts';
import { testConfig, type AppConfig } from '#server/config.ts';
import { E2E_CLIENT_DIR } from '../paths.ts';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
  '--ignore-gpu-blocklist',
];

/**
 * The browser tests composite pages on the CPU: with GPU compositing, every frame of every page (a caret blinking, a
 * popup fading) went through SwiftShader's emulated GL, a large share of Chromium's time. WebGL still draws
 * through SwiftShader, and the canvas is read back into the page's frame. Chromium's core-seconds on the same files:
 * public pages 21.8 → 13.3, a tree file and an account file 42.1 → 32.1, five tree, admin and profile files 110.6 →
 * 96.5 (a tree drawn all the time gains least). The benchmarks keep GPU compositing, as a visitor's browser has it.
 */
const TEST_ONLY_ARGS = ['--disable-gpu-compositing'];

export interface Gallery {
  url: string;
  app: App;
  dir: string;
  stop: () => Promise<void>;
}

/** A server over a fresh copy of the seeded demo gallery. */
export async function startGallery(overrides: Partial<AppConfig> = {}): Promise<Gallery> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gallery-e2e-'));
  fs.cpSync(inject('templateDir'), dir, { recursive: true });
  const app = await buildApp(testConfig(dir, { port: 0, host: '127.0.0.1', clientDir: E2E_CLIENT_DIR, ...overrides }));
  const url = await app.start();
  return {
    url,
    app,
    dir,
    async stop() {
      await app.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The run's Chromium, once launched (see launchBrowser). */
let running: Promise<Browser> | null = null;

/**
 * The run's Chromium: the browser files run one after another in one worker (no file parallelism, no isolation),
 * so they share one browser instead of launching their own, which cost about a core-second of Chromium each time.
 * Each file takes it here and gives it back with releaseBrowser, which closes the contexts (and pages) it opened;
 * a browser that went away is launched again. It ends with the worker's process.
 */
export async function launchBrowser(): Promise<Browser> {
  const browser = await running?.catch(() => null);
  if (browser?.isConnected()) return browser;
  running = chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...TEST_ONLY_ARGS] });
  return running;
}

/** What a file gives back of the run's Chromium: every context it opened is closed, the browser is left running. */
export async function releaseBrowser(browser: Browser | undefined): Promise<void> {
  await Promise.all((browser?.contexts() ?? []).map((context) => context.close().catch(() => null)));
}

/** The browser's own console line for an answer with this HTTP status (a refusal a test provokes on purpose). */
export const failedLoad = (status: number) =>
  new RegExp(`^Failed to load resource: the server responded with a status of ${status}\\b`);

/** Collects console errors and page errors (CSP violations included) so a test can assert there were none. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  reportErrors(page, (text) => errors.push(text));
  return errors;
}

/** Hands every console error and page error (CSP violations included) of the page to `report`, as they come. */
export function reportErrors(page: Page, report: (text: string) => void): void {
  page.on('console', (message) => {
    if (message.type() === 'error') report(message.text());
  });
  page.on('pageerror', (error) => report(error.message));
  // A worker's own refusals (a Content Security Policy violation inside it, say) reach only the browser's log.
  // Log.enable replays what was logged before it, so nothing is lost while the session starts.
  void page
    .context()
    .newCDPSession(page)
    .then(async (cdp) => {
      cdp.on('Log.entryAdded', ({ entry }) => {
        if (entry.level === 'error' && entry.source === 'worker') report(`worker: ${entry.text}`);
      });
      await cdp.send('Log.enable');
    })
    .catch(() => report('The browser log could not be watched.'));
}

/**
 * POSTs JSON from inside the page as the app's own client would (the CSRF token from the page's meta tag and
 * X-Requested-With), for steps a test needs but does not test, such as signing a user up. Answers the HTTP status.
 */
export function postFromPage(page: Page, path: string, body: unknown): Promise<number> {
  return page.evaluate(
    async ({ path, body }) => {
      const token = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')!.content;
      const response = await fetch(path, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': token, 'X-Requested-With': 'XMLHttpRequest' },
        body: JSON.stringify(body),
      });
      return response.status;
    },
    { path, body },
  );
}
