/**
 * The JavaScript the tree page loads before the engine's first frame, read in the page that drew it: every script
 * of the build (the entry, its static imports, the modules imported on the way, the snapshot worker) whose request
 * began before window.__treeStats.firstFrameAt, with its size as built and gzipped at level 9 (as `gzip -9` would).
 * The budget test (tests/e2e/tree-first-frame-budget.test.ts) and `npm run bench -- bundle` read it the same way.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Page } from 'playwright-core';
import '#client/tree/engine/stats.ts';

export interface FirstFrameScript {
  /** Its name under assets/ (hashed). */
  file: string;
  /** When its request began, ms after navigation. */
  startedMs: number;
  bytes: number;
  gzipBytes: number;
}

/** The same file without its content hash: main-DKCw3w53.js → main.js. */
export const chunkName = (file: string) => file.replace(/-[A-Za-z0-9_-]{8}\.js$/, '.js');

/** Gzipped size at level 9 of a file of the client build. */
export function gzipSize(clientDir: string, file: string): number {
  return zlib.gzipSync(fs.readFileSync(path.join(clientDir, 'assets', file)), { level: 9 }).length;
}

/**
 * The build's scripts the page had asked for when the engine drew its first frame (the page must have drawn it), in
 * the order asked, each once. `clientDir` is the build the page was served from.
 */
export async function scriptsBeforeFirstFrame(page: Page, clientDir: string): Promise<FirstFrameScript[]> {
  const requested = await page.evaluate(() => {
    const firstFrameAt = window.__treeStats?.firstFrameAt;
    if (firstFrameAt == null) throw new Error('The tree has not drawn its first frame.');
    return performance
      .getEntriesByType('resource')
      .filter((entry) => entry.startTime <= firstFrameAt)
      .map((entry) => ({ pathname: new URL(entry.name).pathname, startedMs: entry.startTime }));
  });
  const seen = new Set<string>();
  const scripts: FirstFrameScript[] = [];
  for (const { pathname, startedMs } of requested) {
    const match = /^\/assets\/([^/]+\.js)$/.exec(pathname);
    if (!match || seen.has(match[1]!)) continue;
    const file = match[1]!;
    seen.add(file);
    const bytes = fs.statSync(path.join(clientDir, 'assets', file)).size;
    scripts.push({ file, startedMs, bytes, gzipBytes: gzipSize(clientDir, file) });
  }
  return scripts;
}

/** One line per script, largest first, and the total: for a failure message or a benchmark's notes. */
export function describeScripts(scripts: readonly FirstFrameScript[]): string {
  const kb = (n: number) => (n / 1000).toFixed(1);
  const total = scripts.reduce((sum, s) => sum + s.gzipBytes, 0);
  return [
    ...[...scripts]
      .sort((a, b) => b.gzipBytes - a.gzipBytes)
      .map((s) => `  ${chunkName(s.file).padEnd(28)} ${kb(s.gzipBytes).padStart(7)} kB gzip (${kb(s.bytes)} kB)`),
    `  ${'total'.padEnd(28)} ${kb(total).padStart(7)} kB gzip`,
  ].join('\n');
}

/**
 * The budget, in gzipped bytes (decision 043): what the tree page reached with the app's own router (333.9 kB,
 * decision 051; 352.8 kB before it, 440.9 kB before PixiJS came piece by piece and the rest of the app after the first
 * frame) with 5 % of headroom.
 */
export const FIRST_FRAME_SCRIPTS_BUDGET = 350_000;
