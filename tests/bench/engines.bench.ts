/**
 * `npm run bench -- engines`: SQLite and PostgreSQL side by side over the same gallery (decision 037). The server
 * benchmark's synthetic tree (prepare() of server.bench.ts) gets members with sessions and as many AVAILABLE squares;
 * the gallery is copied into a throwaway PostgreSQL with the real scripts/migrate-to-postgres.ts; then, on each
 * engine in turn, REST cell reads and search under wrk and reservations (write transactions) from a small load
 * generator; on PostgreSQL also how soon a change made through one host reaches another host's event stream, and
 * whether a follower of /changes sees every change exactly once while four writers write at the same time.
 */
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { cells, trees, useTablesOf } from '#drizzle/tables.ts';
import { closeDatabase, openDatabase, type Db } from '#server/db.ts';
import { closeAppDatabase, openAppDatabase } from '#server/open-database.ts';
import { searchCells } from '#server/services/search/search.ts';
import { openStream } from '../helpers/event-stream.ts';
import { PROJECT_ROOT } from '../helpers/paths.ts';
import {
  createDatabase,
  postgresWatchdog,
  startPostgresServer,
  stopPostgresServer,
} from '../helpers/postgres-server.ts';
import { checkChangesOrder, type Verdict } from '../helpers/server/changes-order.ts';
import { startBenchServer, stopBenchServer } from './bench-server.ts';
import { addReservers, type Pair } from './engines-reservers.ts';
import { reserveLoad, type ReserveResult } from './engines-reserve-load.ts';
import { percentile, writeResults, type Row } from './results.ts';
import { pinSelf, prepare, searchScript } from './server.bench.ts';
import { requireTools, runWrk, waitUntilIdle, type WrkResult } from './wrk.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
/** Members with a session, each with a square of their own to reserve (one reservation at a time, never cancelled). */
const RESERVERS = Number(process.env.BENCH_RESERVERS ?? 5200);
/** The change-order check's changes per writer (2,500 answers the target; smaller only for trial runs). */
const ORDER_CHANGES_EACH = Number(process.env.BENCH_ORDER_CHANGES ?? 2500);
const ORDER_WRITERS = 4;
const WARM_SECONDS = 2;
const CONNECTIONS = 50;
const RESERVE_CONCURRENCY = 8;
/** Reservations made to warm each engine's write path, before the measured ones (pairs of their own). */
const WARM_RESERVATIONS = Math.min(100, Math.floor(RESERVERS / 20));
/** The share of the measured pairs kept for reservations one member at a time (the rest go to the 8-member run). */
const ALONE_SHARE = 0.2;
/**
 * The rate the write's latency target is judged at (writes a second, started on time whatever the answers): the
 * throughput the target asks for. Its pairs are kept aside from the 8-member run's.
 */
const PACED_RATE = 200;
const PACED_PAIRS = PACED_RATE * SECONDS;
/** Reservations through host A timed until they reach host B's event stream. */
const FRESHNESS_CHANGES = 30;
/** Squares the change-order writers cycle through. */
const ORDER_SQUARES = 1000;
const SERVER_CORE = 0;
const LOAD_CORE = 1;
/**
 * PostgreSQL's core: the app's by default (app and database share one core, as SQLite shares it with the app);
 * BENCH_POSTGRES_CORE=1 gives it the load generator's instead, nearer a database on a machine of its own.
 */
const POSTGRES_CORE = Number(process.env.BENCH_POSTGRES_CORE ?? SERVER_CORE);
/**
 * BENCH_POSTGRES_DURABLE=1: PostgreSQL keeps its defaults (fsync, full-page writes, each commit flushed before it is
 * answered), as in production; otherwise it runs as the tests run it, waiting for no disk.
 */
const POSTGRES_DURABLE = process.env.BENCH_POSTGRES_DURABLE === '1';
const EVERY_CORE = `0-${os.cpus().length - 1}`;
const DATABASE = 'gallery_bench';

const run = promisify(execFile);
const fixed = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : '-');
const whole = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en') : '-');

/** Pins the PostgreSQL server to `core`: the postmaster (its backends, forked later, inherit it) and its helpers now running. */
function pinPostgres(dir: string, core: number): number {
  const postmaster = Number(fs.readFileSync(path.join(dir, 'data/postmaster.pid'), 'utf8').split('\n')[0]);
  const children = fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return (
          Number(
            fs
              .readFileSync(`/proc/${pid}/stat`, 'utf8')
              .replace(/^.*\) /, '')
              .split(' ')[1],
          ) === postmaster
        );
      } catch {
        return false;
      }
    });
  for (const pid of [String(postmaster), ...children])
    execFileSync('taskset', ['-a', '-p', '-c', String(core), pid], { stdio: 'ignore' });
  return postmaster;
}

