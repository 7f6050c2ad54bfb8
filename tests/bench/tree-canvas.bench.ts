/**
 * The tree canvas in a browser (benchmarks 1-3; `npm run bench:tree`): headless Chromium with the browser
 * tests' flags against the real server over synthetic trees. SwiftShader WebGL rasterises slowly: that says nothing
 * about our code.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { and, eq, max, min, sql } from 'drizzle-orm';
import { chromium, type Browser, type CDPSession, type Page } from 'playwright-core';
import { buildApp, type App } from '#server/app.ts';
import { testConfig } from '#server/config.ts';
import { cells, pictures, trees } from '#drizzle/schema.ts';
import { openDatabase, write, type Db } from '#server/db.ts';
import { renderArtwork } from '#server/seed/art-generator.ts';
import { generateSyntheticTree } from '#server/seed/synthetic.ts';
import { pyramidDescriptorNameOf } from '#server/services/display/index.ts';
import { buildQueuedPyramids, storePicture, storedPictureColumns } from '#server/services/media/index.ts';
import { recordBulkChange } from '#server/services/tree/index.ts';
import { newToken } from '#server/tokens.ts';
import { TREE_VIEW } from '#shared/constants.ts';
import { levelSize, type PyramidDescriptor } from '#shared/deep-zoom.ts';
import { CellStatus } from '#shared/domain.ts';
import { CELL_PITCH, CELL_SIZE } from '#shared/tree/camera.ts';
import { SNAPSHOT_BINARY_TYPE } from '#shared/tree/snapshot-type.ts';
import { ensureClientBuilt } from '../../scripts/client-build.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../helpers/browser/harness.ts';
import { E2E_CLIENT_DIR, PROJECT_ROOT } from '../helpers/paths.ts';
import { generatedTree } from './generated-tree.ts';
import { writeResults, type Row } from './results.ts';
import { TEN_MILLION } from './sizes.ts';

const VIEWPORT = { width: 1280, height: 800 };
/** Screen pixels a second: a visitor dragging at an easy pace. */
const PAN_SPEED = 600;
/** Steps of the mouse a second during a drag (about one a display frame). */
const MOVES_PER_SECOND = 60;

interface Served {
  app: App;
  db: Db;
  dir: string;
  url: string;
  treeToken: string;
  /** The snapshot as the server sends the page it, binary and with brotli (warmed). */
  snapshot: Buffer;
  /** The snapshot's JSON form with brotli, as the API's readers get it (made when first asked). */
  jsonSnapshot: () => Promise<Buffer>;
  close: () => Promise<void>;
}

/**
 * The real server (buildApp + start on port 0) over a tree from generateSyntheticTree, its kept snapshot warmed: the
 * snapshot is built once per change of a tree (server/services/tree/tree.ts), so what a visitor waits for is sending
 * the kept bytes, not building them (the build is tree-snapshot.bench.ts's business). `prepare` runs on the started
 * app before the snapshot is warmed.
 */
