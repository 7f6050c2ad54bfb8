/**
 * The JavaScript /observe loads before the engine's first frame stays within its budget (decision 043): read in a
 * fresh browser from the page that drew the frame, the scripts of the build it had asked for by then, gzipped at level
 * 9. PixiJS's other renderers and its default extensions stay out of it, and the rest of the app comes after it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import {
  chunkName,
  describeScripts,
  FIRST_FRAME_SCRIPTS_BUDGET,
  scriptsBeforeFirstFrame,
  type FirstFrameScript,
} from '../helpers/browser/first-frame-scripts.ts';
import { launchBrowser, releaseBrowser, startGallery, type Gallery } from '../helpers/browser/harness.ts';
import { openPage, type OpenedPage } from '../helpers/browser/pages.ts';
import { openTree } from '../helpers/browser/tree-page.ts';
import { E2E_CLIENT_DIR } from '../helpers/paths.ts';

let gallery: Gallery;
let browser: Browser;
let opened: OpenedPage;
let scripts: FirstFrameScript[];

beforeAll(async () => {
  [gallery, browser] = await Promise.all([startGallery(), launchBrowser()]);
  // A context of its own: nothing cached, as on a first visit.
  opened = await openPage(browser);
  // Every pixel read from a 2D canvas, by the canvas's size: a read waits for the GPU process, busy starting up.
  await opened.page.addInitScript(() => {
    const reads: string[] = (window.__pixelReads = []);
    const read = CanvasRenderingContext2D.prototype.getImageData;
    CanvasRenderingContext2D.prototype.getImageData = function (...args: Parameters<typeof read>) {
      reads.push(`${this.canvas.width}x${this.canvas.height}`);
      return read.apply(this, args);
    };
  });
  await openTree(opened.page, gallery);
  scripts = await scriptsBeforeFirstFrame(opened.page, E2E_CLIENT_DIR);
});

afterAll(async () => {
  await releaseBrowser(browser);
  await gallery?.stop();
});

declare global {
  interface Window {
    __pixelReads?: string[];
  }
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

describe('the JavaScript before the tree’s first frame', () => {
  it('stays within its budget', () => {
    const total = scripts.reduce((sum, script) => sum + script.gzipBytes, 0);
    expect(
      total,
      `/observe loaded ${kB(total)} of JavaScript (gzip -9) before its first frame, over the budget of ` +
        `${kB(FIRST_FRAME_SCRIPTS_BUDGET)} (FIRST_FRAME_SCRIPTS_BUDGET, tests/helpers/browser/first-frame-scripts.ts; ` +
        `decision 043). Move what the first frame does not need behind a dynamic import, or raise the budget there ` +
        `and say why in the decision. The chunks:\n${describeScripts(scripts)}\n`,
    ).toBeLessThanOrEqual(FIRST_FRAME_SCRIPTS_BUDGET);
  });

  it('holds only the WebGL renderer of PixiJS and none of the extensions the tree does not use', () => {
    const names = scripts.map((script) => chunkName(script.file));
    for (const unwanted of ['WebGPURenderer.js', 'CanvasRenderer.js', 'browserAll.js'])
      expect(names, `${unwanted} loaded before the first frame:\n${describeScripts(scripts)}`).not.toContain(unwanted);
  });

  it('runs no 2D canvas pixel read as PixiJS loads (its blend-mode probe waits until a 2D renderer asks)', async () => {
    // The probe draws on canvases 6 × 1 pixels and reads one back (vite.config.ts, pixiPieceByPiece).
    expect(await opened.page.evaluate(() => window.__pixelReads)).not.toContain('6x1');
  });

  it('holds none of the other pages, which come in the background after it', async () => {
    const names = scripts.map((script) => chunkName(script.file));
    for (const later of ['learn-page.js', 'edit-art-page.js', 'edit-profile-page.js', 'tree-popups.js'])
      expect(names, `${later} loaded before the first frame:\n${describeScripts(scripts)}`).not.toContain(later);
    // After the first frame, they are asked for without the visitor doing anything.
    await opened.page.waitForFunction(
      () =>
        performance
          .getEntriesByType('resource')
          .some((entry) => /\/assets\/learn-page-[^/]+\.js$/.test(new URL(entry.name).pathname)),
      undefined,
      { timeout: 30_000 },
    );
    expect(opened.errors).toEqual([]);
  });
});
