/**
 * `npm run bench -- hardening`: what floods cost everyone else, the real server on core 0 (each simulated
 * client has its own address, as behind a proxy) and this process on core 1, loopback only, loops bounded in time: a
 * login idle and under a restore-link flood; reads while 50 connections search nonstop; memory under 20 big uploads.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { and, eq } from 'drizzle-orm';
import { cells, users } from '#drizzle/schema.ts';
import { CellStatus, CellType, Role } from '#shared/domain.ts';
import { createSession, SESSION_COOKIE } from '#server/auth/sessions.ts';
import { hashPassword } from '#server/auth/passwords.ts';
import { systemClock } from '#server/clock.ts';
import { closeDatabase, openDatabase } from '#server/db.ts';
import { rebuildSearchIndex } from '#server/services/search/search.ts';
import { generateSyntheticTree } from '#server/seed/synthetic.ts';
import { newToken } from '#server/tokens.ts';
import { REFUSAL_HOLD } from '#server/http/refusal-hold.ts';
import { LIMITS } from '#server/services/rate-limit.ts';
import { PROJECT_ROOT } from '../helpers/paths.ts';
import { startBenchServer } from './bench-server.ts';
import { writeResults } from './results.ts';

const CELLS = Number(process.env.BENCH_CELLS ?? 100_000);
const SERVER_CORE = 0;
const BENCH_CORE = 1;
const CSRF = 'bench-csrf-token-bench-csrf-token-0123';
const PASSWORD = 'bench-password-1!';
const LOGINS = 40;
const RESTORE_FLOODERS = 16;
/** The addresses the flood comes from: one, as the probe that found this flooded. */
const FLOOD_ADDRESSES: number = 1;
const SEARCHERS = 50;
const SEARCH_SECONDS = 10;
const PROBE_MS = 20;
const UPLOADS = 20;
/** Pixels of each upload: a camera's full size. */
const UPLOAD_SIZE = { width: 6000, height: 4000 };

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;
};
const f = (n: number, digits = 1) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let addresses = 0;
/** A new client address (the server trusts X-Forwarded-For here, as behind a proxy). */
const nextAddress = () =>
  `10.${Math.floor(addresses / 62_500) % 250}.${Math.floor(addresses / 250) % 250}.${(addresses++ % 250) + 1}`;

interface Prepared {
  dir: string;
  email: string;
  cellToken: string;
  uploaders: { cookie: string; cellToken: string }[];
}

async function prepare(): Promise<Prepared> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gallery-bench-hardening-'));
  const db = openDatabase(path.join(dir, 'gallery.db'));
  const { treeId } = await generateSyntheticTree(db, { cells: CELLS });
  rebuildSearchIndex(db);
  const now = Date.now();
  const person = (role: number, email: string, passwordHash: string) =>
    db
      .insert(users)
      .values({
        token: newToken(),
        email,
        passwordHash,
        firstname: 'Bench',
        lastname: 'Person',
        role,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: users.id })
      .get().id;
  return hashPassword(PASSWORD, true).then(async (hash) => {
    const email = 'login@bench.gallery-tree.local';
    person(Role.Observer, email, hash);
    const free = db
      .select({ token: cells.token })
      .from(cells)
      .where(and(eq(cells.treeId, treeId), eq(cells.status, CellStatus.Available), eq(cells.type, CellType.Trunk)))
      .limit(UPLOADS + 1)
      .all();
    const uploaders = await Promise.all(
      free.slice(1).map(async (cell, i) => ({
        cookie: `${SESSION_COOKIE}=${(await createSession(db, systemClock, person(Role.Observer, `upload${i}@bench.gallery-tree.local`, '!bench'))).token}; csrf=${CSRF}`,
        cellToken: cell.token,
      })),
    );
    closeDatabase(db);
    return { dir, email, cellToken: free[0]!.token, uploaders };
  });
}

