/**
 * `npm run bench -- audience` (decisions 033 and 034): the live tree through a shared cache. Two app processes (the
 * benchmarks' server process, TRUST_PROXY on, LIVE_TRANSPORT=poll) on one data folder holding a 100,000-cell synthetic
 * tree (BENCH_CELLS), deploy/nginx.conf in front as the front-door tests run it (tests/helpers/server/nginx.ts), and
 * viewers long-polling /changes through nginx exactly as the page does, in processes of their own
 * (audience-viewers.ts): 100 viewers, then 10,000 (BENCH_VIEWERS), each while 2 changes a second are committed to the
 * shared database by this process (as a third process on the data folder would), with /api/health asked of the
 * origin every 20 ms. Then, for comparison, 5,000 event streams straight to one app process, the same writes.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { eq } from 'drizzle-orm';
import { cells, trees } from '#drizzle/schema.ts';
import { closeDatabase, type Db, openDatabase, write as writeTransaction } from '#server/db.ts';
import { recordCellChanges } from '#server/services/tree/tree-changes.ts';
import { PROJECT_ROOT } from '../helpers/paths.ts';
import { nginxBinary, startNginx, type Nginx } from '../helpers/server/nginx.ts';
import { freePorts } from '../helpers/server-processes.ts';
import type { FinishOrder, OpenOrder, Opened, ViewersResult } from './audience-viewers.ts';
import { startBenchServer, stopBenchServer } from './bench-server.ts';
import { EVERY_CORE } from './processes.bench.ts';
import { generatedTree } from './generated-tree.ts';
import { processStats } from './process-stats.ts';
import { percentile, writeResults, type Row } from './results.ts';

const CELLS = Number(process.env.BENCH_CELLS ?? 100_000);
const VIEWERS = Number(process.env.BENCH_VIEWERS ?? 10_000);
const FEW_VIEWERS = 100;
const STREAMS = Number(process.env.BENCH_STREAMS ?? 5_000);
const WRITE_SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
/** The 100-viewer phase and the streams are shorter: their per-change figures settle sooner. */
const FEW_SECONDS = Math.min(WRITE_SECONDS, 40);
const STREAM_SECONDS = Math.min(WRITE_SECONDS, 30);
const CHANGES_PER_SECOND = 2;
/** Changes before anything is measured, so the origin's code paths are compiled (a fresh process interprets them). */
const WARM_CHANGES = 20;
/** The viewers' processes for the large phase, and how fast the crowd arrives (all processes together). */
const VIEWER_PROCESSES = 4;
const STREAM_PROCESSES = 2;
const OPEN_PER_SECOND = 1_000;
/**
 * Viewers per loopback address: a long-polling viewer has one of its own (nginx passes it on, and the origin's rate
 * limit on /changes counts per address); streams go 5 to an address (the server takes 8 an address).
 */
const POLLS_PER_ADDRESS = 1;
const STREAMS_PER_ADDRESS = 5;
/**
 * Origin CPU measured with no writes before and after each phase's writes (the idle rate subtracted from them): a
 * phase's viewers hold polls for at most 25 s, so a quiet spell is kept well under that.
 */
const IDLE_SECONDS = 8;
const IDLE_AFTER_SECONDS = 5;
/** How long the viewers are given, after the last write, to reach it. */
const FINISH_MS = 20_000;
const PROBE_MS = 20;
/**
 * The app processes, nginx, the writer and the probe run on every core, as on a server; so do the viewers, at a lower
 * priority: they stand in for machines elsewhere.
 */
const VIEWER_NICE = 10;
/** How long the probe's process is given to start before the writes it measures. */
const PROBE_START_MS = 2000;

const TARGETS = { requestsMean: 1.05, requestsMax: 2, p95Ms: 1000, missed: 0, cpuRatio: 1.2, healthP99Ms: 20 };

const nowMs = () => performance.timeOrigin + performance.now();
const f = (n: number, digits = 1) =>
  Number.isFinite(n)
    ? n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : String(n);
const met = (ok: boolean) => (ok ? 'yes' : 'NO');

interface Prepared {
  dir: string;
  treeToken: string;
  treeId: number;
  /** Cells whose changes the writer logs, one a change. */
  cellIds: number[];
}

async function prepare(changes: number): Promise<Prepared> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gallery-bench-audience-'));
  const file = path.join(dir, 'gallery.db');
  fs.copyFileSync(await generatedTree(CELLS), file);
  const db = openDatabase(file);
  const { token: treeToken, id: treeId } = db.select({ token: trees.token, id: trees.id }).from(trees).get()!;
  const cellIds = db
    .select({ id: cells.id })
    .from(cells)
    .where(eq(cells.treeId, treeId))
    .limit(changes)
    .all()
    .map((c) => c.id);
  closeDatabase(db);
  return { dir, treeToken, treeId, cellIds };
}

/** The open-file limits (soft, hard) this process has, which nginx and the viewers' processes start with. */
function fileLimits(): { soft: number; hard: number } {
  const line = fs
    .readFileSync('/proc/self/limits', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('Max open files'))!;
  const [soft, hard] = line
    .replace('Max open files', '')
    .trim()
    .split(/\s+/)
    .map((v) => (v === 'unlimited' ? Infinity : Number(v)));
  return { soft: soft!, hard: hard! };
}