/** Copies the gallery of `dataDir` into the database at `url` with the project's own command; answers its wall time. */
async function migrate(dataDir: string, url: string): Promise<{ seconds: number; output: string }> {
  const started = performance.now();
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'scripts/migrate-to-postgres.ts', url], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
      maxBuffer: 16 * 2 ** 20,
    });
    return { seconds: (performance.now() - started) / 1000, output: `${stdout}${stderr}` };
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`migrate-to-postgres failed:\n${stdout}${stderr}`);
  }
}

interface EngineResult {
  rest: WrkResult;
  search: WrkResult;
  reserve: ReserveResult;
  reserveAlone: ReserveResult;
  reservePaced: ReserveResult;
}

/** One server on the engine (pinned to the server core), then REST reads, search and reservations against it. */
async function benchEngine(
  label: string,
  dir: string,
  env: Record<string, string>,
  cellToken: string,
  lua: string,
  pairs: Pair[],
): Promise<EngineResult> {
  const { child, url } = await startBenchServer(dir, SERVER_CORE, { TRUST_PROXY: 'true', ...env });
  try {
    for (const check of [`${url}/api/cell/${cellToken}`, `${url}/api/cells/search?search=tre`]) {
      const res = await fetch(check, { headers: { 'x-forwarded-for': '10.255.255.1' } });
      if (res.status !== 200) throw new Error(`${label}: ${check} answered ${res.status}: ${await res.text()}`);
    }
    const scenarios: [string, string | undefined][] = [
      [`${url}/api/cell/${cellToken}`, undefined],
      [`${url}/api/cells/search`, lua],
    ];
    const wrk = async ([target, script]: [string, string | undefined], seconds: number) => {
      await waitUntilIdle(child.pid!);
      return runWrk({
        url: target,
        connections: CONNECTIONS,
        core: LOAD_CORE,
        script,
        serverPid: child.pid!,
        seconds,
      });
    };
    console.log(`${label}: warming REST, search and reservations, then measuring each for ${SECONDS} s...`);
    for (const scenario of scenarios) await wrk(scenario, WARM_SECONDS);
    const warm = pairs.slice(0, WARM_RESERVATIONS);
    const warmed = await reserveLoad({ url, pairs: warm, concurrency: RESERVE_CONCURRENCY, seconds: WARM_SECONDS });
    if (warmed.errors > 0)
      console.warn(`${label}: ${warmed.errors} warm-up reservations failed: ${warmed.errorSample.join(' | ')}`);
    const rest = await wrk(scenarios[0]!, SECONDS);
    const search = await wrk(scenarios[1]!, SECONDS);
    await waitUntilIdle(child.pid!);
    const alonePairs = Math.floor((pairs.length - WARM_RESERVATIONS - PACED_PAIRS) * ALONE_SHARE);
    const aloneFrom = pairs.length - alonePairs;
    const pacedFrom = aloneFrom - PACED_PAIRS;
    const reserve = await reserveLoad({
      url,
      pairs: pairs.slice(WARM_RESERVATIONS, pacedFrom),
      concurrency: RESERVE_CONCURRENCY,
      seconds: SECONDS,
      serverPid: child.pid!,
    });
    // The same write one member at a time, on the pairs left: the transaction's own latency, without the queue that
    // eight members at once make on one core.
    await waitUntilIdle(child.pid!);
    const reserveAlone = await reserveLoad({
      url,
      pairs: pairs.slice(aloneFrom),
      concurrency: 1,
      seconds: SECONDS,
      serverPid: child.pid!,
    });
    // Writes started at the target's rate, whatever the answers: each write's latency while the engine sustains it.
    await waitUntilIdle(child.pid!);
    const reservePaced = await reserveLoad({
      url,
      pairs: pairs.slice(pacedFrom, aloneFrom),
      concurrency: 0,
      ratePerSecond: PACED_RATE,
      seconds: SECONDS,
      serverPid: child.pid!,
    });
    return { rest, search, reserve, reserveAlone, reservePaced };
  } finally {
    await stopBenchServer(child);
  }
}

