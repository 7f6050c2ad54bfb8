/**
 * The two traps of concurrent writers on PostgreSQL, and the one write lock that closes both (decision 037), on a
 * real server: without it, a change read then written by two transactions at once loses one of them, and the change
 * log's numbers, handed out at insert rather than at commit, let a reader following `seq > since` step past a change
 * that commits later; with writeTransaction, writes follow one another as on SQLite, and numbers follow commit order.
 */
import { eq, gt, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { treeChanges, trees } from '#drizzle/schema-pg.ts';
import { closePostgres, openPostgres, writeTransaction, type PgDb } from '#server/db-pg.ts';
import { postgresDatabase, type TestDatabase } from '#tests/helpers/server/postgres.ts';

const T = Date.UTC(2026, 10, 26, 12);

let database: TestDatabase;
let db: PgDb;
let treeId: number;

beforeAll(async () => {
  database = await postgresDatabase();
  db = await openPostgres(database.url);
  const [tree] = await db.insert(trees).values({ token: 'tree', name: 'Tree', settings: {}, createdAt: T }).returning();
  treeId = tree!.id;
});

afterAll(async () => {
  if (db) await closePostgres(db);
  await database?.drop();
});

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

/** Logs one change, as the tree's writers do, and answers its number. */
async function logChange(tx: Pick<PgDb, 'insert'>): Promise<number> {
  const [row] = await tx.insert(treeChanges).values({ treeId, cellId: 1, at: T }).returning({ seq: treeChanges.seq });
  return row!.seq;
}

/** What a follower of the log sees after `since`, and the last number it sees. */
async function follow(since: number): Promise<number[]> {
  const rows = await db
    .select({ seq: treeChanges.seq })
    .from(treeChanges)
    .where(gt(treeChanges.seq, since))
    .orderBy(treeChanges.seq);
  return rows.map((row) => row.seq);
}

const lastSeq = async () =>
  (await db.select({ seq: sql<string>`coalesce(max(${treeChanges.seq}), 0)` }).from(treeChanges))[0]!.seq;

/** Waits until `n` sessions wait for an advisory lock (the write lock). */
async function waitersOfTheLock(n: number): Promise<void> {
  for (;;) {
    const { rows } = await db.execute<{ n: string }>(
      sql`select count(*) as n from pg_locks where locktype = 'advisory' and not granted and database = (select oid from pg_database where datname = current_database())`,
    );
    if (Number(rows[0]!.n) >= n) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('without the write lock', () => {
  it('a follower of the change log misses a change that commits after a later one', async () => {
    const inserted = deferred<number>();
    const release = deferred();
    const slow = db.transaction(async (tx) => {
      inserted.resolve(await logChange(tx));
      await release.promise;
    });
    const early = await inserted.promise;
    const late = await db.transaction((tx) => logChange(tx));
    expect(late).toBeGreaterThan(early);
    // The follower reads now: it sees the later change and moves its `since` past the earlier number.
    const since = Number(await lastSeq());
    expect(since).toBe(late);
    release.resolve();
    await slow;
    // The earlier number is committed now, below `since`: the follower never sees it.
    expect(await follow(since)).toEqual([]);
    expect((await follow(0)).includes(early)).toBe(true);
  });

  it('two changes that read then write the same row lose one', async () => {
    const [before] = await db.select({ version: trees.version }).from(trees).where(eq(trees.id, treeId));
    const bothRead = [deferred(), deferred()];
    const bump = (i: number) =>
      db.transaction(async (tx) => {
        const [tree] = await tx.select({ version: trees.version }).from(trees).where(eq(trees.id, treeId));
        bothRead[i]!.resolve();
        await Promise.all(bothRead.map((read) => read.promise));
        await tx
          .update(trees)
          .set({ version: tree!.version + 1 })
          .where(eq(trees.id, treeId));
      });
    await Promise.all([bump(0), bump(1)]);
    const [after] = await db.select({ version: trees.version }).from(trees).where(eq(trees.id, treeId));
    expect(after!.version).toBe(before!.version + 1);
  });
});

describe('writeTransaction', () => {
  it('hands out the change log’s numbers in commit order: a follower misses nothing', async () => {
    const inserted = deferred<number>();
    const release = deferred();
    const events: string[] = [];
    const slow = writeTransaction(db, async (tx) => {
      inserted.resolve(await logChange(tx));
      await release.promise;
      events.push('slow commits');
    });
    const early = await inserted.promise;
    const late = writeTransaction(db, async (tx) => {
      events.push('late runs');
      return logChange(tx);
    });
    await waitersOfTheLock(1);
    // The later writer waits; a follower reading now sees nothing past the earlier change, which is uncommitted.
    const since = Number(await lastSeq());
    expect(since).toBeLessThan(early);
    release.resolve();
    await slow;
    const lateSeq = await late;
    expect(events).toEqual(['slow commits', 'late runs']);
    expect(lateSeq).toBeGreaterThan(early);
    expect(await follow(since)).toEqual([early, lateSeq]);
  });

  it('runs changes that read then write one after another: none is lost', async () => {
    const [before] = await db.select({ version: trees.version }).from(trees).where(eq(trees.id, treeId));
    const bump = () =>
      writeTransaction(db, async (tx) => {
        const [tree] = await tx.select({ version: trees.version }).from(trees).where(eq(trees.id, treeId));
        await new Promise((resolve) => setTimeout(resolve, 5));
        await tx
          .update(trees)
          .set({ version: tree!.version + 1 })
          .where(eq(trees.id, treeId));
      });
    await Promise.all(Array.from({ length: 8 }, bump));
    const [after] = await db.select({ version: trees.version }).from(trees).where(eq(trees.id, treeId));
    expect(after!.version).toBe(before!.version + 8);
  });

  it('lets go of the lock when a change fails, and keeps none of it', async () => {
    const since = Number(await lastSeq());
    await expect(
      writeTransaction(db, async (tx) => {
        await logChange(tx);
        throw new Error('the change fails halfway');
      }),
    ).rejects.toThrow('the change fails halfway');
    const next = await writeTransaction(db, (tx) => logChange(tx));
    expect(await follow(since)).toEqual([next]);
  });

  it('hands every connection back outside a transaction, whether the change commits, fails or breaks a statement', async () => {
    const since = Number(await lastSeq());
    // More failures than the pool has connections: one left inside its transaction would be handed to a later write.
    for (let i = 0; i < 12; i++) {
      const failing = writeTransaction(db, async (tx) => {
        await logChange(tx);
        if (i % 2) throw new Error('the change fails halfway');
        await tx.execute(sql`select 1 / 0`);
      });
      if (i % 2) await expect(failing).rejects.toThrow('the change fails halfway');
      // PostgreSQL's division_by_zero, which drizzle hands on as the cause of its own error.
      else await expect(failing).rejects.toMatchObject({ cause: { code: '22012' } });
    }
    const kept = await Promise.all([1, 2, 3].map(() => writeTransaction(db, (tx) => logChange(tx))));
    expect(await follow(since)).toEqual(kept.sort((a, b) => a - b));
    const { rows } = await db.$client.query<{ open: string }>(
      `select count(*) as open from pg_stat_activity
       where datname = current_database() and state like 'idle in transaction%'`,
    );
    expect(Number(rows[0]!.open)).toBe(0);
  });

  it('leaves reads free while a write holds the lock', async () => {
    const holding = deferred();
    const release = deferred();
    const writer = writeTransaction(db, async () => {
      holding.resolve();
      await release.promise;
    });
    await holding.promise;
    const [tree] = await db.select({ id: trees.id }).from(trees).where(eq(trees.id, treeId));
    expect(tree!.id).toBe(treeId);
    release.resolve();
    await writer;
  });
});