/** A process of viewers (audience-viewers.ts), at a lower priority, its open-file limit raised. */
class ViewerProcess {
  private readonly child: ChildProcess;
  private readonly exited: Promise<void>;

  constructor(files: number) {
    // A shell raises the soft limit (up to the hard one, which needs no privilege), then becomes Node: the IPC
    // channel's descriptor passes through both.
    this.child = spawn(
      'nice',
      [
        '-n',
        String(VIEWER_NICE),
        'sh',
        '-c',
        `ulimit -n ${files} 2>/dev/null; exec "$0" "$@"`,
        process.execPath,
        '--import',
        'tsx',
        'tests/bench/audience-viewers.ts',
      ],
      { cwd: PROJECT_ROOT, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
    );
    this.exited = new Promise((resolve) => this.child.once('exit', () => resolve()));
  }

  private ask<T>(order: OpenOrder | FinishOrder, type: string): Promise<T> {
    return new Promise((resolve, reject) => {
      const onMessage = (message: { type: string }) => {
        if (message.type !== type) return;
        this.child.off('message', onMessage);
        resolve(message as T);
      };
      this.child.on('message', onMessage);
      this.child.once('exit', (code) => reject(new Error(`a viewers' process exited (${code}) before answering`)));
      this.child.send(order);
    });
  }

  open(order: OpenOrder): Promise<Opened> {
    return this.ask<Opened>(order, 'opened');
  }

  async finish(order: FinishOrder): Promise<ViewersResult> {
    const result = await this.ask<ViewersResult>(order, 'result');
    await this.exited;
    return result;
  }

  async kill(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill('SIGKILL');
    await this.exited;
  }
}

/** Viewers spread over `processes` processes; resolves once every one has made its first request. */
async function openViewers(
  mode: 'poll' | 'stream',
  port: number,
  token: string,
  since: number,
  count: number,
  processes: number,
): Promise<{ groups: ViewerProcess[]; ready: number; ms: number }> {
  const per = Math.ceil(count / processes);
  const perAddress = mode === 'poll' ? POLLS_PER_ADDRESS : STREAMS_PER_ADDRESS;
  const groups = Array.from({ length: processes }, () => new ViewerProcess(per + 100));
  const opened = await Promise.all(
    groups.map((group, i) =>
      group.open({
        type: 'open',
        mode,
        port,
        token,
        since,
        count: Math.min(per, count - i * per),
        perSecond: OPEN_PER_SECOND / processes,
        perAddress,
        firstAddress: Math.ceil(per / perAddress) * i,
      }),
    ),
  );
  return {
    groups,
    ready: opened.reduce((sum, o) => sum + o.ready, 0),
    ms: Math.max(...opened.map((o) => o.ms)),
  };
}

interface Seen {
  viewers: number;
  /** Every viewer's latency for every change, as a histogram: [ms, count]. */
  latencies: Map<number, number>;
  missed: number;
  incomplete: number;
  resyncs: number;
  mismatches: number;
  requests: number;
  withChanges: number;
  nothingNew: number;
  statuses: Record<string, number>;
  failures: number;
  dropped: number;
  connections: number;
  cpuMs: number;
}

async function finishViewers(groups: ViewerProcess[], commits: [number, number][]): Promise<Seen> {
  const results = await Promise.all(
    groups.map((group) => group.finish({ type: 'finish', commits, deadlineMs: FINISH_MS })),
  );
  const seen: Seen = {
    viewers: 0,
    latencies: new Map(),
    missed: 0,
    incomplete: 0,
    resyncs: 0,
    mismatches: 0,
    requests: 0,
    withChanges: 0,
    nothingNew: 0,
    statuses: {},
    failures: 0,
    dropped: 0,
    connections: 0,
    cpuMs: 0,
  };
  for (const r of results) {
    for (const key of [
      'viewers',
      'missed',
      'incomplete',
      'resyncs',
      'mismatches',
      'requests',
      'withChanges',
      'nothingNew',
      'failures',
      'dropped',
      'connections',
      'cpuMs',
    ] as const)
      seen[key] += r[key];
    for (const [ms, n] of r.latencies) seen.latencies.set(ms, (seen.latencies.get(ms) ?? 0) + n);
    for (const [status, n] of Object.entries(r.statuses)) seen.statuses[status] = (seen.statuses[status] ?? 0) + n;
  }
  return seen;
}

/** The p-th percentile of a histogram of whole milliseconds. */
function histogramPercentile(histogram: Map<number, number>, p: number): number {
  const entries = [...histogram].sort((a, b) => a[0] - b[0]);
  const total = entries.reduce((sum, [, n]) => sum + n, 0);
  if (total === 0) return NaN;
  const rank = Math.min(total - 1, Math.floor((p / 100) * total));
  let below = 0;
  for (const [ms, n] of entries) {
    below += n;
    if (below > rank) return ms;
  }
  return entries.at(-1)![0];
}

/**
 * `n` changes, 2 a second, each a transaction logging one cell; `before(i)` runs just before the i-th. Answers
 * [version, committed at] per change.
 */
async function write(
  db: Db,
  prepared: Prepared,
  next: { cell: number },
  n: number,
  before: (i: number) => void = () => {},
): Promise<[number, number][]> {
  const commits: [number, number][] = [];
  const started = nowMs();
  for (let i = 0; i < n; i++) {
    await sleep(Math.max(0, started + (i * 1000) / CHANGES_PER_SECOND - nowMs()));
    before(i);
    const cellId = prepared.cellIds[next.cell++]!;
    const version = await writeTransaction(db, async (tx) =>
      recordCellChanges(tx, prepared.treeId, [cellId], Date.now()),
    );
    commits.push([version, nowMs()]);
  }
  return commits;
}

function getJson<T>(url: string): Promise<T> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve((JSON.parse(body) as { r: T }).r));
      })
      .on('error', reject);
  });
}

