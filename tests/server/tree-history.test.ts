/**
 * The growth history for the replay (shared/tree/history.ts, server/services/tree/tree-history.ts): its wire format,
 * the route and procedure (publish order, ETags, refusals), a history the tree has moved past, and seeds that grow
 * believably (demo and synthetic trees).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TRPCError } from '@trpc/server';
import { and, eq } from 'drizzle-orm';
import { art, cells, trees } from '#drizzle/schema.ts';
import { ArtStatus, CellStatus, Role } from '#shared/domain.ts';
import { bandStarts, type TreeSettings } from '#shared/tree/geometry.ts';
import { decodeHistory, encodeHistory, HISTORY_STEP_MS, type TreeHistoryWire } from '#shared/tree/history.ts';
import { systemClock } from '#server/clock.ts';
import { testConfig } from '#server/config.ts';
import { closeDatabase, openDatabase } from '#server/db.ts';
import { createMediaStorage, serverMediaUrlOf } from '#server/storage/index.ts';
import type { ServiceContext } from '#server/services/context.ts';
import { seedDemo } from '#server/seed/demo.ts';
import { generateSyntheticTree } from '#server/seed/synthetic.ts';
import { createTree } from '#server/services/tree/tree.ts';
import { recordBulkChange } from '#server/services/tree/tree-changes.ts';
import { BUILDS } from '#server/services/tree/build-jobs.ts';
import { BuildWorker } from '#server/services/tree/build-worker-client.ts';
import { REBUILD_EVERY_MS, TreeHistoryStore } from '#server/services/tree/tree-history-store.ts';
import { createTestApp, type TestApp } from '#tests/helpers/server/test-app.ts';
import { publishedPieceAt } from '../helpers/art-fixtures.ts';
import { submitPieceAt } from '../helpers/server/review-fixtures.ts';

const HOUR = HISTORY_STEP_MS;
const DAY = 24 * HOUR;

let t: TestApp;
let treeToken: string;
let treeId: number;
/** The pieces published directly, as [row, column, publishedAt], in the order the history must list them. */
let expected: [number, number, number][];

const historyOf = async (headers: Record<string, string> = {}) =>
  t.server.inject({ url: `/api/tree/${treeToken}/history`, headers });
const wireOf = (body: string) => (JSON.parse(body) as { r: TreeHistoryWire }).r;
const listed = (wire: TreeHistoryWire) => {
  const pieces = decodeHistory(wire);
  return Array.from({ length: pieces.count }, (_, i) => [pieces.row[i]!, pieces.column[i]!, pieces.at[i]!]);
};
const inSteps = (pieces: [number, number, number][]) =>
  pieces.map(([row, column, at]) => [row, column, Math.floor(at / HOUR) * HOUR]);

beforeAll(async () => {
  t = await createTestApp();
  const tree = await createTree(t.deps.db, t.clock.now(), 'History');
  treeToken = tree.token;
  treeId = tree.id;
  const author = (await t.addUser(Role.Artist)).user.id;
  const base = t.clock.now() - 90 * DAY;
  // Out of row order on purpose; two in the same hour (row then column decides), one a month later.
  const planned: [number, number, number][] = [
    [33, 2, base],
    [32, 2, base + 2 * DAY + 5 * 60_000],
    [33, 4, base + 2 * DAY],
    [33, 1, base + 2 * DAY + 20 * 60_000],
    [31, 0, base + 35 * DAY],
  ];
  for (const [row, column, at] of planned) {
    const piece = await publishedPieceAt(t.deps.db, treeId, row, column, author, `history${row}x${column}`);
    t.deps.db.update(art).set({ publishedAt: at }).where(eq(art.token, piece.artToken)).run();
  }
  // A piece taken down again: its square shows no published art, so it is not in the history.
  const removed = await publishedPieceAt(t.deps.db, treeId, 30, 3, author, 'historyremoved');
  t.deps.db
    .update(art)
    .set({ status: ArtStatus.Removed, publishedAt: base })
    .where(eq(art.token, removed.artToken))
    .run();
  await recordBulkChange(t.deps.db, treeId, t.clock.now());
  expected = [...planned].sort((a, b) => a[2] - b[2] || a[0] - b[0] || a[1] - b[1]);
}, 30_000);
afterAll(() => t.cleanup());

