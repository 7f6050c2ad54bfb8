/**
 * The one module that opens the database (docs/architecture.md, Layers): a SQLite file in WAL mode with foreign keys
 * on, migrated at start-up. Everything else receives the `Db` it returns. Its PostgreSQL counterpart, server/db-pg.ts,
 * is not used by the app yet (decision 037).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import type { BaseSQLiteDatabase } from 'drizzle-orm/sqlite-core';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import * as schema from '#drizzle/schema.ts';
import { StartupError } from './startup-error.ts';

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

/** The database or a transaction on it: what functions that run inside a caller's transaction take. */
export type Queryable = BaseSQLiteDatabase<'sync', Database.RunResult, typeof schema>;

/** The transaction option for every change: the write lock is taken first, so another process waits instead of failing. */
export const IMMEDIATE = { behavior: 'immediate' } as const;

export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../migrations');

/**
 * Creates `dir` and any missing parents, one level at a time. Node's recursive mkdirSync never returns on a path
 * under a pseudo file system such as /proc (it retries the parent forever); a plain mkdirSync is refused at once.
 */
function makeDirs(dir: string): void {
  const missing: string[] = [];
  for (let at = path.resolve(dir); !fs.existsSync(at); at = path.dirname(at)) {
    missing.unshift(at);
    if (path.dirname(at) === at) break;
  }
  for (const folder of missing) fs.mkdirSync(folder);
}

/** Makes sure `dir` exists and is a writable folder, or says plainly why not. */
export function ensureWritableDir(dir: string, what: string): void {
  try {
    makeDirs(dir);
  } catch (error) {
    throw new StartupError(`The ${what} ${dir} cannot be created: ${reason(error)}.`);
  }
  if (!fs.statSync(dir).isDirectory()) throw new StartupError(`The ${what} ${dir} is not a folder.`);
  try {
    fs.accessSync(dir, fs.constants.W_OK);
  } catch {
    throw new StartupError(`The ${what} ${dir} is not writable by this process.`);
  }
}

/**
 * Applies the migrations not applied yet. Several processes starting together on a new data folder may each find
 * a migration missing; the one that gets the write lock applies it, and the others' attempts then fail (the table
 * exists): they look again, find nothing left to do, and carry on (decision 025).
 */
function migrateOnce(db: Db): void {
  for (let attempt = 1; ; attempt++) {
    try {
      migrate(db, { migrationsFolder: MIGRATIONS_DIR });
      return;
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
}

/** Opens (creating if needed) and migrates the database file; ':memory:' gives a private in-memory database. */
export function openDatabase(file: string): Db {
  let client: Database.Database;
  try {
    client = new Database(file);
  } catch (error) {
    throw new StartupError(`The database file ${file} cannot be opened: ${reason(error)}.`);
  }
  try {
    client.pragma('journal_mode = WAL');
    client.pragma('foreign_keys = ON');
    client.pragma('synchronous = NORMAL');
    client.pragma('busy_timeout = 5000');
    const db: Db = drizzle(client, { schema });
    migrateOnce(db);
    return db;
  } catch (error) {
    client.close();
    const message = reason(error);
    if (/not a database|malformed|corrupt/i.test(message)) {
      throw new StartupError(`The database file ${file} is damaged or is not a SQLite database (${message}).`);
    }
    if (/readonly|read-only|permission|SQLITE_CANTOPEN/i.test(message)) {
      throw new StartupError(`The database file ${file} is not writable: ${message}.`);
    }
    throw new StartupError(`The database file ${file} could not be prepared: ${message}.`);
  }
}

/**
 * Folds the write-ahead log back into the database file and closes it, so a stopped server leaves one file that
 * opens without recovery (and that a plain file copy would capture whole).
 */
export function closeDatabase(db: Db): void {
  if (!db.$client.open) return;
  try {
    if (!db.$client.readonly && !db.$client.memory) {
      // Another process still reading keeps its part of the log: do not wait for it, it checkpoints in turn.
      db.$client.pragma('busy_timeout = 0');
      db.$client.pragma('wal_checkpoint(TRUNCATE)');
    }
  } finally {
    db.$client.close();
  }
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message.replace(/\.$/, '') : String(error);
}
