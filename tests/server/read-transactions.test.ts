/**
 * Read transactions (server/db.ts readTransaction), on SQLite and on a real PostgreSQL: the reads of one transaction
 * see one moment though a write commits between them, the reads outside see it at once, and more transactions than
 * SQLite keeps connections for wait their turn instead of failing.
 */
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trees } from '#drizzle/tables.ts';
import { readTransaction, write, type Db } from '#server/db.ts';
import { ENGINES, openEngineDatabase, type EngineDatabase } from '#tests/helpers/server/engines.ts';

const T = Date.UTC(2026, 10, 26, 12);
let planted = 0;

async function plant(db: Db): Promise<void> {
  planted++;
  await write(db, (tx) => tx.insert(trees).values({ token: `t${planted}`, name: 'Oak', settings: {}, createdAt: T }));
}

async function treeCount(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(trees);
  return row!.n;
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe.each(ENGINES)('read transactions on %s', (engine) => {
  let database: EngineDatabase;
  beforeAll(async () => {
    database = await openEngineDatabase(engine);
    await plant(database.db);
  });
  afterAll(() => database.close());

  it('see one moment: a write committed between two reads shows only outside', async () => {
    const { db } = database;
    const before = await treeCount(db);
    const seen = await readTransaction(db, async (tx) => {
      const first = await treeCount(tx);
      await plant(db);
      expect(await treeCount(db)).toBe(before + 1);
      return [first, await treeCount(tx)];
    });
    expect(seen).toEqual([before, before]);
    expect(await treeCount(db)).toBe(before + 1);
  });

  it('run side by side, more than the connections kept, each seeing its own moment', async () => {
    const { db } = database;
    const base = await treeCount(db);
    const answers = await Promise.all(
      Array.from({ length: 9 }, (_, i) =>
        readTransaction(db, async (tx) => {
          const first = await treeCount(tx);
          await tick();
          if (i === 0) await plant(db);
          await tick();
          return (await treeCount(tx)) - first;
        }),
      ),
    );
    expect(answers).toEqual(Array.from({ length: 9 }, () => 0));
    expect(await treeCount(db)).toBe(base + 1);
  });
});
