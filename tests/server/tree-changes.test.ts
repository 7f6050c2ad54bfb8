/**
 * The tree's change log: the changes since an old version, applied to its snapshot, give exactly the one
 * built afresh after any sequence of real changes (reserve, submit, publish, release, expiry, removal); then resync,
 * bad `since` values over REST and tRPC, ETags, and a change that costs no rebuild.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { threadId } from 'node:worker_threads';
import fc from 'fast-check';
import { and, count, eq, isNotNull } from 'drizzle-orm';
import { art, cells, treeChanges, trees } from '#drizzle/tables.ts';
import { CellStatus, Role } from '#shared/domain.ts';
import { applyChanges, type TreeChangesAnswer, type TreeChangesWire } from '#shared/tree/changes.ts';
import {
  colorAsSent,
  decodeColor,
  decodeSnapshot,
  type TreeCells,
  type TreeSnapshotWire,
} from '#shared/tree/snapshot.ts';
import { buildSnapshotBytesAwaited, readSnapshotCells } from '#server/services/tree/snapshot-build.ts';
import { decodeBinarySnapshot } from '#shared/tree/snapshot-binary.ts';
import { createTree, type TreeRow } from '#server/services/tree/tree.ts';
import { reserveCell } from '#server/services/reservations/index.ts';
import {
  CHANGES_MAX,
  pruneChangeLog,
  readChanges,
  recordBulkChange,
  recordCellChanges,
} from '#server/services/tree/tree-changes.ts';
import { createTestApp, TEST_ENGINE, type TestApp } from '#tests/helpers/server/test-app.ts';
import { runTransition, TRANSITIONS, type TransitionWorld } from '#tests/helpers/server/square-transitions.ts';
import { png } from '../helpers/art-fixtures.ts';
import { write } from '#server/db.ts';
import { oneRow } from '#tests/helpers/server/rows.ts';

let t: TestApp;
let tree: TreeRow;
let world: TransitionWorld;

const DAY = 24 * 60 * 60 * 1000;
const treeNow = async () => await oneRow(t.deps.db.select().from(trees).where(eq(trees.id, tree.id)));

/** The snapshot of the tree as it is now: its version, and a function decoding a fresh copy each call. */
async function snapshotNow(): Promise<{ version: number; cells: TreeCells; decode: () => TreeCells }> {
  const built = await buildSnapshotBytesAwaited(t.deps.db, await treeNow(), t.deps.media.urlOf);
  const decode = () => decodeBinarySnapshot(built.body.identity).cells;
  return { version: built.version, cells: decode(), decode };
}

/** Every cell as one comparable line, in row-then-column order (applied changes append new cells at the end). */
function canonical(tree: TreeCells): string[] {
  const lines: string[] = [];
  for (let i = 0; i < tree.count; i++) {
    lines.push(
      `${tree.row[i]},${tree.col[i]} s${tree.status[i]} t${tree.type[i]} c${tree.color[i]} ${tree.token?.[i] ?? ''} ${tree.thumb?.[i] ?? ''}`,
    );
  }
  const position = (line: string) => line.split(' ')[0]!.split(',').map(Number) as [number, number];
  return lines.sort((a, b) => position(a)[0] - position(b)[0] || position(a)[1] - position(b)[1]);
}

async function changesSince(since: number): Promise<TreeChangesWire> {
  const answer = await readChanges(t.deps.db, tree.id, since);
  if (answer.resync) throw new Error(`expected changes since ${since}, got resync`);
  return answer;
}

beforeAll(async () => {
  t = await createTestApp();
  tree = await createTree(t.deps.db, t.clock.now(), 'Live');
  world = {
    t,
    tree,
    admin: (await t.addUser(Role.Admin)).user,
    members: await Promise.all(Array.from({ length: 5 }, async () => (await t.addUser(Role.Observer)).user)),
    picture: await png(48, 48, '#aa5522'),
  };
}, 60_000);
afterAll(() => t.cleanup());