/** GET /api/health at each origin in turn every PROBE_MS, in a process of its own (probe-process.ts). */
function startProbe(urls: string[]): { stop: () => Promise<[number, number, number][]> } {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'tests/bench/probe-process.ts', urls[0]!, 'health', String(PROBE_MS), ...urls.slice(1)],
    { cwd: PROJECT_ROOT, stdio: ['pipe', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    async stop() {
      child.stdin!.end('stop\n');
      await exited;
      return JSON.parse(out) as [number, number, number][];
    },
  };
}

/** nginx's master, workers and cache manager (not the cache loader, which ends a minute after the start). */
function nginxPids(nginx: Nginx): number[] {
  const master = nginx.process.pid!;
  const children = fs
    .readFileSync(`/proc/${master}/task/${master}/children`, 'utf8')
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map(Number)
    .filter((pid) => !fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('cache loader'));
  return [master, ...children];
}

/** "nginx 1.22.1", as `nginx -v` says it. */
function nginxVersion(): string {
  const said = spawnSync(nginxBinary(), ['-v'], { encoding: 'utf8' }).stderr;
  return /nginx\/(\S+)/.exec(said)?.[0].replace('/', ' ') ?? 'nginx';
}

const cpuOf = (pids: number[]) => pids.reduce((sum, pid) => sum + processStats(pid).cpuMs, 0);
const rssOf = (pids: number[]) => pids.reduce((sum, pid) => sum + processStats(pid).rss, 0);

/** Median resident memory of `pids` together, sampled every second for `seconds`. */
async function medianRss(pids: number[], seconds: number): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < seconds; i++) {
    samples.push(rssOf(pids));
    await sleep(1000);
  }
  return percentile(samples, 50);
}

/** The CPU (ms) `pids` use in each second, sampled until `stop` is called. */
function cpuSeconds(pids: number[]): { stop: () => number[] } {
  const samples: number[] = [];
  let last = cpuOf(pids);
  const timer = setInterval(() => {
    const now = cpuOf(pids);
    samples.push(now - last);
    last = now;
  }, 1000);
  return {
    stop: () => {
      clearInterval(timer);
      return samples;
    },
  };
}

/** The CPU (ms) `pids` use in each of `seconds` seconds. */
async function cpuFor(pids: number[], seconds: number): Promise<number[]> {
  const sampler = cpuSeconds(pids);
  await sleep(seconds * 1000 + 100);
  return sampler.stop();
}

interface Phase {
  commits: [number, number][];
  /** The version before the first change. */
  before: number;
  t0: number;
  t1: number;
  /** The origin's CPU in each second with the viewers holding their polls, no writes and no probe (before, after). */
  idle: number[];
  /** ... and in each second of the writes after the probe (the last two thirds of them). */
  writing: number[];
  /** Origin CPU per change: the median second of the writes less the median idle second, over the changes a second. */
  cpuPerChange: number;
  /** Origin CPU over those changes, divided by them, nothing subtracted. */
  rawCpuPerChange: number;
  /** The changes the CPU was measured over. */
  cpuChanges: number;
  nginxCpuPerChange: number;
  /** /api/health latencies over the first third of the writes: [at, ms, which origin]. */
  health: [number, number, number][];
}

/**
 * The origin's idle CPU (no writes, no probe), then `n` changes: the probe asks /api/health during the first third
 * and stops; the origin's CPU is measured over the other two thirds (the probe's 50 requests a second cost the origin
 * several times what a change does: without them, a change's cost is not a small difference of large numbers), then
 * idle again. Without `probeUrls`, no probe and the CPU over all the changes. Per-second samples and medians: the
 * shared machine and the processes' own garbage collection put spikes of tens of milliseconds into a few seconds.
 */
