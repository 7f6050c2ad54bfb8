/**
 * SQL statements prepared once per database connection, for the hot reads (decision 017): building a query with
 * drizzle and preparing it costs more than running it on a small read, so the few paths every visitor hits keep
 * their better-sqlite3 statement, keyed by the connection so tests with their own databases never share one.
 */
import type { Statement } from 'better-sqlite3';
import type pg from 'pg';
import { tablesEngine } from '#drizzle/tables.ts';
import type { Db } from '../db.ts';

/** A getter for `sqlText` prepared on the given connection (rows as arrays when `raw`), prepared on first use. */
export function preparedOnce<Params extends unknown[], Row>(
  sqlText: string,
  options: { raw?: boolean } = {},
): (db: Db) => Statement<Params, Row> {
  const statements = new WeakMap<Db['$client'], Statement<Params, Row>>();
  return (db) => {
    let statement = statements.get(db.$client);
    if (!statement) {
      statement = db.$client.prepare<Params, Row>(sqlText);
      if (options.raw) statement.raw(true);
      statements.set(db.$client, statement);
    }
    return statement;
  };
}

/** A hot read's text for each engine: SQLite's with `?` parameters, PostgreSQL's with `$1, $2, ...`. */
export interface EngineSql {
  sqlite: string;
  /** Casts what must come back as a number (`count(*)::int`, a bigint time `::float8`): pg reads them as text. */
  postgres: string;
}

/** A hot read prepared per engine: run on the handle the app reads through, never inside a write. */
export interface EngineStatement<Params extends unknown[], Row> {
  all: (db: Db, ...params: Params) => Promise<Row[]>;
  get: (db: Db, ...params: Params) => Promise<Row | undefined>;
}

let statementNumber = 0;

/**
 * A read written for each engine (decision 037): on SQLite the better-sqlite3 statement prepared once per
 * connection (preparedOnce), on PostgreSQL a named statement the server prepares once per connection of the pool.
 * Rows as arrays when `raw`. The engine is the one the services' tables belong to (drizzle/tables.ts).
 */
export function preparedForEngines<Params extends unknown[], Row>(
  text: EngineSql,
  options: { raw?: boolean } = {},
): EngineStatement<Params, Row> {
  const sqlite = preparedOnce<Params, Row>(text.sqlite, options);
  const name = `gallery_${++statementNumber}`;
  const onPostgres = async (db: Db, params: Params): Promise<Row[]> => {
    const pool = db.$client as unknown as pg.Pool;
    const config: pg.QueryConfig<unknown[]> = { name, text: text.postgres, values: params };
    const result = options.raw ? await pool.query({ ...config, rowMode: 'array' }) : await pool.query(config);
    return result.rows as Row[];
  };
  return {
    all: async (db, ...params) => (tablesEngine() === 'postgres' ? onPostgres(db, params) : sqlite(db).all(...params)),
    get: async (db, ...params) =>
      tablesEngine() === 'postgres' ? (await onPostgres(db, params))[0] : sqlite(db).get(...params),
  };
}
