/**
 * The database the configuration names (decision 037): the SQLite file in DATA_DIR, or, with DATABASE_URL, a
 * PostgreSQL database, whose tables then stand in for SQLite's in every service (drizzle/tables.ts). Either way the
 * app holds one `Db`: the services read through it and write with `write(db, work)`, which runs each engine's own
 * write transaction. The handle is typed as SQLite's; the services use only what both of drizzle's dialects share.
 */
import pg from 'pg';
import { useTablesOf } from '#drizzle/tables.ts';
import type { AppConfig } from './config.ts';
import { closeDatabase, openDatabase, type Db } from './db.ts';
import { closePostgres, openPostgres, type PgDb } from './db-pg.ts';

/** True when `db` is a PostgreSQL handle (its client a connection pool). */
export function isPostgres(db: Db): boolean {
  return (db.$client as unknown) instanceof pg.Pool;
}

/**
 * Opens and migrates the configured database, and points the services' tables at its engine (a process that ran
 * PostgreSQL before, as a test worker may have, gets SQLite's back).
 */
export async function openAppDatabase(config: Pick<AppConfig, 'databaseFile' | 'databaseUrl'>): Promise<Db> {
  if (!config.databaseUrl) {
    useTablesOf('sqlite');
    return openDatabase(config.databaseFile);
  }
  const db = await openPostgres(config.databaseUrl);
  useTablesOf('postgres');
  return db as unknown as Db;
}

/** Closes what openAppDatabase opened: SQLite folds its write-ahead log back, PostgreSQL's pool ends. */
export async function closeAppDatabase(db: Db): Promise<void> {
  if (isPostgres(db)) await closePostgres(db as unknown as PgDb);
  else closeDatabase(db);
}