async function measuredWrites(
  db: Db,
  prepared: Prepared,
  next: { cell: number },
  n: number,
  origin: number[],
  front: number[],
  probeUrls: string[] | null,
): Promise<Phase> {
  const idleBefore = await cpuFor(origin, IDLE_SECONDS);
  const probe = probeUrls ? startProbe(probeUrls) : null;
  if (probe) await sleep(PROBE_START_MS);
  const before = db.select({ version: trees.version }).from(trees).where(eq(trees.id, prepared.treeId)).get()!.version;
  const withProbe = probe ? Math.floor(n / 3) : 0;
  const n0 = cpuOf(front);
  const t0 = nowMs();
  let mid = { at: t0, cpu: cpuOf(origin), sampler: probe ? null : cpuSeconds(origin) };
  let probed: Promise<[number, number, number][]> = Promise.resolve([]);
  const commits = await write(db, prepared, next, n, (i) => {
    if (i !== withProbe || !probe) return;
    mid = { at: nowMs(), cpu: cpuOf(origin), sampler: cpuSeconds(origin) };
    probed = probe.stop();
  });
  await sleep(1000);
  const t1 = nowMs();
  const writing = mid.sampler!.stop();
  const cpu = cpuOf(origin) - mid.cpu;
  const nginxCpu = cpuOf(front) - n0;
  const idle = [...idleBefore, ...(await cpuFor(origin, IDLE_AFTER_SECONDS))];
  const cpuChanges = n - withProbe;
  return {
    commits,
    before,
    t0,
    t1,
    idle,
    writing,
    cpuPerChange: (percentile(writing, 50) - percentile(idle, 50)) / CHANGES_PER_SECOND,
    rawCpuPerChange: cpu / cpuChanges,
    cpuChanges,
    nginxCpuPerChange: nginxCpu / n,
    health: (await probed).filter(([at]) => at >= t0 && at <= mid.at),
  };
}

interface LongPolls {
  bySince: Record<string, number>;
  answeredAt: Record<string, number>;
}

/** The long-polls that reached the app processes (server-process.ts counts them), both processes together. */
async function originLongPolls(urls: string[]): Promise<LongPolls> {
  const all: LongPolls = { bySince: {}, answeredAt: {} };
  for (const url of urls) {
    const one = await getJson<LongPolls>(`${url}/bench/long-polls`);
    for (const [since, n] of Object.entries(one.bySince)) all.bySince[since] = (all.bySince[since] ?? 0) + n;
    for (const [since, at] of Object.entries(one.answeredAt))
      all.answeredAt[since] = Math.min(all.answeredAt[since] ?? Infinity, at);
  }
  return all;
}

/** The version each change was made from (what its long-polls asked since). */
const sinceOf = (phase: Phase, i: number) => String(i === 0 ? phase.before : phase.commits[i - 1]![0]);

/** Origin requests for each change: the long-polls that asked from the version before it, held or answered at once. */
const requestsPerChange = (phase: Phase, polls: LongPolls) =>
  phase.commits.map((_, i) => polls.bySince[sinceOf(phase, i)] ?? 0);

/** Commit → the origin's first answer with it (ms), per change that had one. */
const originDelays = (phase: Phase, polls: LongPolls) =>
  phase.commits.flatMap(([, at], i) => {
    const answered = polls.answeredAt[sinceOf(phase, i)];
    return answered === undefined ? [] : [answered - at];
  });

interface LogTally {
  /** Long-polls by cache status, and how many nginx sent on to an app process. */
  cache: Record<string, number>;
  upstream: number;
  lines: number;
  /** HITs answered at once (the answer was stored before the request came) and after waiting behind the lock. */
  hitAtOnce: number;
  hitAfterWait: number;
}

/** What nginx logged for the long-polls between two offsets of its access log. */
async function accessLogTally(file: string, start: number, end: number): Promise<LogTally> {
  const tally: LogTally = { cache: {}, upstream: 0, lines: 0, hitAtOnce: 0, hitAfterWait: 0 };
  if (end <= start) return tally;
  const input = readline.createInterface({ input: fs.createReadStream(file, { start, end: end - 1 }) });
  for await (const line of input) {
    if (!line.includes('/changes?')) continue;
    tally.lines++;
    const status = /"cache":"([A-Z]*)"/.exec(line)?.[1] || '-';
    tally.cache[status] = (tally.cache[status] ?? 0) + 1;
    if (!line.includes('"upstream":""')) tally.upstream++;
    if (status === 'HIT') {
      if (line.includes('"seconds":0.000')) tally.hitAtOnce++;
      else tally.hitAfterWait++;
    }
  }
  return tally;
}

const fileSize = (file: string) => (fs.existsSync(file) ? fs.statSync(file).size : 0);
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
const mb = (bytes: number) => f(bytes / 2 ** 20, 0);