/** Reservations through host A, each timed from its request until host B's event stream names its square. */
async function measureFreshness(
  hostA: string,
  hostB: string,
  treeToken: string,
  pairs: Pair[],
): Promise<{ delays: number[]; errors: string[] }> {
  const stream = await openStream(hostB, `/api/tree/${treeToken}/events`);
  const delays: number[] = [];
  const errors: string[] = [];
  try {
    if (stream.status !== 200) throw new Error(`host B's event stream answered ${stream.status}: ${stream.body}`);
    for (const pair of pairs) {
      const started = performance.now();
      const arrived = stream.next((event) => event.data.includes(pair.square), 5000);
      const res = await fetch(`${hostA}/api/cell/${pair.square}/reserve`, { method: 'POST', headers: pair.headers });
      const body = await res.text();
      if (res.status !== 200) {
        errors.push(`POST /api/cell/{token}/reserve answered ${res.status}: ${body.slice(0, 200)}`);
        await arrived.catch(() => {});
        continue;
      }
      try {
        await arrived;
        delays.push(performance.now() - started);
      } catch (error) {
        errors.push(`not on host B's stream within 5 s: ${(error as Error).message.slice(0, 200)}`);
      }
      await sleep(150);
    }
    return { delays, errors };
  } finally {
    stream.close();
  }
}

/** Four writers (this process's own handle, as a third host) while a follower asks host A's /changes over HTTP. */
async function checkOrder(dbUrl: string, hostA: string, treeToken: string): Promise<Verdict> {
  const db = await openAppDatabase({ databaseFile: '', databaseUrl: dbUrl });
  try {
    const [tree] = await db.select({ id: trees.id }).from(trees).where(eq(trees.token, treeToken));
    const squareIds = (
      await db.select({ id: cells.id }).from(cells).where(eq(cells.treeId, tree!.id)).limit(ORDER_SQUARES)
    ).map((c) => c.id);
    return await checkChangesOrder({
      db,
      treeId: tree!.id,
      squareIds,
      writers: ORDER_WRITERS,
      changesEach: ORDER_CHANGES_EACH,
      // A different address a request: an address may ask 600 times a minute, this follower asks thousands of times.
      ask: async (since, asked) => {
        const res = await fetch(`${hostA}/api/tree/${treeToken}/changes?since=${since}`, {
          headers: { 'x-forwarded-for': `10.${(asked >> 16) & 255}.${(asked >> 8) & 255}.${asked & 255}` },
        });
        return { status: res.status, body: await res.text() };
      },
    });
  } finally {
    await closeAppDatabase(db);
    useTablesOf('sqlite');
  }
}

/** Average ms of one search over the prefixes, straight on the database (no HTTP, no rate limit), after a warm round. */
async function directSearchMs(db: Db, prefixes: string[]): Promise<number> {
  for (const prefix of prefixes) await searchCells(db, prefix);
  const rounds = 2;
  const started = performance.now();
  for (let r = 0; r < rounds; r++) for (const prefix of prefixes) await searchCells(db, prefix);
  return (performance.now() - started) / (rounds * prefixes.length);
}

const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
const wrkCell = (r: WrkResult) =>
  `${whole(r.rps)} req/s (p50 ${fixed(r.p50)} ms, p99 ${fixed(r.p99)} ms, app ${whole(r.cpuUsPerRequest)} µs CPU/req, ${r.errors} errors)`;
const reserveCell = (r: ReserveResult) =>
  `${whole(r.writesPerSecond)} writes/s (${r.ok.toLocaleString('en')} in ${fixed(r.seconds, 1)} s, app ${whole(r.cpuUsPerRequest)} µs CPU/req, ${r.errors} errors)`;
const latencyCell = (r: ReserveResult) =>
  `p50 ${fixed(percentile(r.latencies, 50))} / p95 ${fixed(percentile(r.latencies, 95))} / p99 ${fixed(percentile(r.latencies, 99))} ms`;