describe('changes since a version, applied to that version’s snapshot', () => {
  it('give exactly the snapshot built from scratch, after any sequence of real changes', async () => {
    const action = fc.record({ kind: fc.constantFrom(...TRANSITIONS), who: fc.nat(4), pick: fc.nat(1000) });
    // A run of changes that publishes something, so the later runs have branch slots and pieces to remove.
    for (const kind of ['reserve', 'submit', 'publish', 'reserveSlot', 'submit', 'publish'] as const)
      await runTransition(world, { kind, who: 0, pick: 1 });
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: 10 }), async (actions) => {
        const start = await snapshotNow();
        let stepwise = start.cells;
        for (const next of actions) {
          const before = (await treeNow()).version;
          await runTransition(world, next);
          // One step at a time, as a viewer following the stream applies them...
          stepwise = applyChanges(stepwise, await changesSince(before)).cells;
        }
        // ...and all at once, as a viewer coming back after a while.
        const atOnce = applyChanges(start.decode(), await changesSince(start.version)).cells;
        const fresh = await snapshotNow();
        expect(canonical(stepwise)).toEqual(canonical(fresh.cells));
        expect(canonical(atOnce)).toEqual(canonical(fresh.cells));
      }),
      { numRuns: 12 },
    );
    // The runs did change the tree: pieces were published (some may have been removed since).
    expect((await t.deps.db.select().from(art).where(isNotNull(art.publishedAt))).length).toBeGreaterThan(0);
  }, 120_000);

  it('carry each changed cell once, as it is now, with its colour as the snapshot sends it', async () => {
    const before = (await treeNow()).version;
    await runTransition(world, { kind: 'reserve', who: 1, pick: 3 });
    await runTransition(world, { kind: 'release', who: 0, pick: 0 });
    const answer = await changesSince(before);
    const positions = answer.row.map((row, i) => `${row},${answer.col[i]}`);
    expect(new Set(positions).size).toBe(positions.length);
    const now = await readSnapshotCells(t.deps.db, tree.id);
    for (let i = 0; i < answer.count; i++) {
      const cell = now.find((c) => c.row === answer.row[i] && c.column === answer.col[i])!;
      expect(answer.cell[i]).toBe(cell.token);
      expect(Number(answer.status[i])).toBe(cell.status);
      expect(answer.version).toBe((await treeNow()).version);
      expect(decodeColor(answer.color, i)).toBe(colorAsSent(cell.color));
    }
  });
});

describe('what the log no longer reaches', () => {
  it('answers resync for a version older than the log keeps, and after a bulk change', async () => {
    const old = (await treeNow()).version;
    // Two changes, whatever state the random sequences above left (an action of theirs may find nothing to do).
    const someCell = (
      await t.deps.db.select({ id: cells.id }).from(cells).where(eq(cells.treeId, tree.id)).limit(1)
    )[0]!.id;
    await recordCellChanges(t.deps.db, tree.id, [someCell], t.clock.now());
    await recordCellChanges(t.deps.db, tree.id, [someCell], t.clock.now());
    expect((await treeNow()).version).toBe(old + 2);
    expect((await readChanges(t.deps.db, tree.id, old)).resync).toBe(false);
    // Keep only the newest change: `old` is now out of reach, the version before the last change is not.
    await pruneChangeLog(t.deps.db, t.clock.now(), { ms: 365 * DAY, rows: 1 });
    const pruned: TreeChangesAnswer = await readChanges(t.deps.db, tree.id, old);
    expect(pruned).toEqual({ format: 1, resync: true, since: old, version: (await treeNow()).version });
    expect((await treeNow()).changesFrom).toBeGreaterThan(old);
    expect((await readChanges(t.deps.db, tree.id, (await treeNow()).changesFrom)).resync).toBe(false);

    const beforeBulk = (await treeNow()).version;
    await recordBulkChange(t.deps.db, tree.id, t.clock.now());
    expect((await readChanges(t.deps.db, tree.id, beforeBulk)).resync).toBe(true);
  });

  it('answers resync when more changes than CHANGES_MAX lie behind, and the snapshot is then built anew first', async () => {
    await t.server.inject({ url: `/api/tree/${tree.token}` });
    const before = (await treeNow()).version;
    const builds = t.deps.snapshots.builds;
    const someCell = (
      await t.deps.db.select({ id: cells.id }).from(cells).where(eq(cells.treeId, tree.id)).limit(1)
    )[0]!.id;
    await write(t.deps.db, async (tx) => {
      for (let i = 0; i <= CHANGES_MAX; i++) await recordCellChanges(tx, tree.id, [someCell], t.clock.now());
    });
    expect((await readChanges(t.deps.db, tree.id, before)).resync).toBe(true);
    const served = (await t.server.inject({ url: `/api/tree/${tree.token}` })).json() as { r: TreeSnapshotWire };
    expect(t.deps.snapshots.builds).toBe(builds + 1);
    expect(served.r.version).toBe((await treeNow()).version);
  });

  it('prunes by age too: a day old changes are dropped', async () => {
    // Changes logged straight away: a transition of the world's members may be refused (what they hold depends on
    // the random sequences above), and a change that is not logged would leave nothing to prune.
    const someCell = (
      await t.deps.db.select({ id: cells.id }).from(cells).where(eq(cells.treeId, tree.id)).limit(1)
    )[0]!.id;
    const before = (await treeNow()).version;
    await write(t.deps.db, (tx) => recordCellChanges(tx, tree.id, [someCell], t.clock.now()));
    t.clock.advance(2 * DAY);
    await write(t.deps.db, (tx) => recordCellChanges(tx, tree.id, [someCell], t.clock.now()));
    const after = (await treeNow()).version;
    expect(await pruneChangeLog(t.deps.db, t.clock.now())).toBeGreaterThan(0);
    expect((await readChanges(t.deps.db, tree.id, before)).resync).toBe(true);
    expect(await readChanges(t.deps.db, tree.id, after)).toMatchObject({ resync: false, count: 0 });
  });
});

