/**
 * PostgreSQL's connections keep the statements they run (server/pg-statement-cache.ts, decision 037), on a real
 * server: a query with parameters run a second time is prepared, once per connection, under a name made from its
 * text and only bound after that; a text run once is not; a query without parameters (several statements, as a
 * migration's) is left to the simple protocol; past
 * the bound the least recently used is deallocated on the server, inside a transaction too, and prepared again when
 * it comes back; a statement whose preparing failed is never deallocated (which would abort the transaction).
 */
import { eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '#drizzle/schema-pg.ts';
import { closePostgres, openPostgres, type PgDb } from '#server/db-pg.ts';
import { keepPgStatements, statementNameOf } from '#server/pg-statement-cache.ts';
import { postgresDatabase, type TestDatabase } from '#tests/helpers/server/postgres.ts';

let database: TestDatabase;
let db: PgDb;

beforeAll(async () => {
  database = await postgresDatabase();
  db = await openPostgres(database.url, { maxConnections: 1 });
});
afterAll(async () => {
  await closePostgres(db);
  await database?.drop();
});

/** The statements the connection prepared, by name (one connection: every query runs on it). */
async function prepared(on: Pick<pg.ClientBase, 'query'>): Promise<Map<string, string>> {
  const { rows } = await on.query<{ name: string; statement: string }>(
    'select name, statement from pg_prepared_statements',
  );
  return new Map(rows.map((row) => [row.name, row.statement]));
}

describe("the app's connections", () => {
  it('prepare a query with parameters run again once, under a name made from its text, and bind it after that', async () => {
    const byEmail = (email: string) => db.select({ id: users.id }).from(users).where(eq(users.email, email));
    const text = byEmail('x').toSQL().sql;
    for (const email of ['a@x.test', 'b@x.test', 'c@x.test']) expect(await byEmail(email)).toEqual([]);
    const once = db.select({ id: users.id }).from(users).where(eq(users.firstname, 'Once'));
    expect(await once).toEqual([]);
    const client = await db.$client.connect();
    try {
      const statements = await prepared(client);
      expect(statements.get(statementNameOf(text))).toBe(text);
      // Once, however often it ran; neither the text run once nor the query with no parameters was prepared.
      expect([...statements.values()].filter((s) => s === text)).toHaveLength(1);
      expect(statements.has(statementNameOf(once.toSQL().sql))).toBe(false);
      expect([...statements.values()].some((s) => s.includes('pg_prepared_statements'))).toBe(false);
    } finally {
      client.release();
    }
    // A text of several statements still runs, as migrations need.
    await db.execute(sql.raw('select 1; select 2'));
  });
});

describe('past the bound', () => {
  let pool: pg.Pool;
  beforeAll(() => {
    pool = new pg.Pool({ connectionString: database.url, max: 1 });
    keepPgStatements(pool, 3);
  });
  afterAll(() => pool.end());

  const texts = Array.from({ length: 5 }, (_, i) => `select $1::int + ${i} as n`);
  /** Runs `text` twice (prepared the second time) with `n`, answering what it gave. */
  const twice = async (on: Pick<pg.ClientBase, 'query'>, text: string, n: number) => [
    (await on.query(text, [n])).rows,
    (await on.query(text, [n])).rows,
  ];

  it('gives up the least recently used on the server, and prepares it again when it comes back', async () => {
    for (const [i, text] of texts.entries())
      expect(await twice(pool, text, 1)).toEqual([[{ n: 1 + i }], [{ n: 1 + i }]]);
    let statements = await prepared(pool);
    expect([...statements.values()].sort()).toEqual(texts.slice(2).sort());
    // The first comes back: prepared again, and the least recently used then (the third) is given up.
    expect(await twice(pool, texts[0]!, 5)).toEqual([[{ n: 5 }], [{ n: 5 }]]);
    statements = await prepared(pool);
    expect([...statements.values()].sort()).toEqual([texts[0], texts[3], texts[4]].sort());
  });

  it('gives one up inside a transaction without disturbing it, and never one whose preparing failed', async () => {
    const client = await pool.connect();
    try {
      // The second time it fails as it is prepared: the server has no such statement, and giving it up later must not
      // try to remove it.
      await expect(twice(client, 'select $1::int from no_such_table', 1)).rejects.toThrow(/no_such_table/);
      await expect(client.query('select $1::int from no_such_table', [1])).rejects.toThrow(/no_such_table/);
      await client.query('begin');
      for (const [i, text] of texts.entries())
        expect(await twice(client, text, i)).toEqual([[{ n: 2 * i }], [{ n: 2 * i }]]);
      await client.query('commit');
    } finally {
      client.release();
    }
    const statements = await prepared(pool);
    expect(statements.size).toBe(3);
  });

  it("runs through drizzle's transactions as before", async () => {
    const onPool = drizzle({ client: pool });
    const answer = await onPool.transaction(async (tx) => {
      const rows = await tx.execute<{ n: number }>(sql`select ${41}::int + 1 as n`);
      return rows.rows[0]!.n;
    });
    expect(answer).toBe(42);
  });
});
