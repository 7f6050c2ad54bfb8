/**
 * What opening the live tree's event stream may cost (decision 040), over real HTTP on a real SQLite file: a stream
 * resumed from far behind is told the version from one count of the log, without a cell being read; opens are
 * rate-limited per address; and the streams an address may hold are counted per network, an IPv6 /64 as one.
 */
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { cells, trees } from '#drizzle/tables.ts';
import { CellStatus, CellType } from '#shared/domain.ts';
import { EVENT_CELLS_MAX, STREAMS_PER_IP } from '#server/http/tree-events.ts';
import { LIMITS } from '#server/services/rate-limit.ts';
import { recordCellChanges } from '#server/services/tree/tree-changes.ts';
import { createTree, type TreeRow } from '#server/services/tree/tree.ts';
import { newToken } from '#server/tokens.ts';
import { createTestApp, type TestApp } from '#tests/helpers/server/test-app.ts';
import { openStream, type OpenStream } from '../helpers/event-stream.ts';
import { write } from '#server/db.ts';
import { oneRow } from '#tests/helpers/server/rows.ts';

const versionOf = async (t: TestApp, tree: TreeRow) =>
  (await oneRow(t.deps.db.select({ version: trees.version }).from(trees).where(eq(trees.id, tree.id)))).version;

/** `n` new cells of the tree, each changed once in the log: the tree moves `n` versions on. */
async function changeNewCells(t: TestApp, tree: TreeRow, n: number, firstRow: number): Promise<void> {
  const now = t.clock.now();
  await write(t.deps.db, async (tx) => {
    const ids: number[] = [];
    for (let i = 0; i < n; i++) {
      const [made] = await tx
        .insert(cells)
        .values({
          token: newToken(),
          treeId: tree.id,
          row: firstRow + i,
          column: 0,
          type: CellType.Branch,
          status: CellStatus.Available,
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: cells.id });
      ids.push(made!.id);
    }
    await recordCellChanges(tx, tree.id, ids, now);
  });
}

/**
 * The SQL the process sends while `run` runs: prepared on any SQLite connection (reads may use a connection of their
 * own), or sent by any PostgreSQL client of the pool.
 */
async function statementsDuring(run: () => Promise<void>): Promise<string[]> {
  const prepare = vi.spyOn(Database.prototype, 'prepare');
  const query = vi.spyOn(pg.Client.prototype, 'query');
  try {
    await run();
    const sent = query.mock.calls.map(([text]) => (typeof text === 'string' ? text : (text as { text?: string }).text));
    return [...prepare.mock.calls.map(([sql]) => sql), ...sent.filter((sql): sql is string => sql !== undefined)];
  } finally {
    prepare.mockRestore();
    query.mockRestore();
  }
}

async function closeAll(t: TestApp, streams: OpenStream[]): Promise<void> {
  for (const stream of streams.splice(0)) stream.close();
  await vi.waitFor(() => expect(t.deps.treeEvents!.streamCount).toBe(0), { timeout: 2000, interval: 20 });
}

describe('resuming the event stream from far behind', () => {
  let t: TestApp;
  let base: string;
  let tree: TreeRow;
  beforeAll(async () => {
    t = await createTestApp({ port: 0 });
    tree = await createTree(t.deps.db, t.clock.now(), 'Far behind');
    base = await t.start();
  });
  afterAll(() => t.cleanup());

  it('sends the version event, decided without reading a single cell', async () => {
    const since = await versionOf(t, tree);
    await changeNewCells(t, tree, EVENT_CELLS_MAX + 50, 10_000);
    let stream!: OpenStream;
    const sql = await statementsDuring(async () => {
      stream = await openStream(base, `/api/tree/${tree.token}/events`, { 'last-event-id': String(since) });
      const first = await stream.next();
      expect(first).toMatchObject({ event: 'version', id: String(await versionOf(t, tree)) });
      expect(JSON.parse(first.data)).toEqual({ version: await versionOf(t, tree), since });
    });
    stream.close();
    expect(sql.length).toBeGreaterThan(0);
    // The log was counted (tree_changes), the cells never read.
    expect(sql.some((s) => s.includes('"tree_changes"'))).toBe(true);
    expect(sql.filter((s) => /\bfrom "cells"|join "cells"/.test(s))).toEqual([]);
  });

  it('still carries a catch-up that fits in an event', async () => {
    const since = await versionOf(t, tree);
    await changeNewCells(t, tree, 3, 20_000);
    const stream = await openStream(base, `/api/tree/${tree.token}/events?since=${since}`);
    const first = await stream.next();
    expect(first.event).toBe('changes');
    expect(JSON.parse(first.data)).toMatchObject({ since, count: 3 });
    stream.close();
  });
});