describe('GET /api/tree/{token}/changes and tree.changes', () => {
  it('answers the changes with an ETag, and 304 for the same question', async () => {
    const since = (await treeNow()).version;
    // A member of its own: the world's members may hold a square already after the random sequences above, and a
    // refused reservation would change nothing.
    const member = (await t.addUser(Role.Observer)).user;
    const [square] = await t.deps.db
      .select({ token: cells.token })
      .from(cells)
      .where(and(eq(cells.treeId, tree.id), eq(cells.status, CellStatus.Available)))
      .limit(1);
    await reserveCell(t.deps, member, square!.token);
    const url = `/api/tree/${tree.token}/changes?since=${since}`;
    const first = await t.server.inject({ url });
    expect(first.statusCode).toBe(200);
    expect(first.json().r).toEqual(await t.caller().tree.changes({ token: tree.token, since }));
    expect(first.json().r).toMatchObject({ resync: false, since, version: (await treeNow()).version, count: 1 });
    const again = await t.server.inject({ url, headers: { 'if-none-match': first.headers.etag as string } });
    expect(again.statusCode).toBe(304);
  });

  it('refuses a malformed, negative, fractional or future since with a 400 that says why, and changes nothing', async () => {
    const version = (await treeNow()).version;
    const logRows = async () => (await oneRow(t.deps.db.select({ n: count() }).from(treeChanges))).n;
    const rowsBefore = await logRows();
    for (const since of ['abc', '-1', '1.5', '', '1e3', String(version + 1), '99999999999999999999']) {
      const res = await t.server.inject({ url: `/api/tree/${tree.token}/changes?since=${encodeURIComponent(since)}` });
      expect(res.statusCode, since).toBe(400);
      expect(res.json().r.error).toBe('bad_request');
      expect(res.json().r.message).toMatch(/since/);
    }
    const missing = await t.server.inject({ url: `/api/tree/${tree.token}/changes` });
    expect(missing.statusCode).toBe(400);
    for (const since of [-1, 1.5, version + 1]) {
      await expect(t.caller().tree.changes({ token: tree.token, since })).rejects.toMatchObject({
        code: 'BAD_REQUEST',
      });
    }
    expect((await t.server.inject({ url: `/api/tree/${'z'.repeat(22)}/changes?since=1` })).statusCode).toBe(404);
    expect(await logRows()).toEqual(rowsBefore);
    expect((await treeNow()).version).toBe(version);
  });
});

describe('a change costs the change', () => {
  // SQLite's build streams from a read connection of its own in a worker thread; PostgreSQL's is awaited on the
  // server's event loop, a batch of rows at a time (decision 037): the same bytes either way (awaited-builds.test.ts).
  it.runIf(TEST_ENGINE === 'sqlite')(
    'builds a snapshot in a worker thread, never on the event loop that answers requests',
    async () => {
      await recordBulkChange(t.deps.db, tree.id, t.clock.now());
      const res = await t.server.inject({ url: `/api/tree/${tree.token}` });
      expect(res.statusCode).toBe(200);
      const built = t.deps.snapshots.peek(tree.id)!;
      expect(built.version).toBe((await treeNow()).version);
      expect(built.thread).not.toBe(threadId);
    },
  );

  it('serves the kept snapshot after a change (no rebuild); its version plus the changes is the tree now', async () => {
    const first = await t.server.inject({ url: `/api/tree/${tree.token}` });
    const builds = t.deps.snapshots.builds;
    const kept = (first.json() as { r: TreeSnapshotWire }).r;
    await runTransition(world, { kind: 'reserve', who: 0, pick: 9 });
    await runTransition(world, { kind: 'release', who: 0, pick: 0 });
    const second = await t.server.inject({ url: `/api/tree/${tree.token}` });
    expect(t.deps.snapshots.builds).toBe(builds);
    expect(second.headers.etag).toBe(first.headers.etag);
    const served = (second.json() as { r: TreeSnapshotWire }).r;
    expect(served.version).toBe(kept.version);
    const caughtUp = applyChanges(decodeSnapshot(served), await changesSince(served.version)).cells;
    expect(canonical(caughtUp)).toEqual(canonical((await snapshotNow()).cells));
  });
});
