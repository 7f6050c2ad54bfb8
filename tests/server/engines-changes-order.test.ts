/**
 * The change log is read in commit order on both engines (decision 037): four writers record 300 changes each at
 * the same time while a viewer follows `/changes` as fast as it can, and every change lands in exactly one of the
 * answers it got: none missed (a change with a smaller number committing after a reader had passed it), none twice.
 *
 * On PostgreSQL a sequence hands out numbers when a row is inserted, not when it commits; what keeps the log in
 * order there is the write lock every write transaction takes first. The last test shows the same writes made in
 * plain transactions, without it, and that this check then sees the missed changes.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cells, useTablesOf } from '#drizzle/tables.ts';
import type { Queryable } from '#server/db.ts';
import { isPostgres } from '#server/open-database.ts';
import { createTree, type TreeRow } from '#server/services/tree/tree.ts';
import { checkChangesOrder, type RunWrite } from '#tests/helpers/server/changes-order.ts';
import { ENGINES } from '#tests/helpers/server/engines.ts';
import { postgresDatabase, type TestDatabase } from '#tests/helpers/server/postgres.ts';
import { createTestApp, type TestApp } from '#tests/helpers/server/test-app.ts';

const WRITERS = 4;
/** The benchmark (`npm run bench -- engines`) makes 2,500 each; this many keep the test short and still see misses. */
const CHANGES_EACH = 300;

describe.each(ENGINES)('the change log on %s, four writers at once', (engine) => {
  let t: TestApp;
  let database: TestDatabase | null = null;
  let tree: TreeRow;
  let squareIds: number[];

  beforeAll(async () => {
    if (engine === 'postgres') database = await postgresDatabase();
    t = await createTestApp(database ? { databaseUrl: database.url } : {});
    tree = await createTree(t.deps.db, t.clock.now(), 'Followed');
    squareIds = (await t.deps.db.select({ id: cells.id }).from(cells).where(eq(cells.treeId, tree.id))).map(
      (c) => c.id,
    );
  });

  afterAll(async () => {
    await t?.cleanup();
    useTablesOf('sqlite');
    await database?.drop();
  });

  const check = (runWrite?: RunWrite) =>
    checkChangesOrder({
      db: t.deps.db,
      treeId: tree.id,
      squareIds,
      writers: WRITERS,
      changesEach: CHANGES_EACH,
      runWrite,
      // A viewer a request (an address may ask 600 times a minute: this follower asks thousands of times).
      ask: async (since, asked) => {
        const remoteAddress = `10.0.${(asked >> 8) & 255}.${asked & 255}`;
        const res = await t.server.inject({ url: `/api/tree/${tree.token}/changes?since=${since}`, remoteAddress });
        return { status: res.statusCode, body: res.body };
      },
    });

  it('gives a viewer following /changes every change exactly once', async () => {
    const verdict = await check();
    expect(verdict).toEqual({
      logged: WRITERS * CHANGES_EACH,
      missed: 0,
      broken: 0,
      odd: 0,
      oddSample: [],
      lastVersion: verdict.treeVersion,
      treeVersion: verdict.treeVersion,
    });
  });

  it.runIf(engine === 'postgres')('misses changes when writes are not put in order (the check can fail)', async () => {
    expect(isPostgres(t.deps.db)).toBe(true);
    // Drizzle's own transaction, without the app's write lock: numbers are handed out at insert and transactions
    // commit in whatever order they finish.
    const plain = t.deps.db as unknown as { transaction: (work: (tx: Queryable) => Promise<void>) => Promise<void> };
    const verdict = await check((_db, work) => plain.transaction(work));
    expect(verdict.logged).toBe(WRITERS * CHANGES_EACH);
    expect(verdict.missed + verdict.broken).toBeGreaterThan(0);
  });
});