async function serveSyntheticTree(
  cells: number,
  prepare?: (app: App, treeToken: string) => Promise<void>,
): Promise<Served> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gallery-bench-canvas-'));
  // Ten million cells take minutes to generate: that tree is generated once and kept (generated-tree.ts), then copied.
  if (cells >= TEN_MILLION) fs.copyFileSync(await generatedTree(cells), path.join(dir, 'gallery.db'));
  const db = openDatabase(path.join(dir, 'gallery.db'));
  const treeToken =
    cells >= TEN_MILLION
      ? db.select({ token: trees.token }).from(trees).get()!.token
      : (await generateSyntheticTree(db, { cells })).treeToken;
  const app = await buildApp(testConfig(dir, { port: 0, host: '127.0.0.1', clientDir: E2E_CLIENT_DIR }), { db });
  const url = await app.start();
  // What a part adds to the generated tree goes in before the snapshot is built.
  await prepare?.(app, treeToken);
  // Warm the kept snapshot (built once per change of the tree).
  const warm = await app.server.inject({
    url: `/api/tree/${treeToken}`,
    headers: { accept: SNAPSHOT_BINARY_TYPE, 'accept-encoding': 'br' },
  });
  return {
    app,
    db,
    dir,
    url,
    treeToken,
    snapshot: warm.rawPayload,
    async jsonSnapshot() {
      const json = await app.server.inject({ url: `/api/tree/${treeToken}`, headers: { 'accept-encoding': 'br' } });
      return json.rawPayload;
    },
    async close() {
      await app.stop();
      db.$client.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

/**
 * Records, in the page, when the first frame has been presented: the second animation frame after the grid is in the
 * DOM, the first after our first frame.
 */
const PRESENTED_SCRIPT = `(() => {
  let seen = false;
  let sketchSeen = false;
  const tick = () => {
    // The server's sketch (server/services/tree/tree-sketch.ts) is in the page as it is parsed: the first frame that
    // begins with it in the document paints it, and is presented by the next.
    if (!sketchSeen && document.querySelector('.tree-sketch')) {
      sketchSeen = true;
      requestAnimationFrame(() => { window.__sketchPresentedAt = performance.now(); });
    }
    const ours = window.__treeStats && window.__treeStats.firstFrameAt !== null;
    const grid = window.__gridBuiltAt !== undefined;
    if (!seen && (ours || grid)) {
      seen = true;
      // Ours rendered in an earlier animation frame than this one; the grid was appended outside any frame, so its
      // first frame is the one this callback starts: wait one more either way (conservative for ours).
      requestAnimationFrame(() => { window.__presentedAt = performance.now(); });
      return;
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})();`;

declare global {
  interface Window {
    __presentedAt?: number;
    __sketchPresentedAt?: number;
    __gridBuiltAt?: number;
  }
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const f1 = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '—');
const f0 = (n: number) => (Number.isFinite(n) ? n.toFixed(0) : '—');
const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
/** Rounds of the scripted pan and zoom per tree size. */
const ROUNDS = 3;
/** The marks of the first frame's way, in order (see the client's performance.mark calls). */
const WAY = [
  'response-end',
  'dom-interactive',
  'first-contentful-paint',
  'sketch-presented',
  'early',
  'snapshot-request',
  'module',
  'canvas-ready',
  'snapshot-response-end',
  'snapshot-decoded',
  'set-tree',
  'tree-set',
  'first-frame',
  'presented',
];
const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
/** What a first visit's trace records: DevTools' timeline with its JS samples, and the GPU process's work. */
const TRACE_CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-v8.cpu_profiler',
  'v8.execute',
  'blink.user_timing',
  'loading',
  'gpu',
];

/**
 * The page's JavaScript memory: V8's heap and the array buffers' backing stores, which hold the decoded tree (typed
 * arrays) outside the heap proper.
 */
async function heapNow(cdp: CDPSession): Promise<number> {
  const usage = await cdp.send('Runtime.getHeapUsage');
  return usage.usedSize + usage.backingStorageSize;
}

async function heapAfterGc(cdp: CDPSession): Promise<number> {
  await cdp.send('HeapProfiler.collectGarbage');
  return heapNow(cdp);
}

async function metrics(cdp: CDPSession): Promise<Record<string, number>> {
  await cdp.send('Performance.enable');
  const { metrics: list } = await cdp.send('Performance.getMetrics');
  return Object.fromEntries(list.map((m) => [m.name, m.value]));
}

/** Resident memory (bytes) of the busiest renderer (the page's) and of the GPU process. */
async function processMemory(browser: Browser): Promise<{ renderer: number; gpu: number }> {
  const cdp = await browser.newBrowserCDPSession();
  const { processInfo } = (await cdp.send('SystemInfo.getProcessInfo')) as {
    processInfo: { type: string; id: number; cpuTime: number }[];
  };
  await cdp.detach();
  const rss = (pid: number) => {
    try {
      const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
      return match ? Number(match[1]) * 1024 : 0;
    } catch {
      return 0;
    }
  };
  const renderers = processInfo.filter((p) => p.type === 'renderer').map((p) => rss(p.id));
  const gpu = processInfo.filter((p) => p.type === 'GPU').reduce((sum, p) => sum + rss(p.id), 0);
  return { renderer: Math.max(0, ...renderers), gpu };
}

/**
 * Opens the tree page with `?bench` (`search`: more of its address's query, '&row=3&col=1&zoom=1' say). `tracePath`:
 * records Chromium's performance timeline of the visit there, up to the first frame (open it in DevTools).
 */
async function openTreePage(
  browser: Browser,
  url: string,
  search = '',
  tracePath?: string,
): Promise<{ page: Page; cdp: CDPSession; snapshotBytes: number }> {
  const page = await browser.newPage({ viewport: VIEWPORT });
  await page.addInitScript(PRESENTED_SCRIPT);
  if (tracePath) await browser.startTracing(page, { path: tracePath, categories: TRACE_CATEGORIES });
  const cdp = await page.context().newCDPSession(page);
  let snapshotBytes = 0;
  page.on('requestfinished', async (request) => {
    if (/\/api\/tree\/[^/?]+$/.test(new URL(request.url()).pathname))
      snapshotBytes = (await request.sizes()).responseBodySize;
  });
  await page.goto(`${url}/observe?bench${search}`);
  await page.waitForFunction(
    () => window.__treeStats?.firstFrameAt != null && window.__presentedAt !== undefined,
    undefined,
    { timeout: 60_000 },
  );
  if (tracePath) await browser.stopTracing();
  return { page, cdp, snapshotBytes };
}

/** performance.now() marks of the first frame's way, relative to navigation start. */
async function marks(page: Page): Promise<Record<string, number>> {
  return page.evaluate(() => {
    const out: Record<string, number> = {};
    for (const entry of performance.getEntriesByType('mark'))
      if (entry.name.startsWith('tree:')) out[entry.name.slice(5)] ??= entry.startTime;
    const snapshot = performance
      .getEntriesByType('resource')
      .find((e) => /\/api\/tree\/[^/?]+$/.test(new URL(e.name).pathname)) as PerformanceResourceTiming | undefined;
    if (snapshot) {
      out['snapshot-request'] = snapshot.requestStart;
      out['snapshot-response-end'] = snapshot.responseEnd;
    }
    out['first-frame'] = window.__treeStats!.firstFrameAt!;
    out['presented'] = window.__presentedAt!;
    // The first sketch (server/services/tree/tree-sketch.ts), when the page had one; and the browser's own first paint.
    if (window.__sketchPresentedAt !== undefined) out['sketch-presented'] = window.__sketchPresentedAt;
    const paint = performance.getEntriesByName('first-contentful-paint')[0];
    if (paint) out['first-contentful-paint'] = paint.startTime;
    const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    if (navigation) {
      out['response-end'] = navigation.responseEnd;
      out['dom-interactive'] = navigation.domInteractive;
    }
    return out;
  });
}

// ---------------------------------------------------------------------------------------------------------------
// 1. The scripted pan and zoom.

type Step =
  | { kind: 'pan'; dx: number; dy: number; seconds: number }
  | { kind: 'zoom'; direction: 1 | -1 }
  | { kind: 'pause'; seconds: number };

/** Ten seconds: pans at PAN_SPEED in several directions, with zoom steps out and back in between. */
const SCRIPT: Step[] = [
  { kind: 'pan', dx: 0, dy: 1, seconds: 1.6 },
  { kind: 'zoom', direction: -1 },
  { kind: 'pause', seconds: 0.3 },
  { kind: 'pan', dx: 0.6, dy: 0.8, seconds: 1.6 },
  { kind: 'zoom', direction: -1 },
  { kind: 'pause', seconds: 0.3 },
  { kind: 'pan', dx: -0.6, dy: 0.8, seconds: 1.6 },
  { kind: 'zoom', direction: 1 },
  { kind: 'zoom', direction: 1 },
  { kind: 'pause', seconds: 0.3 },
  { kind: 'pan', dx: 0, dy: -1, seconds: 1.6 },
  { kind: 'zoom', direction: 1 },
  { kind: 'pause', seconds: 0.3 },
  { kind: 'pan', dx: 0.8, dy: 0.6, seconds: 1.4 },
];

interface FrameRecord {
  total: number;
  build: number;
  render: number;
  at: number;
}

async function runScript(
  page: Page,
): Promise<{ frames: FrameRecord[]; panWindows: [number, number][]; seconds: number }> {
  const box = (await page.locator('canvas').first().boundingBox())!;
  const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  await page.evaluate(() => window.__treeFrames!.reset());
  const panWindows: [number, number][] = [];
  const started = Date.now();
  for (const step of SCRIPT) {
    if (step.kind === 'pause') {
      await page.waitForTimeout(step.seconds * 1000);
    } else if (step.kind === 'zoom') {
      await page.mouse.move(centre.x, centre.y);
      await page.keyboard.down('Control');
      await page.mouse.wheel(0, step.direction > 0 ? -120 : 120);
      await page.keyboard.up('Control');
      await page.waitForTimeout(120);
    } else {
      // Drag against the direction of travel: the view moves towards (dx, dy).
      const from = {
        x: centre.x + (step.dx * PAN_SPEED * step.seconds) / 2,
        y: centre.y + (step.dy * PAN_SPEED * step.seconds) / 2,
      };
      await page.mouse.move(from.x, from.y);
      await page.mouse.down();
      const panStart = await page.evaluate(() => performance.now());
      const t0 = Date.now();
      for (;;) {
        const t = Math.min(step.seconds, (Date.now() - t0) / 1000);
        await page.mouse.move(from.x - step.dx * PAN_SPEED * t, from.y - step.dy * PAN_SPEED * t);
        if (t >= step.seconds) break;
        await new Promise((resolve) => setTimeout(resolve, 1000 / MOVES_PER_SECOND));
      }
      await page.mouse.up();
      panWindows.push([panStart, await page.evaluate(() => performance.now())]);
    }
  }
  await page.waitForTimeout(500);
  const seconds = (Date.now() - started) / 1000;
  return { frames: await readFrames(page), panWindows, seconds };
}

/** The frames the engine recorded since its log was last reset (window.__treeFrames), oldest first. */
function readFrames(page: Page): Promise<FrameRecord[]> {
  return page.evaluate(() => {
    const log = window.__treeFrames!;
    const n = Math.min(log.count, log.total.length);
    const out: { total: number; build: number; render: number; at: number }[] = [];
    for (let i = log.count - n; i < log.count; i++) {
      const at = i % log.total.length;
      out.push({ total: log.total[at]!, build: log.build[at]!, render: log.render[at]!, at: log.at[at]! });
    }
    return out;
  });
}

function frameSummary(frames: FrameRecord[], panWindows: [number, number][]) {
  const totals = frames.map((f) => f.total).sort((a, b) => a - b);
  const inPan = frames.filter((f) => panWindows.some(([a, b]) => f.at >= a && f.at <= b));
  return {
    frames: frames.length,
    p50: percentile(totals, 50),
    p95: percentile(totals, 95),
    max: totals.at(-1) ?? NaN,
    panMax: Math.max(...inPan.map((f) => f.total)),
    over16InPan: inPan.filter((f) => f.total > 16).length,
    buildMax: Math.max(...frames.map((f) => f.build)),
    renderMax: Math.max(...frames.map((f) => f.render)),
    slowest: [...frames].sort((a, b) => b.total - a.total).slice(0, 3),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// 3. The DOM grid.

/** The grid page: fetches the snapshot's JSON form, decodes it, and appends one coloured element per cell. */
function gridPage(): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>DOM grid</title><style>
body { margin: 0; background: #f5f2ec; }
#grid { position: relative; }
.c { position: absolute; width: 100px; height: 100px; box-sizing: border-box; }
.s0 { border: 1.5px solid #ddd7cc; }
.s1 { background: #e6e1d8; }
.s3 { background: #fdfcf9; border: 2.5px solid #2e6b57; }
</style></head><body><div id="grid"></div><script>
fetch('/tree.json').then((r) => r.json()).then(({ r: wire }) => {
  const grid = document.getElementById('grid');
  const fragment = document.createDocumentFragment();
  let row = 0, minCol = 0, maxRow = 0;
  for (let i = 0; i < wire.count; i++) minCol = Math.min(minCol, wire.col[i]);
  for (let i = 0; i < wire.count; i++) {
    row += wire.row[i];
    maxRow = row;
    const status = wire.status.charCodeAt(i) - 48;
    const el = document.createElement('div');
    el.className = 'c s' + status;
    let style = 'left:' + (wire.col[i] - minCol) * 110 + 'px;top:' + row * 110 + 'px';
    if (status === 2) {
      const hex = wire.color.substr(i * 3, 3);
      style += ';background:#' + hex;
    }
    el.style.cssText = style;
    fragment.appendChild(el);
  }
  grid.style.height = (maxRow + 1) * 110 + 'px';
  grid.appendChild(fragment);
  // Open at the same place as the canvas: the bottom of the tree.
  window.scrollTo(0, document.documentElement.scrollHeight);
  window.__gridBuiltAt = performance.now();
});
</script></body></html>`;
}

async function serveGrid(snapshot: Buffer): Promise<{ url: string; close: () => Promise<void> }> {
  const html = Buffer.from(gridPage());
  const server = http.createServer((req, res) => {
    if (req.url === '/tree.json') {
      res.writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        'content-encoding': 'br',
        'cache-control': 'no-cache',
      });
      res.end(snapshot);
    } else {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(html);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

interface FirstFrameMeasure {
  /** The first frame showing the tree: ours, the sketch's if it came first, else the engine's. */
  presentedMs: number;
  /** Ours: the engine's own first frame, presented. */
  enginePresentedMs?: number;
  /** Ours: when the tree page's own module ran. */
  moduleMs?: number;
  /** Ours: the marks of the first frame's way. */
  way?: Record<string, number>;
  heap: number;
  nodes: number;
  layouts: number;
  renderer: number;
  gpu: number;
}

/** When ours first showed the tree: the server's sketch, presented, if that came before the engine's frame. */
function firstShown(way: Record<string, number>): number {
  const engine = way['presented']!;
  const sketch = way['sketch-presented'];
  return sketch !== undefined ? Math.min(engine, sketch) : engine;
}

async function measureOurs(url: string): Promise<FirstFrameMeasure> {
  const browser = await launch();
  try {
    const { page, cdp } = await openTreePage(browser, url);
    await page.waitForTimeout(1500);
    const m = await metrics(cdp);
    const way = await marks(page);
    const memory = await processMemory(browser);
    return {
      presentedMs: firstShown(way),
      enginePresentedMs: way['presented'],
      moduleMs: way['module'],
      way,
      heap: await heapAfterGc(cdp),
      nodes: m.Nodes ?? 0,
      layouts: m.LayoutCount ?? 0,
      ...memory,
    };
  } finally {
    await browser.close();
  }
}

async function measureGrid(url: string): Promise<FirstFrameMeasure> {
  const browser = await launch();
  try {
    const page = await browser.newPage({ viewport: VIEWPORT });
    await page.addInitScript(PRESENTED_SCRIPT);
    const cdp = await page.context().newCDPSession(page);
    await page.goto(url);
    await page.waitForFunction(() => window.__presentedAt !== undefined, undefined, { timeout: 120_000 });
    await page.waitForTimeout(1500);
    const m = await metrics(cdp);
    const presentedMs = await page.evaluate(() => window.__presentedAt!);
    const memory = await processMemory(browser);
    return { presentedMs, heap: await heapAfterGc(cdp), nodes: m.Nodes ?? 0, layouts: m.LayoutCount ?? 0, ...memory };
  } finally {
    await browser.close();
  }
}

// ---------------------------------------------------------------------------------------------------------------

type Log = (line: string) => void;

interface Part {
  rows: Row[];
  /** Notes that open the list (targets, how it was measured) and the rest. */
  head: string[];
  notes: string[];
}

/**
 * 1 and 2: frames at 1k and 1M during the scripted pan and zoom, and the first frame of each. 1: main-thread work per
 * frame, the engine's own record of camera update + culling + chunk building + app.render() (window.__treeFrames, on
 * with `?bench`): p50, p95, max, and the max over the pans' frames alone. 2: at 1M, navigation to the first frame with
 * cells (snapshot fetch included), the JS heap after it (CDP Runtime.getHeapUsage after a GC), the snapshot's bytes.
 */
async function framesPart(log: Log): Promise<Part> {
  const rows: Row[] = [];
  const notes: string[] = [];
  // Alternating rounds (so a busy moment of the machine falls on both sizes), each round on a freshly opened page;
  // the first round's page is the visitor's first visit (a fresh browser).
  // Ten million beside them with BENCH_10M=1 (decision 045: first frame ≤ 2.5 s, the same frame targets, heap ≤ 150 MB).
  const sizes = [1_000, 1_000_000, ...(process.env.BENCH_10M === '1' ? [TEN_MILLION] : [])];
  const traces = process.env.BENCH_TREE_TRACE;
  if (traces) fs.mkdirSync(traces, { recursive: true });
  const trees: Record<number, Served> = {};
  const browsers: Record<number, Browser> = {};
  const frames: Record<number, FrameRecord[]> = {};
  const pans: Record<number, [number, number][]> = {};
  const firstFrames: Record<number, number[]> = {};
  const first: Record<number, { way: Record<string, number>; heap: number; bytes: number }> = {};
  const peakHeap: Record<number, number> = {};
  let scriptSeconds = 0;
  try {
    for (const size of sizes) {
      log(`generating ${size.toLocaleString('en')} cells`);
      trees[size] = await serveSyntheticTree(size);
      browsers[size] = await launch();
      frames[size] = [];
      pans[size] = [];
      firstFrames[size] = [];
      peakHeap[size] = 0;
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const size of sizes) {
        const { page, cdp, snapshotBytes } = await openTreePage(browsers[size]!, trees[size]!.url);
        const way = await marks(page);
        firstFrames[size]!.push(way['first-frame']!);
        if (round === 0) first[size] = { way, heap: await heapAfterGc(cdp), bytes: snapshotBytes };
        log(`${size}: round ${round + 1}, first frame ${way['first-frame']!.toFixed(0)} ms; scripted pan and zoom`);
        // BENCH_TREE_TRACE: the first round's pans and zooms are traced too, to see what a slow frame did.
        const tracePath = traces && round === 0 ? path.join(traces, `frames-${size}.json`) : null;
        if (tracePath) await browsers[size]!.startTracing(page, { path: tracePath, categories: TRACE_CATEGORIES });
        const run = await runScript(page);
        if (tracePath) await browsers[size]!.stopTracing();
        frames[size]!.push(...run.frames);
        pans[size]!.push(...run.panWindows);
        scriptSeconds = run.seconds;
        peakHeap[size] = Math.max(peakHeap[size]!, await heapNow(cdp));
        await page.close();
      }
    }
  } finally {
    for (const size of sizes) {
      await browsers[size]?.close();
      await trees[size]?.close();
    }
  }
  const frameResults: Record<number, ReturnType<typeof frameSummary>> = {};
  for (const size of sizes) {
    const summary = frameSummary(frames[size]!, pans[size]!);
    frameResults[size] = summary;
    const warm = firstFrames[size]!.slice(1).sort((a, b) => a - b);
    const { way, heap, bytes } = first[size]!;
    rows.push({
      measure: `frames, ${size.toLocaleString('en')} cells`,
      'main-thread ms p50': f1(summary.p50),
      p95: f1(summary.p95),
      max: f1(summary.max),
      'max in pans': f1(summary.panMax),
      'frames > 16 ms in pans': summary.over16InPan,
      'max chunk build ms': f1(summary.buildMax),
      'max render() ms': f1(summary.renderMax),
      frames: `${summary.frames} in ${ROUNDS} × ${scriptSeconds.toFixed(0)} s`,
      'first frame ms': `${way['first-frame']!.toFixed(0)} (again: ${f0(percentile(warm, 50))})`,
      'JS heap MB': `${mb(heap)} (peak ${mb(peakHeap[size]!)})`,
      'snapshot bytes (wire)': bytes.toLocaleString('en'),
    });
    notes.push(
      `${size.toLocaleString('en')} cells, way to the first frame on a first visit (ms after navigation): ${wayOf(way)}; slowest frames (total/build/render ms): ` +
        summary.slowest.map((f) => `${f1(f.total)}/${f1(f.build)}/${f1(f.render)}`).join(', ') +
        '.',
    );
  }
  const k = frameResults[1_000]!;
  const m = frameResults[1_000_000]!;
  const ten = frameResults[TEN_MILLION];
  const tenMillion = ten
    ? [
        `Targets at 10M (decision 045): first frame on a first visit ≤ 2,500 ms (${first[TEN_MILLION]!.way['first-frame']!.toFixed(0)}), p95 < 8 ms (${f1(ten.p95)}), no frame over 16 ms in a pan (${ten.over16InPan}), heap ≤ 150 MB (${mb(first[TEN_MILLION]!.heap)}, peak ${mb(peakHeap[TEN_MILLION]!)}), snapshot ≤ 8 MB on the wire (${first[TEN_MILLION]!.bytes.toLocaleString('en')} bytes).`,
      ]
    : [];
  return {
    rows,
    head: [
      ...tenMillion,
      `Targets: p95 at 1M ≤ 1.5 × p95 at 1k (${f1(m.p95)} vs ${f1(k.p95)} ms: ${(m.p95 / k.p95).toFixed(2)}×) and < 8 ms; no frame over 16 ms in a pan (1M: ${m.over16InPan}); 1M first frame < 2,000 ms; heap < 150 MB; snapshot ≤ 4 MB; DOM ÷ ours first frame ≥ 2 and memory > 1.`,
      "Frame work is the engine's main-thread time per frame (window.__treeFrames with ?bench): camera update, culling, chunk building and app.render(). WebGL here is SwiftShader, so the GPU side of a frame is not in it.",
      `The script: ${SCRIPT.map((s) => (s.kind === 'pan' ? `pan ${s.seconds} s` : s.kind === 'zoom' ? `zoom ${s.direction > 0 ? 'in' : 'out'}` : 'pause')).join(', ')}; pans are mouse drags at ${PAN_SPEED} px/s with a move every ${Math.round(1000 / MOVES_PER_SECOND)} ms; zooms are Ctrl+wheel steps at the centre. A small tree stops the pans at its edges, so it renders fewer frames.`,
      '"first frame ms" of the frame rows: navigation to the engine\'s first frame with cells (snapshot fetch included), on a first visit in a fresh browser; "again" is the median of the later rounds (the browser has the code cached). Heap: V8\'s heap with the array buffers\' backing stores (the decoded tree\'s typed arrays), after that frame and a forced GC; peak: the largest seen after a scripted run.',
    ],
    notes,
  };
}

/**
 * 2 alone: the first frame on a first visit (a fresh browser each round) at 1M, and 10M with BENCH_10M=1, with the
 * way to it and the snapshot's bytes on the wire; medians of `rounds`, the sizes alternating. `BENCH_TREE_TRACE`, a
 * directory: each visit's performance timeline is written there (first-SIZE-ROUND.json).
 */
async function firstVisitPart(log: Log, rounds: number): Promise<Part> {
  const sizes = [1_000_000, ...(process.env.BENCH_10M === '1' ? [TEN_MILLION] : [])];
  const trees: Record<number, Served> = {};
  const ways: Record<number, { way: Record<string, number>; bytes: number }[]> = {};
  const traces = process.env.BENCH_TREE_TRACE;
  if (traces) fs.mkdirSync(traces, { recursive: true });
  try {
    for (const size of sizes) {
      log(`generating ${size.toLocaleString('en')} cells`);
      trees[size] = await serveSyntheticTree(size);
      ways[size] = [];
    }
    for (let round = 0; round < rounds; round++) {
      for (const size of sizes) {
        const browser = await launch();
        try {
          const tracePath = traces ? path.join(traces, `first-${size}-${round + 1}.json`) : undefined;
          const { page, snapshotBytes } = await openTreePage(browser, trees[size]!.url, '', tracePath);
          const way = await marks(page);
          ways[size]!.push({ way, bytes: snapshotBytes });
          log(`${size}: round ${round + 1}, first frame ${f0(way['first-frame']!)} ms: ${wayOf(way)}`);
        } finally {
          await browser.close();
        }
      }
    }
  } finally {
    for (const size of sizes) await trees[size]?.close();
  }
  const rows = sizes.map((size) => {
    const runs = ways[size]!;
    const at = (name: string) => medianOf(runs.map((run) => run.way[name] ?? NaN));
    return {
      measure: `first visit, ${size.toLocaleString('en')} cells`,
      'first frame ms': `${f0(at('first-frame'))} (runs: ${runs.map((run) => f0(run.way['first-frame']!)).join(', ')})`,
      'snapshot response end': f0(at('snapshot-response-end')),
      'snapshot decoded': f0(at('snapshot-decoded')),
      'tree set': f0(at('tree-set')),
      'snapshot bytes (wire)': runs[0]!.bytes.toLocaleString('en'),
    };
  });
  const notes = sizes.map(
    (size) =>
      `${size.toLocaleString('en')} cells, medians of the way (ms after navigation): ${wayOf(medianWay(ways[size]!.map((run) => run.way)))}.`,
  );
  return { rows, head: ["First visit: navigation to the engine's first frame, a fresh browser each round."], notes };
}

/** The median of each mark over runs. */
function medianWay(runs: Record<string, number>[]): Record<string, number> {
  const names = [...new Set(runs.flatMap((run) => Object.keys(run)))];
  return Object.fromEntries(names.map((name) => [name, medianOf(runs.map((run) => run[name] ?? NaN))]));
}

function medianOf(values: number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}

/** The marks of a first frame's way, as "name ms" in order. */
function wayOf(way: Record<string, number>): string {
  return WAY.filter((name) => way[name] !== undefined)
    .map((name) => `${name} ${way[name]!.toFixed(0)}`)
    .join(', ');
}

/**
 * 3: the 100k tree as a plain DOM grid (one absolutely positioned, coloured element per cell, on a static page served
 * here with the snapshot's JSON form) against ours, alternating, each in a fresh browser; the medians are reported: the
 * first frame presented, and memory: the renderer's and GPU process's resident set (from /proc, by the pids CDP's
 * SystemInfo.getProcessInfo names), JS heap and DOM nodes (CDP Performance.getMetrics).
 */
async function domPart(log: Log, rounds: number): Promise<Part> {
  log('generating 100,000 cells for the DOM comparison');
  const served = await serveSyntheticTree(100_000);
  const grid = await serveGrid(await served.jsonSnapshot());
  const oursRuns: FirstFrameMeasure[] = [];
  const domRuns: FirstFrameMeasure[] = [];
  try {
    for (let round = 0; round < rounds; round++) {
      const ours = await measureOurs(served.url);
      const dom = await measureGrid(grid.url);
      oursRuns.push(ours);
      domRuns.push(dom);
      log(
        `100k: round ${round + 1}: DOM ${f0(dom.presentedMs)} ms, ours ${f0(ours.presentedMs)} ms, engine ${f0(ours.enginePresentedMs ?? NaN)} ms (${wayOf(ours.way ?? {})})`,
      );
    }
  } finally {
    await grid.close();
    await served.close();
  }
  const median = (runs: FirstFrameMeasure[]): FirstFrameMeasure => {
    const pick = (key: Exclude<keyof FirstFrameMeasure, 'way'>) =>
      percentile(
        runs.map((r) => r[key] ?? NaN).sort((a, b) => a - b),
        50,
      );
    return {
      presentedMs: pick('presentedMs'),
      enginePresentedMs: pick('enginePresentedMs'),
      moduleMs: pick('moduleMs'),
      heap: pick('heap'),
      nodes: pick('nodes'),
      layouts: pick('layouts'),
      renderer: pick('renderer'),
      gpu: pick('gpu'),
    };
  };
  const ours = median(oursRuns);
  const dom = median(domRuns);
  const side = (name: string, m: FirstFrameMeasure): Row => ({
    measure: `100,000 cells: ${name}`,
    'first frame ms': f0(m.presentedMs),
    'JS heap MB': mb(m.heap),
    'snapshot bytes (wire)': served.snapshot.length.toLocaleString('en'),
    'renderer RSS MB': mb(m.renderer),
    'GPU RSS MB': mb(m.gpu),
    'DOM nodes': m.nodes,
    layouts: m.layouts,
  });
  const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) : '—');
  const rows = [
    side('DOM grid', dom),
    side('our canvas', ours),
    {
      measure: '100,000 cells: DOM ÷ ours',
      'first frame ms': ratio(dom.presentedMs, ours.presentedMs),
      'JS heap MB': ratio(dom.heap, ours.heap),
      'renderer RSS MB': ratio(dom.renderer, ours.renderer),
      'GPU RSS MB': ratio(dom.gpu, ours.gpu),
      'DOM nodes': ratio(dom.nodes, ours.nodes),
    },
  ];
  const engine = ours.enginePresentedMs ?? NaN;
  return {
    rows,
    head: [
      "First frame of the 100k comparison: the first animation frame after the frame that showed the content (for the DOM grid, the second after it was appended). Ours is the first sketch of the tree: the opening view's bands and squares, drawn by the server into the page as an inline SVG (server/services/tree/tree-sketch.ts), taken as the frame after the first one that began with it in the document; the engine's own first frame (PixiJS, thumbnails and labels) follows and replaces it, and is reported beside it, as is the browser's first-contentful-paint. Memory: resident set of the page's renderer process and of the GPU process from /proc, by the pids of CDP SystemInfo.getProcessInfo; heap after a forced GC.",
    ],
    notes: [
      `100,000 cells (medians of ${rounds} fresh browsers each): first frame presented, DOM grid ${f0(dom.presentedMs)} ms, ours ${f0(ours.presentedMs)} ms (the sketch; the engine's own first frame ${f0(engine)} ms, DOM ÷ engine ${ratio(dom.presentedMs, engine)}); the tree page's own module ran at ${f0(ours.moduleMs ?? NaN)} ms. ` +
        `Renderer + GPU resident memory: DOM grid ${mb(dom.renderer + dom.gpu)} MB, ours ${mb(ours.renderer + ours.gpu)} MB (ratio ${ratio(dom.renderer + dom.gpu, ours.renderer + ours.gpu)}). ` +
        `All runs, first frame ms: DOM ${domRuns.map((r) => f0(r.presentedMs)).join(', ')}; ours ${oursRuns.map((r) => f0(r.presentedMs)).join(', ')}; the engine ${oursRuns.map((r) => f0(r.enginePresentedMs ?? NaN)).join(', ')}; ratio per round ${domRuns.map((r, i) => ratio(r.presentedMs, oursRuns[i]!.presentedMs)).join(', ')}.`,
      `The way of ours in the median round (ms after navigation): ${wayOf(oursRuns.find((r) => r.presentedMs === ours.presentedMs)?.way ?? {})}.`,
    ],
  };
}

// ---------------------------------------------------------------------------------------------------------------
// 4. The zoom from the whole tree into a piece's own pixels (decision 048).

/** The side of the picture zoomed into: as large as the demo's photographed pieces (server/seed/demo.ts). */
const DEEP_PICTURE_SIZE = 3200;
/** Ctrl+wheel notches at most: the tree's steps from 0.5 to 2.5, then a doubling a step to the picture's pixels. */
const DEEP_NOTCHES_MAX = 30;

interface DeepPiece {
  row: number;
  column: number;
  descriptor: PyramidDescriptor;
}

/**
 * Gives the published square nearest the middle of a generated tree (which has no pictures) a 3,200 px picture whose
 * pyramid is cut, the way the demo seed and the pyramid job do it: the picture rendered and stored by storePicture,
 * its pictures row queued ('building') beside the square's art with a bulk change of the tree recorded, then
 * buildQueuedPyramids run on the app's own services.
 */
async function giveMiddlePieceAPyramid(app: App, treeToken: string): Promise<DeepPiece> {
  const { db, media } = app.deps;
  const tree = db.select({ id: trees.id }).from(trees).where(eq(trees.token, treeToken)).get()!;
  const rows = db
    .select({ top: min(cells.row), bottom: max(cells.row) })
    .from(cells)
    .where(eq(cells.treeId, tree.id))
    .get()!;
  const middleRow = Math.round((rows.top! + rows.bottom!) / 2);
  // The trunk's middle column is 2 (synthetic trees have the default five trunk columns).
  const square = db
    .select({ row: cells.row, column: cells.column, artId: cells.artId })
    .from(cells)
    .where(and(eq(cells.treeId, tree.id), eq(cells.status, CellStatus.Published)))
    .orderBy(sql`abs(${cells.row} - ${middleRow}) + abs(${cells.column} - 2)`)
    .limit(1)
    .get()!;
  const png = await renderArtwork(square.row, DEEP_PICTURE_SIZE, 0, { jpeg: true });
  const picture = await storePicture(media, png, { avif: false });
  const now = Date.now();
  await write(db, async (tx) => {
    await tx.insert(pictures).values({
      token: newToken(),
      artId: square.artId!,
      position: 0,
      ...storedPictureColumns(picture),
      createdAt: now,
    });
    await recordBulkChange(tx, tree.id, now);
  });
  await buildQueuedPyramids(app.deps);
  const descriptor = JSON.parse(
    (await media.get(pyramidDescriptorNameOf(picture.key)))!.toString(),
  ) as PyramidDescriptor;
  return { row: square.row, column: square.column, descriptor };
}

/** The pixels of one tile of a pyramid as cut (its overlap with its neighbours included). */
function tilePixels(d: PyramidDescriptor, level: number, column: number, row: number): number {
  const size = levelSize(d, level);
  const side = (at: number, length: number) =>
    Math.min(length, (at + 1) * d.tileSize + d.overlap) - Math.max(0, at * d.tileSize - d.overlap);
  return side(column, size.width) * side(row, size.height);
}

interface DeepStep {
  /** performance.now() in the page when its notch was given. */
  at: number;
  scale: number;
  level: number | null;
  tiles: number;
  /** Pixels of the tiles asked for at this step's rest ÷ the canvas's device pixels. */
  ratio: number;
}

/**
 * From the view the page opened at into the piece, a Ctrl+wheel notch at a time about the piece's middle, each
 * notch's view left to rest until no tile has been asked for in 400 ms; stops when two notches in a row leave the
 * scale where it was (the second after a second's wait, in case the piece's details or pyramid were still coming).
 */
async function zoomIntoPiece(page: Page, piece: DeepPiece) {
  const asked: { at: number; pixels: number }[] = [];
  page.on('request', (request) => {
    const match = /-dz(\d+)-(\d+)-(\d+)\.webp(?:$|\?)/.exec(request.url());
    if (match)
      asked.push({
        at: Date.now(),
        pixels: tilePixels(piece.descriptor, Number(match[1]), Number(match[2]), Number(match[3])),
      });
  });
  const box = (await page.locator('canvas').first().boundingBox())!;
  const devicePixels = await page.evaluate(() => {
    const canvas = document.querySelector('canvas')!;
    return canvas.width * canvas.height;
  });
  // The opening view's regions (the pieces' tokens and thumbnails) arrive first.
  await page.waitForTimeout(1500);
  const read = () => page.evaluate(() => ({ ...window.__treeStats! }));
  let view = await read();
  const from = view.scale;
  await page.evaluate(() => window.__treeFrames!.reset());
  const started = await page.evaluate(() => performance.now());
  const steps: DeepStep[] = [];
  for (let still = 0; still < 2 && steps.length < DEEP_NOTCHES_MAX;) {
    const point = {
      x: box.x + (piece.column * CELL_PITCH + CELL_SIZE / 2 - view.x) * view.scale,
      y: box.y + (piece.row * CELL_PITCH + CELL_SIZE / 2 - view.y) * view.scale,
    };
    const before = asked.length;
    await page.mouse.move(point.x, point.y);
    const at = await page.evaluate(() => performance.now());
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, -120);
    await page.keyboard.up('Control');
    const grew = await page
      .waitForFunction((scale) => window.__treeStats!.scale > scale, view.scale, { timeout: 3000 })
      .then(
        () => true,
        () => false,
      );
    if (!grew) {
      still++;
      await page.waitForTimeout(1000);
      continue;
    }
    still = 0;
    const rested = Date.now();
    while (Date.now() - Math.max(rested, asked.at(-1)?.at ?? 0) < 400 && Date.now() - rested < 5000)
      await page.waitForTimeout(100);
    view = await read();
    const fetched = asked.slice(before);
    steps.push({
      at,
      scale: view.scale,
      level: view.deepZoomLevel,
      tiles: fetched.length,
      ratio: fetched.reduce((sum, tile) => sum + tile.pixels, 0) / devicePixels,
    });
  }
  const ended = await page.evaluate(() => performance.now());
  return { from, steps, frames: await readFrames(page), window: [started, ended] as [number, number], devicePixels };
}

/**
 * 4: the zoom from the whole 1M tree (its smallest zoom) into a piece's own pixels, a Ctrl+wheel notch at a time:
 * main-thread work per frame over the whole zoom (the engine's record, as in 1), and the pixels of the pyramid's tiles
 * asked for at each deep step against the canvas's device pixels.
 */
async function deepZoomPart(log: Log): Promise<Part> {
  log('generating 1,000,000 cells and a piece with a pyramid in their middle');
  let piece: DeepPiece | undefined;
  const served = await serveSyntheticTree(1_000_000, async (app, treeToken) => {
    piece = await giveMiddlePieceAPyramid(app, treeToken);
  });
  const deep = piece!;
  const browser = await launch();
  let run: Awaited<ReturnType<typeof zoomIntoPiece>>;
  try {
    const search = `&row=${deep.row}&col=${deep.column}&zoom=${TREE_VIEW.zoomMin}`;
    const { page } = await openTreePage(browser, served.url, search);
    log(`zooming into the piece at row ${deep.row}, column ${deep.column}`);
    run = await zoomIntoPiece(page, deep);
  } finally {
    await browser.close();
    await served.close();
  }
  const summary = frameSummary(run.frames, [run.window]);
  const stepOf = (frame: FrameRecord) => {
    const step = run.steps.findLast((s) => s.at <= frame.at);
    return step ? f1(step.scale) : f1(run.from);
  };
  const last = run.steps.at(-1);
  const ownPixels = Math.min(deep.descriptor.width, deep.descriptor.height) / CELL_SIZE;
  const deepSteps = run.steps.filter((step) => step.level !== null);
  const worst = Math.max(...deepSteps.map((step) => step.ratio));
  const framesOk = summary.p95 < 8 && summary.over16InPan === 0;
  const reached = last !== undefined && Math.abs(last.scale - ownPixels) < 1e-6;
  const rows: Row[] = [
    {
      measure: 'zoom into a piece, 1,000,000 cells: frames',
      'main-thread ms p50': f1(summary.p50),
      p95: f1(summary.p95),
      max: f1(summary.max),
      'frames > 16 ms in zoom': summary.over16InPan,
      'max chunk build ms': f1(summary.buildMax),
      'max render() ms': f1(summary.renderMax),
      frames: `${summary.frames} in ${run.steps.length} steps, scale ${run.from} to ${last ? f1(last.scale) : '—'}`,
      target: 'p95 < 8 ms, 0 frames > 16 ms, to the own pixels',
      verdict: met(framesOk && reached),
    },
    {
      measure: 'zoom into a piece, 1,000,000 cells: tiles a screen',
      'tile px ÷ device px': `${worst.toFixed(2)} at most (${deepSteps.map((step) => step.ratio.toFixed(2)).join(', ')})`,
      target: '≤ 1.5',
      verdict: met(worst <= 1.5),
    },
  ];
  return {
    rows,
    head: [
      `The zoom into a piece (decision 048): one published square in the middle of the 1M tree is given a ${DEEP_PICTURE_SIZE} px picture and its pyramid (${deep.descriptor.levels} levels) before the page opens at the tree's smallest zoom (${TREE_VIEW.zoomMin}) centred on it; then Ctrl+wheel notches about its middle, each left to rest until no tile has been asked for in 400 ms, up to the picture's own pixels (scale ${f1(ownPixels)}). The engine jumps a step at a time (no animation between steps), so the zoom's frames are few. Frames: the engine's main-thread time per frame over the whole zoom, rests included. Tiles: the pixels of the tiles asked for at each step past the tree's range (overlap included, the one-tile backdrop in the first) ÷ the canvas's ${run.devicePixels.toLocaleString('en')} device pixels.`,
    ],
    notes: [
      `Zoom into a piece, the steps (scale, level drawn, tiles asked for, tile px ÷ device px): ${run.steps.map((step) => `${f1(step.scale)}/${step.level ?? '—'}/${step.tiles}/${step.ratio.toFixed(2)}`).join(', ')}; slowest frames (total/build/render ms, the scale of the step they came in): ${summary.slowest.map((f) => `${f1(f.total)}/${f1(f.build)}/${f1(f.render)} at ${stepOf(f)}`).join(', ')}.`,
    ],
  };
}

/**
 * Every part, written to bench/results/tree-canvas.*; `BENCH_TREE_ONLY=dom` runs only the DOM comparison (with
 * `BENCH_TREE_ROUNDS` rounds, 3 by default), `BENCH_TREE_ONLY=deep` only the zoom into a piece, `BENCH_TREE_ONLY=first`
 * only the first visit (as many rounds), `BENCH_TREE_ONLY=frames` only the scripted pans and zooms, and each prints
 * its table without writing the results.
 */
export async function benchTreeCanvas(): Promise<string> {
  const started = Date.now();
  await ensureClientBuilt(PROJECT_ROOT, console.log, E2E_CLIENT_DIR);
  const log: Log = (line) => console.log(`[bench:tree ${((Date.now() - started) / 1000).toFixed(0)} s] ${line}`);
  const only = process.env.BENCH_TREE_ONLY;
  const rounds = Number(process.env.BENCH_TREE_ROUNDS) || ROUNDS;
  const parts =
    only === 'dom'
      ? [await domPart(log, rounds)]
      : only === 'deep'
        ? [await deepZoomPart(log)]
        : only === 'first'
          ? [await firstVisitPart(log, rounds)]
          : only === 'frames'
            ? [await framesPart(log)]
            : [await framesPart(log), await domPart(log, rounds), await deepZoomPart(log)];
  const rows = parts.flatMap((part) => part.rows);
  const notes = [
    ...parts.flatMap((part) => part.head),
    `Machine load while this ran (1-minute load average at the end): ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores; other work on the machine shows up as noise in every timing.`,
    `Whole run: ${((Date.now() - started) / 1000).toFixed(0)} s.`,
    ...parts.flatMap((part) => part.notes),
  ];
  // One table: every row gets every column.
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const table = rows.map((row) => Object.fromEntries(columns.map((c) => [c, row[c] ?? ''])));
  const title = 'Tree canvas: frame cost, first frame, memory, a DOM grid for comparison, and the zoom into a piece';
  if (only === 'dom' || only === 'deep' || only === 'first' || only === 'frames')
    return [title, ...table.map((row) => JSON.stringify(row)), ...notes].join('\n');
  // A run with ten million cells is kept apart, so the usual table stays the 1k and 1M one.
  if (process.env.BENCH_10M === '1')
    return writeResults('tree-canvas-10m', `${title}, with ten million cells`, table, notes);
  return writeResults('tree-canvas', title, table, notes);
}