export async function benchAudience(): Promise<string> {
  const limits = fileLimits();
  // nginx's workers keep this process's limit (deploy/nginx.conf asks for more, which only root may take), and one
  // worker may hold every viewer; the viewers' processes raise theirs up to the hard limit.
  const viewers = Math.min(VIEWERS, limits.soft - 1_000, limits.hard - 1_000);
  const writes = { few: FEW_SECONDS * CHANGES_PER_SECOND, many: WRITE_SECONDS * CHANGES_PER_SECOND };
  const streamChanges = STREAM_SECONDS * CHANGES_PER_SECOND;
  const prepared = await prepare(WARM_CHANGES + 1 + writes.many + 1 + writes.few + streamChanges + 10);
  const load = [os.loadavg()[0]!];
  const [app1, app2, site, redirect] = await freePorts(4);
  const env = { TRUST_PROXY: 'true', SITE_URL: `http://127.0.0.1:${site}`, LIVE_TRANSPORT: 'poll' };
  const apps: { child: ChildProcess; url: string }[] = [];
  let nginx: Nginx | null = null;
  const groups: ViewerProcess[] = [];
  const db = openDatabase(path.join(prepared.dir, 'gallery.db'));
  try {
    // One after the other: each opens (and would migrate) the same database at start-up.
    for (const port of [app1!, app2!]) apps.push(await startBenchServer(prepared.dir, EVERY_CORE, env, port));
    const origin = apps.map((app) => app.child.pid!);
    const urls = apps.map((app) => app.url);
    nginx = await startNginx({ apps: [app1!, app2!], site: site!, redirect: redirect! });
    const front = nginxPids(nginx);
    const version = () =>
      db.select({ version: trees.version }).from(trees).where(eq(trees.id, prepared.treeId)).get()!.version;
    const next = { cell: 0 };

    // --- Warm-up: changes to a few viewers, so that the origin's code paths are compiled (a fresh process
    // interprets them at first).
    console.log(`audience: ${WARM_CHANGES} warm-up changes`);
    const warm = await openViewers('poll', site!, prepared.treeToken, version(), FEW_VIEWERS, 1);
    groups.push(...warm.groups);
    await write(db, prepared, next, WARM_CHANGES);
    await finishViewers(warm.groups, []);
    groups.length = 0;

    // --- 10,000 viewers: the crowd arrives, one change moves it onto fresh polls, then the measured writes.
    console.log(`audience: opening ${viewers.toLocaleString('en-US')} long-polling viewers through nginx`);
    await sleep(2000);
    const rssBefore = { origin: rssOf(origin), nginx: rssOf(front) };
    const logAtOpen = fileSize(nginx.accessLogFile);
    const many = await openViewers('poll', site!, prepared.treeToken, version(), viewers, VIEWER_PROCESSES);
    groups.push(...many.groups);
    await write(db, prepared, next, 1);
    await sleep(3000);
    const rssWith = { origin: rssOf(origin), nginx: rssOf(front) };
    console.log(`audience: ${writes.many} changes over ${WRITE_SECONDS} s to ${f(many.ready, 0)} viewers`);
    const logAtWrites = fileSize(nginx.accessLogFile);
    const manyPhase = await measuredWrites(db, prepared, next, writes.many, origin, front, urls);
    const logAtEnd = fileSize(nginx.accessLogFile);
    const manySeen = await finishViewers(many.groups, manyPhase.commits);
    groups.length = 0;
    load.push(os.loadavg()[0]!);

    // --- 100 viewers, the same way: the baseline (after the large phase, so the origin is no colder for it).
    console.log(`audience: ${writes.few} changes over ${FEW_SECONDS} s to ${FEW_VIEWERS} viewers`);
    const few = await openViewers('poll', site!, prepared.treeToken, version(), FEW_VIEWERS, 1);
    groups.push(...few.groups);
    // As above: the polls the large phase's viewers left behind at the last version (nginx sends the next waiter on
    // to the origin each time one leaves) are not this phase's.
    await write(db, prepared, next, 1);
    await sleep(2000);
    const fewPhase = await measuredWrites(db, prepared, next, writes.few, origin, front, urls);
    const fewSeen = await finishViewers(few.groups, fewPhase.commits);
    groups.length = 0;
    const polls = await originLongPolls(urls);

    // --- For comparison: event streams straight to one app process, no cache.
    console.log(`audience: ${STREAMS.toLocaleString('en-US')} event streams direct to one process`);
    const streamPid = origin[0]!;
    const streamRssBefore = await medianRss([streamPid], 5);
    const streams = await openViewers('stream', app1!, prepared.treeToken, version(), STREAMS, STREAM_PROCESSES);
    groups.push(...streams.groups);
    await sleep(3000);
    const streamRssWith = await medianRss([streamPid], 5);
    const streamPhase = await measuredWrites(db, prepared, next, streamChanges, [streamPid], [], null);
    const streamSeen = await finishViewers(streams.groups, streamPhase.commits);
    groups.length = 0;
    load.push(os.loadavg()[0]!);

    const tallyOpen = await accessLogTally(nginx.accessLogFile, logAtOpen, logAtWrites);
    const tallyWrites = await accessLogTally(nginx.accessLogFile, logAtWrites, logAtEnd);
    return report({
      viewers,
      limits,
      load,
      front,
      few: { phase: fewPhase, seen: fewSeen, opened: few },
      many: { phase: manyPhase, seen: manySeen, opened: many },
      streams: { phase: streamPhase, seen: streamSeen, opened: streams },
      polls,
      memory: { rssBefore, rssWith, streamRssBefore, streamRssWith },
      tallies: { open: tallyOpen, writes: tallyWrites },
    });
  } finally {
    await Promise.all(groups.map((group) => group.kill()));
    await nginx?.stop();
    await Promise.all(apps.map((app) => stopBenchServer(app.child)));
    closeDatabase(db);
    fs.rmSync(prepared.dir, { recursive: true, force: true });
  }
}