/** A measuring client in its own process (probe-process.ts), pinned to the benchmark's core. */
function probeProcess(url: string, args: string[]): { output: Promise<string>; stop: () => void } {
  const child = spawn(
    'taskset',
    ['-c', String(BENCH_CORE), process.execPath, '--import', 'tsx', 'tests/bench/probe-process.ts', url, ...args],
    {
      cwd: PROJECT_ROOT,
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const output = new Promise<string>((resolve, reject) =>
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`the probe exited with ${code}`)))),
  );
  return { output, stop: () => child.stdin.end('stop\n') };
}

/** Resident memory of a process (bytes). */
function rssOf(pid: number): number {
  const line = fs
    .readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'))!;
  return Number(line.replace(/\D+/g, '')) * 1024;
}

export async function benchHardening(): Promise<string> {
  const prepared = await prepare();
  execFileSync('taskset', ['-pc', String(BENCH_CORE), String(process.pid)], { stdio: 'ignore' });
  const { child, url } = await startBenchServer(prepared.dir, SERVER_CORE, { TRUST_PROXY: 'true' });
  const pid = child.pid!;
  const send = async (
    method: string,
    route: string,
    init: { body?: BodyInit; json?: unknown; cookie?: string; from?: string } = {},
  ) => {
    const started = performance.now();
    const headers: Record<string, string> = {
      'x-forwarded-for': init.from ?? nextAddress(),
      'x-requested-with': 'XMLHttpRequest',
      'x-csrf-token': CSRF,
      cookie: init.cookie ?? `csrf=${CSRF}`,
    };
    if (init.json !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(url + route, {
      method,
      headers,
      body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
    });
    await res.arrayBuffer();
    return { status: res.status, ms: performance.now() - started };
  };
  try {
    // A real login, idle, then while made-up restore links arrive from 16 loops (the logins from their own process).
    const logins = async () =>
      JSON.parse(await probeProcess(url, ['logins', String(LOGINS), prepared.email, PASSWORD]).output) as number[];
    await logins();
    const idle = await logins();
    let flooding = true;
    const restores = { sent: 0, statuses: new Map<number, number>() };
    const flood = Array.from({ length: RESTORE_FLOODERS }, async () => {
      while (flooding) {
        const answer = await send('POST', `/api/password/restore/${newToken(24)}`, {
          json: { password: 'flood&flood1' },
          from: `10.250.0.${(restores.sent % FLOOD_ADDRESSES) + 1}`,
        });
        restores.sent++;
        restores.statuses.set(answer.status, (restores.statuses.get(answer.status) ?? 0) + 1);
      }
    });
    await sleep(500);
    const flooded = await logins();
    flooding = false;
    await Promise.all(flood);

    // 50 connections searching without pause; a probe reads a cell and the health route every 20 ms.
    const prefixes = ['syn', 'art', 'pie', 'the', 'blu', 'red', 'sea', 'a', 'wat', 'sky'];
    let searching = true;
    const searches: { status: number; ms: number }[] = [];
    const searchers = Array.from({ length: SEARCHERS }, async (_, i) => {
      let n = i;
      while (searching) searches.push(await send('GET', `/api/cells/search?search=${prefixes[n++ % prefixes.length]}`));
    });
    const probe = probeProcess(url, ['reads', prepared.cellToken, String(PROBE_MS)]);
    await sleep(SEARCH_SECONDS * 1000);
    probe.stop();
    const probes = JSON.parse(await probe.output) as { cell: number[]; health: number[] };
    searching = false;
    await Promise.all(searchers);
    const answered = searches.filter((s) => s.status === 200).map((s) => s.ms);
    const busy = searches.filter((s) => s.status === 503).length;

    // 20 large uploads at once: the server's resident memory, sampled every 50 ms.
    const image = await sharp({ create: { ...UPLOAD_SIZE, channels: 3, background: { r: 40, g: 120, b: 200 } } })
      .png({ compressionLevel: 1 })
      .toBuffer();
    await sleep(2000);
    const before = rssOf(pid);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 50);
    const uploads = await Promise.all(
      prepared.uploaders.map((uploader, i) => {
        const form = new FormData();
        const fields = {
          title: `Upload ${i}`,
          category: 'Painting',
          subject: 'Landscape',
          style: 'Impressionism',
          year: '2024',
          'medium[]': 'Oil',
          'materials[]': 'Canvas',
          width: '24',
          height: '18',
          depth: '1',
          units: 'in',
          no_size: '0',
          'keywords[]': 'large',
          description: 'A large picture.',
          ai_use: 'none',
        };
        for (const [name, value] of Object.entries(fields)) form.append(name, value);
        form.append('files[0]', new Blob([new Uint8Array(image)], { type: 'image/png' }), 'large.png');
        return send('POST', `/api/cell/${uploader.cellToken}`, { body: form, cookie: uploader.cookie });
      }),
    );
    clearInterval(sampler);
    const uploadStatuses = new Map<number, number>();
    for (const upload of uploads) uploadStatuses.set(upload.status, (uploadStatuses.get(upload.status) ?? 0) + 1);
    const list = (counts: Map<number, number>) => [...counts].map(([status, n]) => `${n} × ${status}`).join(', ');

    const loginRatio = percentile(flooded, 95) / percentile(idle, 95);
    const cellP99 = percentile(probes.cell, 99);
    const healthP99 = percentile(probes.health, 99);
    const searchP99 = percentile(answered, 99);
    return writeResults(
      'hardening',
      'Floods and what they cost everyone else',
      [
        {
          measure: 'login p50 / p95, idle (ms)',
          result: `${f(percentile(idle, 50))} / ${f(percentile(idle, 95))}`,
          target: '',
          met: '',
        },
        {
          measure: `login p50 / p95 under a flood of made-up restore links from ${RESTORE_FLOODERS} loops (ms)`,
          result: `${f(percentile(flooded, 50))} / ${f(percentile(flooded, 95))}`,
          target: '',
          met: '',
        },
        {
          measure: 'login p95 flooded ÷ idle',
          result: f(loginRatio, 2),
          target: '≤ 2',
          met: loginRatio <= 2 ? 'yes' : 'NO',
        },
        {
          measure: `cell read p99 while ${SEARCHERS} connections search (ms)`,
          result: f(cellP99),
          target: '≤ 20',
          met: cellP99 <= 20 ? 'yes' : 'NO',
        },
        {
          measure: `/api/health p99 while ${SEARCHERS} connections search (ms)`,
          result: f(healthP99),
          target: '≤ 20',
          met: healthP99 <= 20 ? 'yes' : 'NO',
        },
        {
          measure: 'search p99, answered searches (ms)',
          result: f(searchP99),
          target: '≤ 250',
          met: searchP99 <= 250 ? 'yes' : 'NO',
        },
        { measure: 'searches answered / told busy (503)', result: `${answered.length} / ${busy}`, target: '', met: '' },
        {
          measure: `server memory while ${UPLOADS} ${UPLOAD_SIZE.width}×${UPLOAD_SIZE.height} uploads arrive at once: before → peak (MB)`,
          result: `${f(before / 2 ** 20, 0)} → ${f(peak / 2 ** 20, 0)} (+${f((peak - before) / 2 ** 20, 0)})`,
          target: '',
          met: '',
        },
      ],
      [
        `${CELLS.toLocaleString('en-US')}-cell synthetic tree, searchable; the server (npm start's app, TRUST_PROXY on, each request from its own address) pinned to core ${SERVER_CORE}, this process to core ${BENCH_CORE}; loopback only.`,
        `Logins: ${LOGINS} one after another, the right password each time. The flood: ${restores.sent} restores from ${FLOOD_ADDRESSES === 1 ? 'one address' : `${FLOOD_ADDRESSES} addresses`} answered (${list(restores.statuses)}); a made-up link is refused before any hashing, and past ${LIMITS.restorePerIp.max} tries an hour an address is refused before any lookup, each refusal held ${REFUSAL_HOLD.holdMs} ms (at most ${REFUSAL_HOLD.perAddress} at once per address).`,
        `Search: ${SEARCH_SECONDS} s; the probe (its own process, like the logins) alternates a cell read and /api/health every ${PROBE_MS} ms (${probes.cell.length} and ${probes.health.length} answers).`,
        `Uploads: ${list(uploadStatuses)} (200 saved, 503 busy past the decoding queue's line, 429 limited).`,
      ],
    );
  } finally {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    fs.rmSync(prepared.dir, { recursive: true, force: true });
  }
}
