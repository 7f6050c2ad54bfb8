/**
 * What the tree page loads before its first frame (`npm run bench -- bundle`): the build's scripts /observe has asked
 * for when the engine draws its first frame, each with its size as built and gzipped at level 9 (the budget test's
 * reading, tests/helpers/browser/first-frame-scripts.ts), and the engine's first frame on cold visits (a fresh
 * browser each, so nothing is cached), over a synthetic tree of BENCH_CELLS cells (1,000 by default), BENCH_ROUNDS
 * visits (5). BENCH_BASELINE_DIR names another client build (an earlier commit's `vite build --outDir`) to measure
 * in turns with this one, visit by visit: on a busy machine only such a comparison says much about the time.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { buildApp } from '#server/app.ts';
import { testConfig } from '#server/config.ts';
import { openDatabase } from '#server/db.ts';
import { generateSyntheticTree } from '#server/seed/synthetic.ts';
import { ensureClientBuilt } from '../../scripts/client-build.ts';
import {
  chunkName,
  FIRST_FRAME_SCRIPTS_BUDGET,
  scriptsBeforeFirstFrame,
  type FirstFrameScript,
} from '../helpers/browser/first-frame-scripts.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../helpers/browser/harness.ts';
import { E2E_CLIENT_DIR, PROJECT_ROOT } from '../helpers/paths.ts';
import { percentile, writeResults, type Row } from './results.ts';

const CELLS = Number(process.env.BENCH_CELLS ?? 1_000);
/** Cold visits, each in a fresh browser. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
/**
 * A network between the browser and the server, emulated through CDP when BENCH_LATENCY_MS is set: that round-trip
 * latency (ms) and BENCH_KBPS kilobits a second each way (10,000 by default). Without it, loopback.
 */
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 0);
const KBPS = Number(process.env.BENCH_KBPS ?? 10_000);
/** Another client build to measure beside this one, round by round (an earlier commit's, say). */
const BASELINE_DIR = process.env.BENCH_BASELINE_DIR ? path.resolve(process.env.BENCH_BASELINE_DIR) : null;

const kb = (bytes: number) => (bytes / 1000).toFixed(1);

interface Measured {
  clientDir: string;
  url: string;
  scripts: FirstFrameScript[];
  firstFrames: number[];
  modules: number[];
}

/** One cold visit to /observe in a fresh browser: the engine's first frame and when the tree page's module ran. */
async function coldVisit(target: Measured, withScripts: boolean): Promise<void> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    if (LATENCY_MS > 0) {
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Network.enable');
      const bytesPerSecond = (KBPS * 1000) / 8;
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: LATENCY_MS,
        downloadThroughput: bytesPerSecond,
        uploadThroughput: bytesPerSecond,
      });
    }
    await page.goto(`${target.url}/observe`);
    await page.waitForFunction(() => window.__treeStats?.firstFrameAt != null, undefined, { timeout: 60_000 });
    const [firstFrame, module] = await page.evaluate(() => [
      window.__treeStats!.firstFrameAt!,
      performance.getEntriesByName('tree:module')[0]?.startTime ?? NaN,
    ]);
    target.firstFrames.push(firstFrame);
    target.modules.push(module);
    if (withScripts) target.scripts = await scriptsBeforeFirstFrame(page, target.clientDir);
  } finally {
    await browser.close();
  }
}

export async function benchTreeBundle(): Promise<string> {
  await ensureClientBuilt(PROJECT_ROOT, console.log, E2E_CLIENT_DIR);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gallery-bench-bundle-'));
  const db = openDatabase(path.join(dir, 'gallery.db'));
  await generateSyntheticTree(db, { cells: CELLS });
  // One server per build, over the same tree; the builds take turns, so a busy moment of the machine falls on both.
  const apps = await Promise.all(
    [E2E_CLIENT_DIR, ...(BASELINE_DIR ? [BASELINE_DIR] : [])].map(async (clientDir) => {
      const app = await buildApp(testConfig(dir, { port: 0, host: '127.0.0.1', clientDir }), { db });
      const measured: Measured = { clientDir, url: await app.start(), scripts: [], firstFrames: [], modules: [] };
      return { app, measured };
    }),
  );
  try {
    for (let round = 0; round < ROUNDS; round++)
      for (const { measured } of round % 2 === 0 ? apps : [...apps].reverse()) await coldVisit(measured, round === 0);
  } finally {
    for (const { app } of apps) await app.stop();
    db.$client.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const [{ scripts, firstFrames, modules }, baseline] = apps.map(({ measured }) => measured) as [
    Measured,
    Measured | undefined,
  ];
  const total = { bytes: 0, gzipBytes: 0 };
  for (const s of scripts) {
    total.bytes += s.bytes;
    total.gzipBytes += s.gzipBytes;
  }
  const rows: Row[] = [...scripts]
    .sort((a, b) => b.gzipBytes - a.gzipBytes)
    .map((s) => ({
      chunk: chunkName(s.file),
      'kB built': kb(s.bytes),
      'kB gzip -9': kb(s.gzipBytes),
      'asked at ms': s.startedMs.toFixed(0),
    }));
  rows.push({ chunk: 'total', 'kB built': kb(total.bytes), 'kB gzip -9': kb(total.gzipBytes), 'asked at ms': '' });
  const f0 = (list: number[]) => list.map((n) => n.toFixed(0)).join(', ');
  const coldFirstFrame = (m: Pick<Measured, 'firstFrames' | 'modules'>) =>
    `median ${percentile(m.firstFrames, 50).toFixed(0)} ms of ${f0(m.firstFrames)}; the tree page's module ran at median ${percentile(m.modules, 50).toFixed(0)} ms of ${f0(m.modules)}`;
  const notes = [
    `The scripts of the build that /observe had asked for when the engine drew its first frame (performance resource entries begun before window.__treeStats.firstFrameAt), sizes as built and gzipped at level 9; budget ${kb(FIRST_FRAME_SCRIPTS_BUDGET)} kB gzip (tests/e2e/tree-first-frame-budget.test.ts, decision 043).`,
    `Cold first frame (navigation to the engine's first frame with cells, a fresh browser each, ${CELLS.toLocaleString('en')} cells, software WebGL, ${LATENCY_MS > 0 ? `an emulated network of ${LATENCY_MS} ms round trips and ${KBPS.toLocaleString('en')} kbit/s` : 'over loopback'}): ${coldFirstFrame({ firstFrames, modules })}.`,
  ];
  if (baseline) {
    const baselineTotal = baseline.scripts.reduce((sum, s) => sum + s.gzipBytes, 0);
    notes.push(
      `Baseline (${baseline.clientDir}, measured in turns with this build): ${kb(baselineTotal)} kB gzip before the first frame (${baseline.scripts
        .map((s) => `${chunkName(s.file)} ${kb(s.gzipBytes)}`)
        .join(', ')}); cold first frame ${coldFirstFrame(baseline)}.`,
    );
  }
  notes.push(
    `Machine load at the end (1-minute load average): ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores.`,
  );
  return writeResults(
    'tree-bundle',
    'The tree page: scripts loaded before its first frame, and the cold first frame',
    rows,
    notes,
  );
}
