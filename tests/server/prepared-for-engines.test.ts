/**
 * A hot read written for each engine (server/services/prepared.ts preparedForEngines): the same rows, as numbers,
 * from SQLite's prepared statement and from PostgreSQL's named one, whichever engine the services' tables belong to.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trees, useTablesOf } from '#drizzle/tables.ts';
import { write, type Db } from '#server/db.ts';
import { closeAppDatabase, openAppDatabase } from '#server/open-database.ts';
import { preparedForEngines } from '#server/services/prepared.ts';
import { postgresDatabase, type TestDatabase } from '#tests/helpers/server/postgres.ts';
import { tempDir } from '#tests/helpers/server/test-app.ts';

const T = Date.UTC(2026, 10, 26, 12);

const countNamed = preparedForEngines<[string], { n: number }>({
  sqlite: 'select count(*) as n from trees where name = ?',
  postgres: 'select count(*)::int as n from trees where name = $1',
});
const idsAndTimes = preparedForEngines<[number], [number, number]>(
  {
    sqlite: 'select id, created_at from trees where created_at >= ? order by id',
    postgres: 'select id, created_at::float8 from trees where created_at >= $1 order by id',
  },
  { raw: true },
);

async function plantTrees(db: Db): Promise<void> {
  await write(db, async (tx) => {
    for (const [i, name] of ['Oak', 'Oak', 'Elm'].entries())
      await tx.insert(trees).values({ token: `tree-${i}`, name, settings: {}, createdAt: T + i });
  });
}

async function expectSameAnswers(db: Db): Promise<void> {
  expect(await countNamed.get(db, 'Oak')).toEqual({ n: 2 });
  expect(await countNamed.all(db, 'Ash')).toEqual([{ n: 0 }]);
  const rows = await idsAndTimes.all(db, T + 1);
  expect(rows.map(([, at]) => at)).toEqual([T + 1, T + 2]);
  for (const row of rows) for (const value of row) expect(typeof value).toBe('number');
  // Asked again (the statement prepared already): the same.
  expect(await countNamed.get(db, 'Elm')).toEqual({ n: 1 });
}

describe('a read prepared for each engine', () => {
  let database: TestDatabase;
  let dir: string;

  beforeAll(async () => {
    database = await postgresDatabase();
    dir = tempDir('prepared-');
  });

  afterAll(async () => {
    useTablesOf('sqlite');
    await database?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers on SQLite', async () => {
    const db = await openAppDatabase({ databaseFile: path.join(dir, 'gallery.db'), databaseUrl: null });
    try {
      await plantTrees(db);
      await expectSameAnswers(db);
    } finally {
      await closeAppDatabase(db);
    }
  });

  it('answers the same on PostgreSQL', async () => {
    const db = await openAppDatabase({ databaseFile: path.join(dir, 'unused.db'), databaseUrl: database.url });
    try {
      await plantTrees(db);
      await expectSameAnswers(db);
    } finally {
      await closeAppDatabase(db);
    }
  });
});
