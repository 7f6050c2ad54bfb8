/**
 * A bounded load on loopback: two rounds of 1,200 requests, 20 at a time (snapshot, cell details, search,
 * health), to the real server over a searchable synthetic tree: no 5xx, no connection error, no memory growth per
 * request. Speed is the benchmark's business, not this test's.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { art, cells } from '#drizzle/schema.ts';
import { ArtStatus } from '#shared/domain.ts';
import { closeDatabase, openDatabase } from '#server/db.ts';
import { rebuildSearchIndex } from '#server/services/search/search.ts';
import { generateSyntheticTree } from '#server/seed/synthetic.ts';
import { tempDir } from '#tests/helpers/server/test-app.ts';
import { startRealServer, stopRealServer, type RealServer } from '../helpers/server/real-server.ts';

const ROUND = 1200;
const CONCURRENCY = 20;
/** A generous bound: allocator and JIT noise move RSS by a few MB; a per-request leak of even 20 KB shows as 24. */
const RSS_GROWTH_LIMIT = 50 * 2 ** 20;

let server: RealServer;
let treeToken: string;
let cellTokens: string[];
let prefixes: string[];

beforeAll(async () => {
  const dataDir = tempDir('gallery-load-');
  const db = openDatabase(path.join(dataDir, 'gallery.db'));
  treeToken = (await generateSyntheticTree(db, { cells: 5000 })).treeToken;
  rebuildSearchIndex(db);
  cellTokens = db
    .select({ token: cells.token })
    .from(cells)
    .limit(200)
    .all()
    .map((c) => c.token);
  const titles = db.select({ title: art.title }).from(art).where(eq(art.status, ArtStatus.Published)).limit(300).all();
  prefixes = [
    ...new Set(titles.flatMap((a) => a.title.toLowerCase().match(/\p{L}{3,}/gu) ?? []).map((word) => word.slice(0, 3))),
  ];
  closeDatabase(db);
  server = await startRealServer(dataDir, { TRUST_PROXY: 'true' });
}, 60_000);

afterAll(async () => {
  if (server) expect(await stopRealServer(server)).toBe(0);
});

/** The server process's resident memory, from the kernel. */
function rssOf(pid: number): number {
  const line = fs
    .readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'))!;
  return Number(/(\d+)/.exec(line)![1]) * 1024;
}

function requestFor(i: number): { url: string; headers: Record<string, string> } {
  const pick = <T>(list: T[]) => list[(i * 7919) % list.length]!;
  // Each search comes from its own address (behind the trusted proxy), as many visitors would: the per-IP limit
  // is not what this test is about.
  const visitor = { 'x-forwarded-for': `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` };
  switch (i % 20) {
    case 0:
    case 1:
    case 2:
    case 3:
    case 4:
      return { url: `/api/tree/${treeToken}`, headers: { 'accept-encoding': i % 2 ? 'br' : 'gzip' } };
    case 5:
    case 6:
    case 7:
    case 8:
    case 9:
    case 10:
    case 11:
      return { url: `/api/cell/${pick(cellTokens)}`, headers: {} };
    case 12:
    case 13:
    case 14:
    case 15:
    case 16:
      return { url: `/api/cells/search?search=${encodeURIComponent(pick(prefixes))}`, headers: visitor };
    default:
      return { url: '/api/health', headers: {} };
  }
}

/** `total` requests, `CONCURRENCY` at a time; answers the status counts and every failure. */
async function round(offset: number, total: number): Promise<{ statuses: Record<number, number>; failures: string[] }> {
  const statuses: Record<number, number> = {};
  const failures: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < total) {
      const i = offset + next++;
      const { url, headers } = requestFor(i);
      try {
        const res = await fetch(server.url + url, { headers });
        await res.arrayBuffer();
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        if (res.status >= 500) failures.push(`${res.status} ${url}`);
      } catch (error) {
        failures.push(`${url}: ${String(error)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return { statuses, failures };
}

describe('a bounded load on loopback', () => {
  it('answers every request of two rounds without error, and memory stays flat', async () => {
    const first = await round(0, ROUND);
    const afterFirst = rssOf(server.process.pid!);
    const second = await round(ROUND, ROUND);
    const afterSecond = rssOf(server.process.pid!);

    expect(first.failures).toEqual([]);
    expect(second.failures).toEqual([]);
    // Everything asked for exists: only 200s (no rate limit, no 404).
    expect(Object.keys(first.statuses)).toEqual(['200']);
    expect(Object.keys(second.statuses)).toEqual(['200']);
    expect(first.statuses[200]! + second.statuses[200]!).toBe(2 * ROUND);
    expect(afterSecond - afterFirst).toBeLessThan(RSS_GROWTH_LIMIT);
  }, 180_000);
});
