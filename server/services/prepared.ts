/**
 * SQL statements prepared once per database connection, for the hot reads (decision 017): building a query with
 * drizzle and preparing it costs more than running it on a small read, so the few paths every visitor hits keep
 * their better-sqlite3 statement, keyed by the connection so tests with their own databases never share one.
 */
import type { Statement } from 'better-sqlite3';
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
