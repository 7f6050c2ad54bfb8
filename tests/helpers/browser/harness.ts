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
 * How a test's Chromium composites its pages: through SwiftShader's emulated GL as a visitor's browser does ('gpu'),
 * or on the CPU ('cpu', `--disable-gpu-compositing`; WebGL still draws through SwiftShader and the canvas is read
 * back into the page's frame). On the CPU, pages without the tree take less of Chromium's time (public pages 21.8 →
 * 13.3 core-seconds, the files that use it 2-6 s shorter each in CI) but a page that draws the tree takes longer,
 * waiting for every frame's read-back (the tree files 1-25 s longer each in CI): those keep 'gpu'. The benchmarks
 * launch their own, with GPU compositing.
 */
export type Compositing = 'gpu' | 'cpu';

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

/** The run's Chromiums, once launched (see launchBrowser). */
const running = new Map<Compositing, Promise<Browser>>();

/**
 * The run's Chromium: the browser files run one after another in one worker (no file parallelism, no isolation),
 * so they share one browser (one for each way of compositing) instead of launching their own, which cost about a
 * core-second of Chromium each time. Each file takes it here and gives it back with releaseBrowser, which closes the
 * contexts (and pages) it opened; a browser that went away is launched again. It ends with the worker's process.
 */
export async function launchBrowser(compositing: Compositing = 'gpu'): Promise<Browser> {
  const browser = await running.get(compositing)?.catch(() => null);
  if (browser?.isConnected()) return browser;
  const args = compositing === 'cpu' ? [...CHROMIUM_ARGS, '--disable-gpu-compositing'] : CHROMIUM_ARGS;
  const launched = chromium.launch({ executablePath: CHROMIUM_PATH, args });
  running.set(compositing, launched);
  return launched;
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
