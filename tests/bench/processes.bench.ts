/**
 * Part of `npm run bench:server`: two server processes on one data folder (SQLite in WAL mode lets both open it)
 * against one process, for REST reads and the tree snapshot. Servers and wrk are left on every core, since the
 * question is whether a second process makes use of the second core.
 */
import type { ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { eq } from 'drizzle-orm';
import { cells } from '#drizzle/schema.ts';
import { closeDatabase, openDatabase, write } from '#server/db.ts';
import { getTreeByToken } from '#server/services/tree/tree.ts';
import { recordCellChanges } from '#server/services/tree/tree-changes.ts';
import { openStream, type OpenStream } from '../helpers/event-stream.ts';
import { startBenchServer, stopBenchServer } from './bench-server.ts';
import { runWrkTogether, waitUntilIdle, type WrkResult } from './wrk.ts';

export const EVERY_CORE = `0-${os.cpus().length - 1}`;

export interface ProcessesRun {
  dir: string;
  cellToken: string;
  treeToken: string;
  /** Total wrk connections, split evenly over two wrk runs. */
  connections: number;
  seconds: number;
  warmSeconds: number;
  env: Record<string, string>;
}

export interface OneAndTwo {
  one: WrkResult;
  two: WrkResult;
}

export async function benchProcesses(
  run: ProcessesRun,
): Promise<{ rest: OneAndTwo; snapshot: OneAndTwo; freshness: number[] }> {
  const children: ChildProcess[] = [];
  try {
    // One after the other: each opens (and would migrate) the same database at start-up.
    const servers: { pid: number; url: string }[] = [];
    for (let i = 0; i < 2; i++) {
      const { child, url } = await startBenchServer(run.dir, EVERY_CORE, run.env);
      children.push(child);
      servers.push({ pid: child.pid!, url });
    }
    const [first, second] = servers as [{ pid: number; url: string }, { pid: number; url: string }];

    /**
     * Two wrk runs of half the connections each, at the same time, aimed at the given servers. One process gets both
     * runs, so that the load generator has the same shape (two wrk processes) with one server as with two.
     */
    const load = async (
      targets: [typeof first, typeof first],
      route: string,
      headers: Record<string, string>,
      seconds: number,
    ) => {
      await Promise.all(servers.map((server) => waitUntilIdle(server.pid)));
      const halves = [Math.ceil(run.connections / 2), Math.floor(run.connections / 2)];
      return runWrkTogether(
        targets.map((server, i) => ({
          url: server.url + route,
          connections: halves[i]!,
          core: EVERY_CORE,
          headers,
          serverPid: server.pid,
          seconds,
        })),
      );
    };
    const measure = async (route: string, headers: Record<string, string>): Promise<OneAndTwo> => {
      await load([first, second], route, headers, run.warmSeconds);
      const one = await load([first, first], route, headers, run.seconds);
      const two = await load([first, second], route, headers, run.seconds);
      return { one, two };
    };
    const rest = await measure(`/api/cell/${run.cellToken}`, {});
    const snapshot = await measure(`/api/tree/${run.treeToken}`, { 'Accept-Encoding': 'br, gzip' });
    const freshness = await measureFreshness(run, [first.url, second.url]);
    return { rest, snapshot, freshness };
  } finally {
    await Promise.all(children.map(stopBenchServer));
  }
}

const FRESHNESS_CHANGES = 30;

/**
 * How soon a change written by another process reaches the event streams of both servers: this process writes a
 * cell change into the shared database (as a third server would), and times its arrival on a stream of each.
 * Answers every arrival's delay (ms).
 */
async function measureFreshness(run: ProcessesRun, urls: string[]): Promise<number[]> {
  const db = openDatabase(path.join(run.dir, 'gallery.db'));
  const streams: OpenStream[] = [];
  try {
    const tree = await getTreeByToken(db, run.treeToken);
    const cellIds = db
      .select({ id: cells.id })
      .from(cells)
      .where(eq(cells.treeId, tree.id))
      .limit(FRESHNESS_CHANGES)
      .all();
    for (const url of urls) streams.push(await openStream(url, `/api/tree/${run.treeToken}/events`));
    const delays: number[] = [];
    for (const { id } of cellIds) {
      const started = performance.now();
      const version = await write(db, async (tx) => recordCellChanges(tx, tree.id, [id], Date.now()));
      await Promise.all(
        streams.map(async (stream) => {
          await stream.next((event) => Number(event.id) >= version, 5000);
          delays.push(performance.now() - started);
        }),
      );
      await sleep(150);
    }
    return delays;
  } finally {
    for (const stream of streams) stream.close();
    closeDatabase(db);
  }
}