interface Run {
  phase: Phase;
  seen: Seen;
  opened: { ready: number; ms: number };
}

function report(r: {
  viewers: number;
  limits: { soft: number; hard: number };
  load: number[];
  front: number[];
  few: Run;
  many: Run;
  streams: Run;
  polls: LongPolls;
  memory: {
    rssBefore: { origin: number; nginx: number };
    rssWith: { origin: number; nginx: number };
    streamRssBefore: number;
    streamRssWith: number;
  };
  tallies: { open: LogTally; writes: LogTally };
}): string {
  const { few, many, streams, polls, memory } = r;
  const manyRequests = requestsPerChange(many.phase, polls);
  const fewRequests = requestsPerChange(few.phase, polls);
  const cpuRatio = many.phase.cpuPerChange / few.phase.cpuPerChange;
  const p = (seen: Seen, q: number) => histogramPercentile(seen.latencies, q);
  const health = (run: Run) => run.phase.health.map(([, ms]) => ms);
  const manyHealth = health(many);
  const fewHealth = health(few);
  const origin = (run: Run) => originDelays(run.phase, polls);
  const viewersLabel = f(many.opened.ready, 0);

  const columns = {
    many: `${viewersLabel} viewers, long-polls through nginx`,
    few: `${FEW_VIEWERS} viewers, long-polls through nginx`,
    streams: `${f(STREAMS, 0)} event streams direct, one process`,
  };
  const row = (measure: string, values: [string, string, string], target = '', ok = ''): Row => ({
    measure,
    [columns.many]: values[0],
    [columns.few]: values[1],
    [columns.streams]: values[2],
    target,
    met: ok,
  });
  const latencies = (seen: Seen) => `${f(p(seen, 50), 0)} / ${f(p(seen, 99), 0)} / ${f(p(seen, 100), 0)}`;
  const rows: Row[] = [
    row(
      `origin requests to /changes per change per cache, ${viewersLabel} long-polling viewers through nginx, ${CHANGES_PER_SECOND} changes/s for ${WRITE_SECONDS} s: mean / max`,
      [
        `${f(mean(manyRequests), 2)} / ${Math.max(...manyRequests)}`,
        `${f(mean(fewRequests), 2)} / ${Math.max(...fewRequests)}`,
        '— (no cache: every stream is written to by the origin)',
      ],
      `≤ ${TARGETS.requestsMean} (mean), ≤ ${TARGETS.requestsMax} (max)`,
      met(mean(manyRequests) <= TARGETS.requestsMean && Math.max(...manyRequests) <= TARGETS.requestsMax),
    ),
    row(
      'commit → viewer p95 (ms)',
      [f(p(many.seen, 95), 0), f(p(few.seen, 95), 0), f(p(streams.seen, 95), 0)],
      `≤ ${f(TARGETS.p95Ms, 0)} (through the cache)`,
      met(p(many.seen, 95) <= TARGETS.p95Ms),
    ),
    row('commit → viewer p50 / p99 / max (ms)', [latencies(many.seen), latencies(few.seen), latencies(streams.seen)]),
    row('commit → the origin answering the held long-poll, p50 / p95 (ms)', [
      `${f(percentile(origin(many), 50), 0)} / ${f(percentile(origin(many), 95), 0)}`,
      `${f(percentile(origin(few), 50), 0)} / ${f(percentile(origin(few), 95), 0)}`,
      '',
    ]),
    row(
      'viewers that missed or skipped a change (not at the last version, a resync, or an answer not from their version)',
      [f(many.seen.incomplete, 0), f(few.seen.incomplete, 0), f(streams.seen.incomplete, 0)],
      String(TARGETS.missed),
      met(many.seen.incomplete <= TARGETS.missed),
    ),
    row('origin CPU per change, the idle rate subtracted (ms)', [
      f(many.phase.cpuPerChange, 2),
      f(few.phase.cpuPerChange, 2),
      `${f(streams.phase.cpuPerChange, 2)} (the one process)`,
    ]),
    row(
      `origin CPU per change, ${viewersLabel} viewers ÷ ${FEW_VIEWERS} viewers (same run)`,
      [
        f(cpuRatio, 2),
        '1',
        `${f(streams.phase.cpuPerChange / few.phase.cpuPerChange, 1)} (÷ ${FEW_VIEWERS} long-polls)`,
      ],
      `≤ ${TARGETS.cpuRatio}`,
      met(cpuRatio <= TARGETS.cpuRatio),
    ),
    row('origin CPU per change, nothing subtracted (ms)', [
      f(many.phase.rawCpuPerChange, 2),
      f(few.phase.rawCpuPerChange, 2),
      f(streams.phase.rawCpuPerChange, 2),
    ]),
    row(
      '/api/health p99 at the origin meanwhile (ms)',
      [f(percentile(manyHealth, 99)), f(percentile(fewHealth, 99)), ''],
      `≤ ${TARGETS.healthP99Ms}`,
      met(percentile(manyHealth, 99) <= TARGETS.healthP99Ms),
    ),
    row('/api/health p50 / max at the origin meanwhile (ms)', [
      `${f(percentile(manyHealth, 50))} / ${f(Math.max(...manyHealth))}`,
      `${f(percentile(fewHealth, 50))} / ${f(Math.max(...fewHealth))}`,
      '',
    ]),
    row(
      'memory (MB): origin RSS, both processes / nginx RSS, all processes',
      [
        `${mb(memory.rssWith.origin)} / ${mb(memory.rssWith.nginx)} (before the viewers: ${mb(memory.rssBefore.origin)} / ${mb(memory.rssBefore.nginx)})`,
        '',
        `${mb(memory.streamRssWith)}, the one process (${mb(memory.streamRssBefore)} before the streams: +${mb(memory.streamRssWith - memory.streamRssBefore)})`,
      ],
      'report',
    ),
    row('nginx CPU per change (ms)', [f(many.phase.nginxCpuPerChange, 1), f(few.phase.nginxCpuPerChange, 1), '—']),
  ];

  const statuses = (seen: Seen) =>
    Object.entries(seen.statuses)
      .map(([status, n]) => `${status} × ${f(n, 0)}`)
      .join(', ');
  const seenText = (seen: Seen) =>
    `${f(seen.requests, 0)} requests (answers ${statuses(seen)}; ${f(seen.withChanges, 0)} with changes, ${f(seen.nothingNew, 0)} "nothing new"), ${f(seen.failures, 0)} broken connections, ${f(seen.dropped, 0)} polls dropped unanswered after wait + grace, ${f(seen.missed, 0)} (viewer, change) pairs never reached, ${seen.resyncs} resyncs, ${seen.mismatches} answers not from the version asked; the viewers' processes used ${f(seen.cpuMs / 1000)} s of CPU`;
  const tallyText = (t: LogTally) =>
    `${f(t.lines, 0)} long-polls (${Object.entries(t.cache)
      .map(([s, n]) => `${s} ${f(n, 0)}`)
      .join(', ')}), ${f(t.upstream, 0)} sent on to an app process`;
  const spread = new Map<number, number>();
  for (const n of manyRequests) spread.set(n, (spread.get(n) ?? 0) + 1);
  const spreadText = [...spread]
    .sort((a, b) => a[0] - b[0])
    .map(([requests, changes]) => `${requests}: ${changes}`)
    .join(', ');
  const cpuText = (run: Run) => `${f(percentile(run.phase.writing, 50))} / ${f(percentile(run.phase.idle, 50))}`;
  const { writes } = r.tallies;
  const notes = [
    `${CELLS.toLocaleString('en-US')}-cell synthetic tree. Two app processes (tests/bench/server-process.ts, the real app: TRUST_PROXY=true, LIVE_TRANSPORT=poll, LONG_POLLS_MAX at its default) on one data folder; ${nginxVersion()} with deploy/nginx.conf as the front-door tests run it (tests/helpers/server/nginx.ts: ports, paths and user substituted, TLS off; ${r.front.length} processes); all of them, the writer and the probe on every core, the viewers' processes too but at nice ${VIEWER_NICE} (they stand in for machines elsewhere, so they yield to the server's side); loopback only. The machine is shared with other work: load average ${r.load.map((l) => f(l)).join(', ')} at the start, after the large phase and at the end (1-minute averages).`,
    `Viewers: plain HTTP/1.1 clients on raw sockets (tests/bench/audience-viewers.ts), ${VIEWER_PROCESSES} processes for the large phase and 1 for the small, each viewer its own kept-alive connection to nginx from a loopback address of its own (nginx passes it on as X-Forwarded-For: the origin's rate limit on /changes, 600 a minute, counts per address), following its own version exactly as the page does with LIVE_TRANSPORT=poll (client/tree/live-tree.ts's wait, grace, backoff and pace): ask since=V&wait=25, apply the answer, ask since=<its version>. All start at the tree's version, as if each had just loaded the snapshot. ${r.viewers < VIEWERS ? `Only ${f(r.viewers, 0)} of the ${f(VIEWERS, 0)} asked for: the open-file limit (soft ${r.limits.soft}, hard ${r.limits.hard}) leaves room for no more at nginx. ` : ''}They arrive at ${f(OPEN_PER_SECOND, 0)} a second: ${viewersLabel} of ${f(r.viewers, 0)} ready in ${f(many.opened.ms / 1000)} s.`,
    `Writes: ${CHANGES_PER_SECOND} changes a second, each a transaction logging one cell (recordCellChanges), committed to the shared database by the benchmark's process as a third process on the data folder would. In order: ${WARM_CHANGES} warm-up changes to ${FEW_VIEWERS} viewers, ${many.phase.commits.length} measured with ${viewersLabel} viewers, ${few.phase.commits.length} with ${FEW_VIEWERS} (after the large phase, so that the origin is no colder for the baseline), ${streams.phase.commits.length} with the streams.`,
    `Origin requests: each app process counts the long-polls reaching it by their since, as they arrive (tests/bench/server-process.ts); a change's count is the requests asking from the version before it, held until it or answered at once. With ${viewersLabel} viewers, changes by their count (requests: changes): ${spreadText}; a change that cost none came in the same answer as the one after it. nginx's log over those writes: ${tallyText(writes)}; while the crowd arrived: ${tallyText(r.tallies.open)}. Why more than one: nginx counts the requests that have looked up a cache entry in 10 bits (\`uses\` in ngx_http_file_cache_node_t). While the first answer for an address is awaited, every 1,024th request finds the count wrapped to 0, under proxy_cache_min_uses (1): it is passed to an app process on its own, past the lock, and its answer is not kept. So N viewers waiting on one address cost 1 + N/1,024 origin requests (10 for 10,000: the first change after the quiet spell). Seen when this benchmark was written: nginx's debug log for such a request says "http upstream cache: 8" (scarce), then "http cacheable: 0"; 2,000 and 3,000 viewers waiting on a quiet tree cost 2 and 3 origin requests a change, and 1 with proxy_cache_min_uses 0 added to the location (not in deploy/nginx.conf: untested beyond that). The rest: viewers asking for an address after its answer had expired (max-age=1 keeps it 1 to 2 s), so that one request refreshed it (EXPIRED) and the others took the stale copy (UPDATING). Seen in a run with every viewer on one address (127.0.0.1): those 10 origin requests a change, all counted against that address, passed the rate limit within the minute; the origin's 429s are not kept, so each one let the requests waiting on the lock through, one after another: 6,831 origin requests for one change, 6,891 viewers refused and waiting out Retry-After (commit → viewer p95 26 s). Behind a CDN whose address nginx does not replace (realip), every viewer has the CDN's few addresses, as here.`,
    `Latency: from the commit's return in the writer to the arrival of the answer (or event) bringing a viewer to that version or past it, every viewer and every measured change. Its parts: the app's feed looks at the log every 100 ms and answers the held poll (the origin row: the first answer with changes for that since leaving either process); nginx's cache lock makes each waiting request look again every 500 ms; then nginx sends the answer to every viewer waiting and takes each one's next poll. Of the ${f(writes.hitAtOnce + writes.hitAfterWait, 0)} HITs over the writes with ${viewersLabel} viewers, ${f((100 * writes.hitAtOnce) / Math.max(1, writes.hitAtOnce + writes.hitAfterWait), 0)}% found the answer already stored when they arrived (request time 0): those viewers were behind the cache, not waiting on it. nginx used ${f(many.phase.nginxCpuPerChange, 0)} ms of CPU per change (${f((many.phase.nginxCpuPerChange * CHANGES_PER_SECOND) / 10, 0)}% of a core at ${CHANGES_PER_SECOND} changes a second) and the viewers' processes ${f(many.seen.cpuMs / 1000, 1)} s in all.`,
    `Missed or skipped: a viewer counts when it is not at the last version ${FINISH_MS / 1000} s after the last write, or met a resync, a 400 or an answer whose since was not the version it asked from. ${viewersLabel} viewers: ${seenText(many.seen)}. ${FEW_VIEWERS} viewers: ${seenText(few.seen)}. Streams: ${seenText(streams.seen)}.`,
    `Origin CPU: both app processes' threads' time on a CPU (/proc/<pid>/task/*/schedstat), sampled every second over the last two thirds of each phase's writes and 1 s after the last (${many.phase.cpuChanges} and ${few.phase.cpuChanges} changes), once the probe has stopped (its 50 requests a second cost the origin several times what a change does), and over ${IDLE_SECONDS} s before the writes and ${IDLE_AFTER_SECONDS} s after with no writes and no probe, the viewers holding polls. Per change: the median second while writing less the median idle second, divided by the ${CHANGES_PER_SECOND} changes a second (medians: the shared machine and the processes' garbage collection put spikes of tens of milliseconds into a few seconds). Median seconds, writing / idle (ms): ${cpuText(many)} with ${viewersLabel} viewers, ${cpuText(few)} with ${FEW_VIEWERS}. Streams: the one process over all ${streams.phase.commits.length} changes, the same way (${cpuText(streams)}). The row with nothing subtracted is the whole CPU over the same changes divided by them (spikes included). nginx's CPU is over every change of the phase.`,
    `Health: GET /api/health every ${PROBE_MS} ms at each app process in turn, from a process of its own (tests/bench/probe-process.ts), during the first third of each phase's writes (${f(manyHealth.length, 0)} answers with ${viewersLabel} viewers).`,
    `Memory: resident memory (VmRSS) of both app processes together and of nginx's processes together, before the ${viewersLabel} viewers arrived and with them holding polls; streams: the process's median over 5 s with the ${f(streams.opened.ready, 0)} streams open (${STREAMS_PER_ADDRESS} a loopback address; the server takes 8) and before.`,
  ];
  return writeResults('audience', 'Live tree through a shared cache: the audience', rows, notes);
}