export async function benchEngines(): Promise<string> {
  requireTools();
  useTablesOf('sqlite');
  const folders: string[] = [];
  const servers: Awaited<ReturnType<typeof startBenchServer>>['child'][] = [];
  let postgres: { dir: string; bin: string; watchdog: number | undefined } | null = null;
  try {
    console.log('Preparing the gallery (the server benchmark’s tree, search pieces and logins)...');
    const p = await prepare();
    folders.push(p.dir);
    const sqliteDb = openDatabase(path.join(p.dir, 'gallery.db'));
    const { pairs, available } = await addReservers(sqliteDb, p.treeToken, RESERVERS + FRESHNESS_CHANGES);
    closeDatabase(sqliteDb);
    const loadPairs = pairs.slice(0, Math.max(0, pairs.length - FRESHNESS_CHANGES));
    const freshPairs = pairs.slice(loadPairs.length);
    const lua = searchScript(p.dir, p.prefixes);

    const pgDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gallery-bench-postgres-'));
    folders.push(pgDir);
    console.log('Starting PostgreSQL and copying the gallery into it with migrate-to-postgres...');
    const started = await startPostgresServer(pgDir, { durable: POSTGRES_DURABLE });
    postgres = { dir: pgDir, bin: started.bin, watchdog: postgresWatchdog(pgDir) };
    pinPostgres(pgDir, POSTGRES_CORE);
    const dbUrl = await createDatabase(started.url, DATABASE);
    const migration = await migrate(p.dir, dbUrl);
    console.log(migration.output.trim().split('\n').slice(-3).join('\n'));

    pinSelf(LOAD_CORE);
    // The copy ends with ANALYZE (migrate-to-postgres), so the planner knows the tables as a running gallery's would.
    console.log('Timing search directly on both engines...');
    const sqliteFile = openDatabase(path.join(p.dir, 'gallery.db'));
    const sqliteSearchMs = await directSearchMs(sqliteFile, p.prefixes);
    closeDatabase(sqliteFile);
    const pgDb = await openAppDatabase({ databaseFile: '', databaseUrl: dbUrl });
    let pgSearchMs = NaN;
    try {
      pgSearchMs = await directSearchMs(pgDb, p.prefixes);
    } finally {
      await closeAppDatabase(pgDb);
      useTablesOf('sqlite');
    }

    const sqlite = await benchEngine('SQLite', p.dir, {}, p.cellToken, lua, loadPairs);
    const hostDirs = ['a', 'b'].map((name) => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), `gallery-bench-host-${name}-`));
      folders.push(dir);
      return dir;
    });
    const pg = await benchEngine('PostgreSQL', hostDirs[0]!, { DATABASE_URL: dbUrl }, p.cellToken, lua, loadPairs);

    console.log('PostgreSQL, two hosts: a change through host A on host B’s event stream, then the change order...');
    const hosts: string[] = [];
    for (const dir of hostDirs) {
      const host = await startBenchServer(dir, SERVER_CORE, { TRUST_PROXY: 'true', DATABASE_URL: dbUrl });
      servers.push(host.child);
      hosts.push(host.url);
    }
    const [hostA, hostB] = hosts as [string, string];
    const freshness = await measureFreshness(hostA, hostB, p.treeToken, freshPairs);
    const order = await checkOrder(dbUrl, hostA, p.treeToken);
    await Promise.all(servers.map(stopBenchServer));

    const ratio = (pgValue: number, sqliteValue: number) => pgValue / sqliteValue;
    const restRatio = ratio(pg.rest.rps, sqlite.rest.rps);
    const searchRatio = ratio(pg.search.rps, sqlite.search.rps);
    const pgP95 = percentile(pg.reserve.latencies, 95);
    const pacedP95 = percentile(pg.reservePaced.latencies, 95);
    const delays = freshness.delays;
    const freshP95 = percentile(delays, 95);
    const faults = order.missed + order.broken + order.odd;
    const rows: Row[] = [
      {
        measure: `Copy SQLite → PostgreSQL (migrate-to-postgres, wall time)`,
        SQLite: '-',
        PostgreSQL: `${fixed(migration.seconds, 1)} s`,
        'PostgreSQL ÷ SQLite': '-',
        target: 'report',
        verdict: '-',
      },
      {
        measure: `searchCells straight on the database (${p.prefixes.length} prefixes, no HTTP)`,
        SQLite: `${fixed(sqliteSearchMs)} ms a search`,
        PostgreSQL: `${fixed(pgSearchMs)} ms a search`,
        'PostgreSQL ÷ SQLite': `${fixed(sqliteSearchMs / pgSearchMs)} (by speed)`,
        target: 'report',
        verdict: '-',
      },
      {
        measure: 'GET /api/cell/{token} (REST read)',
        SQLite: wrkCell(sqlite.rest),
        PostgreSQL: wrkCell(pg.rest),
        'PostgreSQL ÷ SQLite': fixed(restRatio),
        target: '≥ 0.5',
        verdict: met(restRatio >= 0.5 && pg.rest.errors === 0),
      },
      {
        measure: `GET /api/cells/search (3-letter prefixes, ${p.searchable.toLocaleString('en')} pieces)`,
        SQLite: wrkCell(sqlite.search),
        PostgreSQL: wrkCell(pg.search),
        'PostgreSQL ÷ SQLite': fixed(searchRatio),
        target: '≥ 0.5',
        verdict: met(searchRatio >= 0.5 && pg.search.errors === 0),
      },
      {
        measure: `POST /api/cell/{token}/reserve (${RESERVE_CONCURRENCY} members at once), throughput`,
        SQLite: reserveCell(sqlite.reserve),
        PostgreSQL: reserveCell(pg.reserve),
        'PostgreSQL ÷ SQLite': fixed(ratio(pg.reserve.writesPerSecond, sqlite.reserve.writesPerSecond)),
        target: 'PostgreSQL ≥ 200 writes/s, 0 errors',
        verdict: met(pg.reserve.writesPerSecond >= 200 && pg.reserve.errors === 0),
      },
      {
        measure: `POST /api/cell/{token}/reserve (${RESERVE_CONCURRENCY} members at once), latency per request`,
        SQLite: latencyCell(sqlite.reserve),
        PostgreSQL: latencyCell(pg.reserve),
        'PostgreSQL ÷ SQLite': `p95 ${fixed(ratio(pgP95, percentile(sqlite.reserve.latencies, 95)))}`,
        target: `report (the queue of ${RESERVE_CONCURRENCY} in flight: about ${RESERVE_CONCURRENCY} ÷ writes a second)`,
        verdict: '-',
      },
      {
        measure: `POST /api/cell/{token}/reserve, started at ${PACED_RATE} writes/s whatever the answers, latency per request`,
        SQLite: `${latencyCell(sqlite.reservePaced)}, ${reserveCell(sqlite.reservePaced)}`,
        PostgreSQL: `${latencyCell(pg.reservePaced)}, ${reserveCell(pg.reservePaced)}`,
        'PostgreSQL ÷ SQLite': `p95 ${fixed(ratio(pacedP95, percentile(sqlite.reservePaced.latencies, 95)))}`,
        target: `PostgreSQL p95 ≤ 15 ms at ${PACED_RATE} writes/s, 0 errors`,
        verdict: met(
          pacedP95 <= 15 && pg.reservePaced.errors === 0 && pg.reservePaced.ok === pg.reservePaced.latencies.length,
        ),
      },
      {
        measure: 'POST /api/cell/{token}/reserve, one member at a time (no queue), latency per request',
        SQLite: `${latencyCell(sqlite.reserveAlone)}, ${reserveCell(sqlite.reserveAlone)}`,
        PostgreSQL: `${latencyCell(pg.reserveAlone)}, ${reserveCell(pg.reserveAlone)}`,
        'PostgreSQL ÷ SQLite': `p95 ${fixed(ratio(percentile(pg.reserveAlone.latencies, 95), percentile(sqlite.reserveAlone.latencies, 95)))}`,
        target: 'report',
        verdict: '-',
      },
      {
        measure: `A reservation through host A on host B's event stream (${delays.length} of ${freshPairs.length} arrived)`,
        SQLite: '-',
        PostgreSQL: `p50 ${fixed(percentile(delays, 50))} / p95 ${fixed(freshP95)} / max ${fixed(Math.max(...delays))} ms`,
        'PostgreSQL ÷ SQLite': '-',
        target: 'p95 ≤ 250 ms',
        verdict: met(freshP95 <= 250 && freshness.errors.length === 0),
      },
      {
        measure: `/changes followed on host A while ${ORDER_WRITERS} writers record ${ORDER_CHANGES_EACH.toLocaleString('en')} changes each`,
        SQLite: '-',
        PostgreSQL: `${order.logged.toLocaleString('en')} logged: ${order.missed} missed, ${order.broken} broken, ${order.odd} odd`,
        'PostgreSQL ÷ SQLite': '-',
        target: '0 gaps or duplicates',
        verdict: met(faults === 0 && order.logged === ORDER_WRITERS * ORDER_CHANGES_EACH),
      },
    ];
    const engines: [string, EngineResult][] = [
      ['SQLite', sqlite],
      ['PostgreSQL', pg],
    ];
    const problems = [
      ...engines.flatMap(([name, r]) =>
        [...r.reserve.errorSample, ...r.reserveAlone.errorSample, ...r.reservePaced.errorSample].map(
          (e) => `${name} reservation not 200: ${e}`,
        ),
      ),
      ...freshness.errors.slice(0, 5).map((e) => `Host A → host B: ${e}`),
      ...order.oddSample.map((e) => `/changes answered oddly: ${e}`),
    ];
    const [place, heading] =
      POSTGRES_CORE === SERVER_CORE
        ? ['engines', 'SQLite and PostgreSQL side by side']
        : ['engines-postgres-own-core', 'SQLite and PostgreSQL side by side, PostgreSQL on a core of its own'];
    const [results, title] = POSTGRES_DURABLE ? [`${place}-durable`, `${heading}, durable`] : [place, heading];
    const durability = POSTGRES_DURABLE
      ? "PostgreSQL with its durable defaults (fsync, full-page writes, every commit flushed to disk before it is answered; SQLite's synchronous=NORMAL flushes at checkpoints only)"
      : 'a throwaway PostgreSQL (fsync and synchronous_commit off, as the tests run it)';
    return writeResults(results, title, rows, [
      `One gallery on both engines: the server benchmark's synthetic tree and search pieces, plus ${pairs.length.toLocaleString('en')} members with a session, each paired with an AVAILABLE square of the bench tree (${available.toLocaleString('en')} there), written into SQLite and then copied into ${durability} with scripts/migrate-to-postgres.ts. The copy ends with ANALYZE, so the planner knows the copied tables (without it a prefix search read the whole search table); search is also timed straight on each database (searchCells in this process, no HTTP).`,
      `Each engine in turn: one app server (LOG_LEVEL=warn, jobs off, TRUST_PROXY=true) pinned to core ${SERVER_CORE}; PostgreSQL is pinned to core ${POSTGRES_CORE} (the postmaster with taskset -a, so the backends it forks inherit it, and its helper processes)${POSTGRES_CORE === SERVER_CORE ? ': app and database share one core, as SQLite shares it with the app' : ', with the load: as a database on a machine of its own, the app has its core to itself'}. wrk (-t1 -c${CONNECTIONS}) and this process's load generator run on core ${LOAD_CORE}. Every path warmed for ${WARM_SECONDS} s, then measured for ${SECONDS} s; "app µs CPU/req" counts the app process only, not PostgreSQL's.`,
      `Reservations: ${RESERVE_CONCURRENCY} members at a time over fetch with keep-alive, each request a fresh member reserving a fresh square (a member holds one reservation and cannot cancel it), for ${SECONDS} s or until the pairs ran out; ${WARM_RESERVATIONS} pairs warm each engine first; then one member at a time for ${SECONDS} s on pairs of its own (${ALONE_SHARE * 100}% of them), which shows the write without the queue (with 8 requests always in flight on one core, latency is about 8 ÷ writes a second); then ${PACED_PAIRS.toLocaleString('en')} pairs of their own started at ${PACED_RATE} a second on time, whether or not the ones before were answered (an open loop, as visitors arrive): the write's latency while the engine sustains the target's rate, on which the p95 target is judged. Both engines get the same pairs (the copy was made before any reservation). Latency is per request, client side; every answer other than 200 counts as an error.`,
      `Two hosts: two app servers (both on core ${SERVER_CORE}) with data folders of their own on one database. ${FRESHNESS_CHANGES} reservations through host A (pairs kept aside), each timed from its request until host B's /api/tree/{token}/events names its square, 150 ms apart. Then ${ORDER_WRITERS} writers in this process (its own database handle, as a third host) record ${ORDER_CHANGES_EACH.toLocaleString('en')} changes each on ${ORDER_SQUARES} squares while a follower asks host A's /api/tree/{token}/changes?since= over HTTP (a different X-Forwarded-For each request); every logged change must lie in exactly one answer.`,
      'Taken on a shared, busy 2-core machine: compare the ratios, which are measured in the same run, rather than the absolute numbers.',
      ...problems,
    ]);
  } finally {
    pinSelf(EVERY_CORE);
    await Promise.all(servers.map(stopBenchServer));
    if (postgres) {
      await stopPostgresServer(postgres.dir, postgres.bin);
      if (postgres.watchdog) {
        try {
          process.kill(postgres.watchdog);
        } catch {
          // Already gone.
        }
      }
    }
    for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
  }
}