describe('the history wire format', () => {
  it('encodes rows as differences, columns as they are and times in whole steps, and decodes them back', () => {
    const at = [
      Date.UTC(2026, 0, 1, 10, 30),
      Date.UTC(2026, 0, 1, 10, 59),
      Date.UTC(2026, 0, 1, 13, 1),
      Date.UTC(2026, 0, 3, 0, 0),
    ];
    const pieces = {
      count: 4,
      row: Int32Array.of(40, 39, 41, 10),
      column: Int32Array.of(2, -3, 7, 0),
      at: Float64Array.from(at),
    };
    const wire = encodeHistory({ token: 't', version: 9 }, pieces);
    expect(wire).toMatchObject({
      format: 1,
      start: Date.UTC(2026, 0, 1, 10),
      step: HOUR,
      count: 4,
      row: [40, -1, 2, -31],
      col: [2, -3, 7, 0],
      time: [0, 0, 3, 35],
    });
    const back = decodeHistory(wire);
    expect([...back.row]).toEqual([40, 39, 41, 10]);
    expect([...back.column]).toEqual([2, -3, 7, 0]);
    expect([...back.at]).toEqual(at.map((ms) => Math.floor(ms / HOUR) * HOUR));
  });

  it('starts at 0 when nothing is published, and refuses pieces out of time order or columns of the wrong length', () => {
    const empty = encodeHistory(
      { token: 't', version: 1 },
      { count: 0, row: new Int32Array(), column: new Int32Array(), at: new Float64Array() },
    );
    expect(empty).toMatchObject({ start: 0, count: 0, row: [], col: [], time: [] });
    expect(decodeHistory(empty).count).toBe(0);
    const backwards = {
      count: 2,
      row: Int32Array.of(1, 2),
      column: Int32Array.of(0, 0),
      at: Float64Array.of(5 * HOUR, HOUR),
    };
    expect(() => encodeHistory({ token: 't', version: 1 }, backwards)).toThrow(RangeError);
    expect(() => decodeHistory({ ...empty, count: 1 })).toThrow(RangeError);
  });
});