describe('opening event streams', () => {
  let t: TestApp;
  let base: string;
  let tree: TreeRow;
  beforeAll(async () => {
    t = await createTestApp({ port: 0, trustProxy: true });
    tree = await createTree(t.deps.db, t.clock.now(), 'Opened');
    base = await t.start();
  });
  afterAll(() => t.cleanup());

  const from = (address: string) => ({ 'x-forwarded-for': address });

  it(`refuses the open past ${LIMITS.treeStreamOpensPerIp.max} a minute from one address: 429, Retry-After`, async () => {
    const held: OpenStream[] = [];
    for (let i = 0; i < LIMITS.treeStreamOpensPerIp.max; i++) {
      const stream = await openStream(base, `/api/tree/${tree.token}/events`, from('10.9.0.1'));
      expect(stream.status).toBe(200);
      held.push(stream);
      // Closed before the per-address cap of held streams is reached: only the opens are counted here.
      if (held.length === STREAMS_PER_IP - 1) await closeAll(t, held);
    }
    const refused = await openStream(base, `/api/tree/${tree.token}/events`, from('10.9.0.1'));
    expect(refused.status).toBe(429);
    await refused.ended;
    expect(JSON.parse(refused.body).r).toMatchObject({ error: 'rate_limited' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const other = await openStream(base, `/api/tree/${tree.token}/events`, from('10.9.0.2'));
    expect(other.status).toBe(200);
    held.push(other);
    await closeAll(t, held);
  });

  it('counts the opens of an IPv6 /64 together, whatever address in it each comes from', async () => {
    const held: OpenStream[] = [];
    for (let i = 0; i < LIMITS.treeStreamOpensPerIp.max; i++) {
      const stream = await openStream(base, `/api/tree/${tree.token}/events`, from(`2001:db8:7:1::${i + 1}`));
      expect(stream.status).toBe(200);
      held.push(stream);
      if (held.length === STREAMS_PER_IP - 1) await closeAll(t, held);
    }
    const refused = await openStream(base, `/api/tree/${tree.token}/events`, from('2001:db8:7:1:ffff:1:2:3'));
    expect(refused.status).toBe(429);
    await refused.ended;
    const neighbour = await openStream(base, `/api/tree/${tree.token}/events`, from('2001:db8:7:2::1'));
    expect(neighbour.status).toBe(200);
    held.push(neighbour);
    await closeAll(t, held);
  });

  it(`holds at most ${STREAMS_PER_IP} streams for one IPv6 /64, so no network fills the server's total`, async () => {
    const held: OpenStream[] = [];
    for (let i = 0; i < STREAMS_PER_IP; i++) {
      const stream = await openStream(base, `/api/tree/${tree.token}/events`, from(`2001:db8:8:1::${i + 1}`));
      expect(stream.status).toBe(200);
      held.push(stream);
    }
    const refused = await openStream(base, `/api/tree/${tree.token}/events`, from('2001:db8:8:1:abcd::9'));
    expect(refused.status).toBe(429);
    await refused.ended;
    expect(JSON.parse(refused.body).r.message).toContain('from this address');
    // Another /64, and an IPv4 address, are other networks.
    for (const address of ['2001:db8:8:2::1', '10.9.0.3']) {
      const stream = await openStream(base, `/api/tree/${tree.token}/events`, from(address));
      expect(stream.status).toBe(200);
      held.push(stream);
    }
    await closeAll(t, held);
  });
});
