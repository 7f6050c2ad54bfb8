/**
 * The change log is read in commit order on both engines (decision 037): four writers record 600 changes each at
 * the same time while a viewer follows `/changes` as fast as it can, and every change lands in exactly one of the
 * answers it got: none missed (a change with a smaller number committing after a reader had passed it), none twice.
 *
 * On PostgreSQL a sequence hands out numbers when a row is inserted, not when it commits; what keeps the log in
 * order there is the write lock every write transaction takes first. The last test shows the same writes made in
 * plain transactions, without it, and that this check then sees the missed changes.
 */
import { and, eq, gt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cells, treeChanges, trees, useTablesOf } from '#drizzle/tables.ts';
import { write, type Db, type Queryable } from '#server/db.ts';
import { isPostgres } from '#server/open-database.ts';
import { createTree, type TreeRow } from '#server/services/tree/tree.ts';
import { recordCellChanges } from '#server/services/tree/tree-changes.ts';
import type { TreeChangesAnswer } from '#shared/tree/changes.ts';
import { ENGINES } from '#tests/helpers/server/engines.ts';
import { postgresDatabase, type TestDatabase } from '#tests/helpers/server/postgres.ts';
import { createTestApp, type TestApp } from '#tests/helpers/server/test-app.ts';

const WRITERS = 4;
/** The bench's run (`npm run bench -- server`) makes 2,500 each; this many keep the test short and still sees misses. */
const CHANGES_EACH = 600;

/** One answer the viewer got: the versions it spans and the squares it names. */
interface Window {
  since: number;
  version: number;
  cells: Set<string>;
}

interface Followed {
  windows: Window[];
  /** Answers that were not changes (a resync, an error): there should be none. */
  odd: string[];
}

/** What the log holds after `from`, checked against the viewer's answers. */
interface Verdict {
  logged: number;
  /** Changes whose square the answer spanning their number did not name. */
  missed: number;
  /** Answers that did not start where the one before ended (a version seen twice, or skipped). */
  broken: number;
  lastVersion: number;
  treeVersion: number;
}

type RunWrite = (db: Db, work: (tx: Queryable) => Promise<void>) => Promise<void>;

/** Through the app's write transaction: the way every service writes. */
const throughWrite: RunWrite = async (db, work) => {
  await write(db, work);
};

describe.each(ENGINES)('the change log on %s, four writers at once', (engine) => {
  let t: TestApp;
  let database: TestDatabase | null = null;
  let tree: TreeRow;
  let squares: { id: number; token: string }[];

  beforeAll(async () => {
    if (engine === 'postgres') database = await postgresDatabase();
    t = await createTestApp(database ? { databaseUrl: database.url } : {});
    tree = await createTree(t.deps.db, t.clock.now(), 'Followed');
    squares = await t.deps.db.select({ id: cells.id, token: cells.token }).from(cells).where(eq(cells.treeId, tree.id));
  });

  afterAll(async () => {
    await t?.cleanup();
    useTablesOf('sqlite');
    await database?.drop();
  });

  /** The tree's version now. */
  async function versionNow(): Promise<number> {
    const [row] = await t.deps.db.select({ version: trees.version }).from(trees).where(eq(trees.id, tree.id));
    return row!.version;
  }

  /** Each writer records one change a transaction, cycling through its own share of the squares. */
  async function writeChanges(runWrite: RunWrite): Promise<void> {
    const now = t.clock.now();
    await Promise.all(
      Array.from({ length: WRITERS }, async (_, writer) => {
        for (let k = 0; k < CHANGES_EACH; k++) {
          const square = squares[(k * WRITERS + writer) % squares.length]!;
          await runWrite(t.deps.db, async (tx) => {
            await recordCellChanges(tx, tree.id, [square.id], now);
          });
          // Each change its own request, as in the app: other requests are served in between.
          await new Promise((resolve) => setImmediate(resolve));
        }
      }),
    );
  }

  /** Follows /changes from `since` until `done()` and the tree's version is reached, as a page does. */
  async function follow(since: number, done: () => boolean): Promise<Followed> {
    const windows: Window[] = [];
    const odd: string[] = [];
    for (let asked = 0; ; asked++) {
      const finished = done();
      // A viewer a request (the address's limit is 600 a minute: this one asks thousands of times).
      const remoteAddress = `10.0.${(asked >> 8) & 255}.${asked & 255}`;
      const res = await t.server.inject({ url: `/api/tree/${tree.token}/changes?since=${since}`, remoteAddress });
      const answer = (res.json() as { r: TreeChangesAnswer }).r;
      if (res.statusCode !== 200 || answer.resync) odd.push(`${res.statusCode} ${res.body.slice(0, 200)}`);
      else if (answer.version !== since) {
        windows.push({ since: answer.since, version: answer.version, cells: new Set(answer.cell) });
        since = answer.version;
      }
      if (finished && since === (await versionNow())) return { windows, odd };
      if (odd.length > 20) return { windows, odd };
      // Let the writers' work in between (inject answers without leaving this process).
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** Every logged change after `from` found in the answer spanning its number; the answers end to end. */
  async function verdict(from: number, { windows }: Followed): Promise<Verdict> {
    const logged = await t.deps.db
      .select({ seq: treeChanges.seq, token: cells.token })
      .from(treeChanges)
      .innerJoin(cells, eq(cells.id, treeChanges.cellId))
      .where(and(eq(treeChanges.treeId, tree.id), gt(treeChanges.seq, from)))
      .orderBy(treeChanges.seq);
    let broken = 0;
    let end = from;
    for (const window of windows) {
      if (window.since !== end || window.version <= window.since) broken++;
      end = window.version;
    }
    let missed = 0;
    let w = 0;
    for (const { seq, token } of logged) {
      while (w < windows.length && windows[w]!.version < seq) w++;
      const window = windows[w];
      if (!window || window.since >= seq || !window.cells.has(token)) missed++;
    }
    return { logged: logged.length, missed, broken, lastVersion: end, treeVersion: await versionNow() };
  }

  async function run(runWrite: RunWrite): Promise<{ verdict: Verdict; odd: string[] }> {
    const from = await versionNow();
    let writing = true;
    const followed = follow(from, () => !writing);
    await writeChanges(runWrite).finally(() => (writing = false));
    const result = await followed;
    return { verdict: await verdict(from, result), odd: result.odd };
  }

  it('gives a viewer following /changes every change exactly once', async () => {
    const { verdict, odd } = await run(throughWrite);
    expect(odd).toEqual([]);
    expect(verdict).toEqual({
      logged: WRITERS * CHANGES_EACH,
      missed: 0,
      broken: 0,
      lastVersion: verdict.treeVersion,
      treeVersion: verdict.treeVersion,
    });
  });

  it.runIf(engine === 'postgres')('misses changes when writes are not put in order (the check can fail)', async () => {
    expect(isPostgres(t.deps.db)).toBe(true);
    // Drizzle's own transaction, without the app's write lock: numbers are handed out at insert and transactions
    // commit in whatever order they finish.
    const plain = t.deps.db as unknown as { transaction: (work: (tx: Queryable) => Promise<void>) => Promise<void> };
    const { verdict } = await run((_db, work) => plain.transaction(work));
    expect(verdict.logged).toBe(WRITERS * CHANGES_EACH);
    expect(verdict.missed + verdict.broken).toBeGreaterThan(0);
  });
});