describe('GET /api/tree/{treeToken}/history', () => {
  it('lists exactly the published pieces, in publish order (then row, column), at their publish hours', async () => {
    const res = await historyOf();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    const wire = wireOf(res.body);
    const version = t.deps.db.select({ version: trees.version }).from(trees).where(eq(trees.id, treeId)).get()!.version;
    expect(wire).toMatchObject({ format: 1, token: treeToken, version, step: HOUR, count: expected.length });
    expect(wire.start).toBe(Math.floor(expected[0]![2] / HOUR) * HOUR);
    expect(listed(wire)).toEqual(inSteps(expected));
  });

  it('travels precompressed (brotli, gzip) with the same content', async () => {
    const plain = (await historyOf()).body;
    const br = await historyOf({ 'accept-encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain);
    const gzip = await historyOf({ 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain);
  });

  it('answers 304 to its ETag while the tree has not changed, and is built once per version', async () => {
    const first = await historyOf();
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"t\d+h\d+"$/);
    const builds = t.deps.histories.builds;
    const again = await historyOf({ 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    await Promise.all([historyOf(), historyOf(), t.caller().tree.history({ token: treeToken })]);
    expect(t.deps.histories.builds).toBe(builds);
  });

  it('shows a piece published through review at its publish time, under a new ETag', async () => {
    const before = await historyOf();
    const artist = (await t.addUser(Role.Artist)).user;
    const piece = await submitPieceAt(t, treeId, 34, 3, artist, 'Published Last');
    t.clock.advance(3 * HOUR + 17 * 60_000);
    const publishedAt = t.clock.now();
    await t.caller((await t.addUser(Role.Admin)).user).admin.publish({ artToken: piece.artToken });

    const stale = await historyOf({ 'if-none-match': String(before.headers.etag) });
    expect(stale.statusCode).toBe(200);
    expect(stale.headers.etag).not.toBe(before.headers.etag);
    const wire = wireOf(stale.body);
    expect(wire.version).toBeGreaterThan(wireOf(before.body).version);
    expect(listed(wire)).toEqual(inSteps([...expected, [34, 3, publishedAt]]));
  });

  it('answers 404 for an unknown tree and 400 for a malformed token', async () => {
    const unknown = await t.server.inject({ url: `/api/tree/${'x'.repeat(22)}/history` });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ r: { error: 'tree_not_found' } });
    const malformed = await t.server.inject({ url: '/api/tree/not%20a%20token/history' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ r: { error: 'bad_request' } });
  });
});

describe('tree.history (tRPC)', () => {
  it('answers the same history as the route', async () => {
    const wire = await t.caller().tree.history({ token: treeToken });
    expect(wire).toEqual(wireOf((await historyOf()).body));
  });

  it('refuses an unknown token with NOT_FOUND and a malformed one with BAD_REQUEST', async () => {
    await expect(t.caller().tree.history({ token: 'x'.repeat(22) })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const malformed = await t
      .caller()
      .tree.history({ token: 'no good' })
      .catch((e: unknown) => e);
    expect(malformed).toBeInstanceOf(TRPCError);
    expect((malformed as TRPCError).code).toBe('BAD_REQUEST');
  });
});

describe('a history the tree has moved past', () => {
  const treeNow = () => t.deps.db.select().from(trees).where(eq(trees.id, treeId)).get()!;

  it('is served at once while the new one builds off the event loop, then gives way to it', async () => {
    const worker = new BuildWorker(t.deps.db, t.deps.db.$client.name);
    const store = new TreeHistoryStore(worker, { staleWaitMs: 0, rebuildEveryMs: 0 });
    try {
      const kept = await store.get(treeNow());
      const artist = (await t.addUser(Role.Artist)).user;
      const piece = await submitPieceAt(t, treeId, 35, 2, artist, 'Published While Kept');
      await t.caller((await t.addUser(Role.Admin)).user).admin.publish({ artToken: piece.artToken });
      const moved = treeNow();
      expect(moved.version).toBeGreaterThan(kept.version);

      const meanwhile = await store.get(moved);
      expect(meanwhile).toBe(kept);
      await vi.waitFor(async () => expect((await store.get(moved)).version).toBe(moved.version), {
        timeout: 20_000,
        interval: 20,
      });
      const fresh = await store.get(moved);
      expect(fresh.etag).not.toBe(kept.etag);
      expect(listed(fresh.wire()).map(([row, column]) => [row, column])).toContainEqual([35, 2]);
      expect(store.builds).toBe(2);
    } finally {
      await worker.close();
    }
  });

  it('is built again at most once every 30 seconds, however often it is asked while the tree moves', async () => {
    const worker = new BuildWorker(t.deps.db, t.deps.db.$client.name);
    let now = t.clock.now();
    const store = new TreeHistoryStore(worker, { staleWaitMs: 50, now: () => now });
    try {
      const first = await store.get(treeNow());
      const admin = (await t.addUser(Role.Admin)).user;
      // A piece published every second for 20 seconds, and a visitor asking for the history after each.
      for (let i = 0; i < 20; i++) {
        const artist = (await t.addUser(Role.Artist)).user;
        const free = t.deps.db
          .select({ row: cells.row, column: cells.column })
          .from(cells)
          .where(and(eq(cells.treeId, treeId), eq(cells.status, CellStatus.Available)))
          .get()!;
        const piece = await submitPieceAt(t, treeId, free.row, free.column, artist, `Busy ${i}`);
        await t.caller(admin).admin.publish({ artToken: piece.artToken });
        now += 1000;
        expect((await store.get(treeNow())).version).toBe(first.version);
      }
      expect(store.builds).toBe(1);
      // Once 30 seconds have passed since the last build began, the next visitor's request starts one.
      now += REBUILD_EVERY_MS;
      const moved = treeNow();
      await vi.waitFor(async () => expect((await store.get(moved)).version).toBe(moved.version), {
        timeout: 20_000,
        interval: 20,
      });
      expect(store.builds).toBe(2);
    } finally {
      await worker.close();
    }
  });

  it('is built after a tree’s first snapshot, before anyone asks for it', async () => {
    const fresh = await createTree(t.deps.db, t.clock.now(), 'Warm history');
    const builds = t.deps.histories.builds;
    expect((await t.server.inject({ url: `/api/tree/${fresh.token}` })).statusCode).toBe(200);
    await vi.waitFor(() => expect(t.deps.histories.builds).toBe(builds + 1), { timeout: 20_000, interval: 20 });
    const res = await t.server.inject({ url: `/api/tree/${fresh.token}/history` });
    expect(res.statusCode).toBe(200);
    expect(t.deps.histories.builds).toBe(builds + 1);
  });
});

describe('the seeds grow believably', () => {
  const dirs: string[] = [];
  const quietLog = { info() {}, warn() {}, error() {}, debug() {} } as unknown as ServiceContext['log'];
  const context = (): ServiceContext => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gallery-history-'));
    dirs.push(dir);
    fs.mkdirSync(path.join(dir, 'media'));
    return {
      db: openDatabase(path.join(dir, 'gallery.db')),
      clock: systemClock,
      media: createMediaStorage({ kind: 'folder', dir: path.join(dir, 'media') }),
      config: testConfig(dir),
      log: quietLog,
    };
  };
  const contexts: ServiceContext[] = [];
  afterAll(() => {
    for (const ctx of contexts) closeDatabase(ctx.db);
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('the demo publishes over months, each piece beside the seed band or an earlier piece', async () => {
    const ctx = context();
    contexts.push(ctx);
    const seeded = await seedDemo(ctx, { pieces: 16, artists: 5, seed: 17, pictureSize: 128 });
    const tree = ctx.db.select().from(trees).where(eq(trees.token, seeded.treeToken)).get()!;
    const history = decodeHistory(
      JSON.parse(BUILDS.history(ctx.db, tree.id, serverMediaUrlOf).body.identity.toString()).r as TreeHistoryWire,
    );
    expect(history.count).toBe(seeded.published);
    expect(history.at[history.count - 1]! - history.at[0]!).toBeGreaterThan(150 * DAY);
    expect(new Set(history.at).size).toBeGreaterThan(history.count * 0.9);
    const bands = bandStarts(tree.settings as TreeSettings);
    const grown: { row: number; column: number }[] = [];
    for (let i = 0; i < history.count; i++) {
      const piece = { row: history.row[i]!, column: history.column[i]! };
      const besideSeed = piece.row >= bands.seed - 1 && piece.row <= bands.roots;
      const besideEarlier = grown.some(
        (g) => Math.max(Math.abs(g.row - piece.row), Math.abs(g.column - piece.column)) === 1,
      );
      expect(besideSeed || besideEarlier, `piece ${i} at ${piece.row}/${piece.column}`).toBe(true);
      grown.push(piece);
    }
    // Seeding draws sixteen pictures with sharp: 5 s alone, but up to a minute beside the rest of the checks on a
    // loaded two-core machine.
  }, 120_000);

  it('a synthetic tree grows from the seed band outwards over a year, branches after the trunk beside them', async () => {
    const ctx = context();
    contexts.push(ctx);
    const now = Date.UTC(2026, 5, 1);
    const { treeId: id } = await generateSyntheticTree(ctx.db, { cells: 20_000, now });
    const tree = ctx.db.select().from(trees).where(eq(trees.id, id)).get()!;
    const settings = tree.settings as TreeSettings;
    const seedRow = bandStarts(settings).seed;
    const history = decodeHistory(
      JSON.parse(BUILDS.history(ctx.db, id, serverMediaUrlOf).body.identity.toString()).r as TreeHistoryWire,
    );
    expect(history.count).toBeGreaterThan(10_000);
    expect(history.at[0]!).toBeGreaterThanOrEqual(now - 366 * DAY);
    expect(history.at[history.count - 1]!).toBeLessThan(now);
    expect(history.at[history.count - 1]! - history.at[0]!).toBeGreaterThan(300 * DAY);
    // Not a handful of instants: hundreds of distinct hours.
    expect(new Set(history.at).size).toBeGreaterThan(1000);
    // Further from the seed band on average, decile by decile.
    const tenth = Math.floor(history.count / 10);
    let previous = -1;
    for (let d = 0; d < 10; d++) {
      let sum = 0;
      for (let i = d * tenth; i < (d + 1) * tenth; i++) sum += Math.abs(history.row[i]! - seedRow);
      expect(sum / tenth).toBeGreaterThan(previous);
      previous = sum / tenth;
    }
    // In each row, a branch square comes after the trunk beside it (where the row has a published trunk square).
    const isTrunk = (i: number) => history.column[i]! >= 0 && history.column[i]! < settings.trunk.columns;
    const rowsWithTrunk = new Set<number>();
    for (let i = 0; i < history.count; i++) if (isTrunk(i)) rowsWithTrunk.add(history.row[i]!);
    const trunkSeen = new Set<number>();
    for (let i = 0; i < history.count; i++) {
      const row = history.row[i]!;
      if (isTrunk(i)) trunkSeen.add(row);
      else if (rowsWithTrunk.has(row))
        expect(trunkSeen.has(row), `a branch square of row ${row} before its trunk`).toBe(true);
    }
  });
});
