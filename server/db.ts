/**
 * The one module that opens the database (docs/architecture.md, Layers): a SQLite file in WAL mode with foreign keys
 * on, migrated at start-up. Everything else receives the `Db` it returns, and reads through it; every change goes
 * through `write(db, work)`, which runs it on a second connection, one transaction at a time, and several reads that
 * must agree through `readTransaction` (decision 037). Its PostgreSQL counterpart is server/db-pg.ts; which of the two
 * the app opens is server/open-database.ts's choice.
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
import { keepStatements } from './statement-cache.ts';

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

/** The database or a transaction on it: what functions that run inside a caller's transaction take. */
export type Queryable = BaseSQLiteDatabase<'sync', Database.RunResult, typeof schema>;

/**
 * The transaction option of the seeds and scripts that write on the database's own connection before the app
 * serves: the write lock is taken first, so another process waits instead of failing. The app writes with `write`.
 */
export const IMMEDIATE = { behavior: 'immediate' } as const;

export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../migrations');

/**
 * Creates `dir` and any missing parents, one level at a time. Node's recursive mkdirSync never returns on a path
 * under a pseudo file system such as /proc (it retries the parent forever); a plain mkdirSync is refused at once.
 * A folder another process made since it was looked for is taken as made: processes starting together on one data
 * folder each create its folders.
 */
function makeDirs(dir: string): void {
  const missing: string[] = [];
  for (let at = path.resolve(dir); !fs.existsSync(at); at = path.dirname(at)) {
    missing.unshift(at);
    if (path.dirname(at) === at) break;
  }
  for (const folder of missing) {
    try {
      fs.mkdirSync(folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
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
    keepStatements(client);
    writers.set(client, new Writer(client.memory ? db : openWriteConnection(file)));
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
  const writer = writers.get(db.$client);
  if (writer && writer.db !== db) writer.db.$client.close();
  readers.get(db.$client)?.close();
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

/** The connection `write` runs on, beside the one `openDatabase` returns (which the app only reads through). */
function openWriteConnection(file: string): Db {
  const client = new Database(file);
  client.pragma('foreign_keys = ON');
  client.pragma('synchronous = NORMAL');
  client.pragma('busy_timeout = 5000');
  keepStatements(client);
  return drizzle(client, { schema });
}

/** How long a write waits for its turn before it fails: the queue is stuck (or a write waits on itself). */
export const WRITE_TURN_TIMEOUT_MS = 30_000;

/**
 * The write side of one database: its connection and the queue of writes waiting for it. A write's turn is handed
 * from the one that ends to the first that waits, so writes begin in the order they asked.
 */
class Writer {
  private busy = false;
  private readonly waiting: (() => void)[] = [];
  /** True while a write's work runs its first, synchronous part: a write asked for then waits on itself. */
  starting = false;
  readonly begin;
  readonly commit;
  readonly rollback;

  constructor(readonly db: Db) {
    this.begin = db.$client.prepare('BEGIN IMMEDIATE');
    this.commit = db.$client.prepare('COMMIT');
    this.rollback = db.$client.prepare('ROLLBACK');
  }

  /** Takes the turn at once when nobody has it (no await), else waits for it. */
  take(): Promise<void> | undefined {
    if (!this.busy) {
      this.busy = true;
      return undefined;
    }
    return new Promise<void>((resolve, reject) => {
      const handOver = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(handOver), 1);
        reject(new Error(`A write waited ${WRITE_TURN_TIMEOUT_MS / 1000} s for its turn: the write queue is stuck.`));
      }, WRITE_TURN_TIMEOUT_MS);
      this.waiting.push(handOver);
    });
  }

  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.busy = false;
  }
}

const writers = new WeakMap<Database.Database, Writer>();

/** How another engine runs a transaction: its database handle's own (server/db-pg.ts). */
export type EngineTransaction = (work: (tx: Db) => unknown) => Promise<unknown>;

/** Another engine's two kinds of transaction, by the handle the app holds. */
const otherEngines = new WeakMap<object, { write: EngineTransaction; read: EngineTransaction }>();

/**
 * Makes `write(db, work)` and `readTransaction(db, work)` run through the given transactions for the handle `db` of
 * another engine (PostgreSQL's write transaction under its advisory lock, its repeatable-read read transaction): the
 * services call them alike on either engine.
 */
export function useEngineTransactions(db: object, transactions: { write: EngineTransaction; read: EngineTransaction }) {
  otherEngines.set(db, transactions);
}

/** The write side of `db`: its write connection when `openDatabase` opened it, else its own connection. */
function writerOf(db: Queryable): Writer {
  const client = (db as Db).$client;
  let writer = writers.get(client);
  if (!writer) {
    writer = new Writer(db as Db);
    writers.set(client, writer);
  }
  return writer;
}

/**
 * Runs `work` as one IMMEDIATE transaction on the database's write connection, after the writes asked for before it
 * (a first-in first-out queue in this process; SQLite's lock orders it with other processes). `work` gets the
 * transaction to read and write through; reads outside it, on `db`, never see what it has not committed. It may be
 * asynchronous: nothing else writes until it ends. Its error rolls everything back and is thrown again. A function
 * that runs inside a caller's transaction takes that transaction (`Queryable`) instead of calling `write` again:
 * a nested `write` would wait for its own caller, and fails (at once when asked for synchronously, else after
 * WRITE_TURN_TIMEOUT_MS).
 */
export async function write<T>(db: Queryable, work: (tx: Db) => T | Promise<T>): Promise<T> {
  const other = otherEngines.get(db);
  if (other) return other.write(work) as Promise<T>;
  const writer = writerOf(db);
  if (writer.starting) throw new Error('A write was asked for inside another write: pass its transaction on instead.');
  const turn = writer.take();
  if (turn) await turn;
  try {
    writer.begin.run();
    try {
      let outcome: T | Promise<T>;
      writer.starting = true;
      try {
        outcome = work(writer.db);
      } finally {
        writer.starting = false;
      }
      const result = isPromise(outcome) ? await outcome : outcome;
      writer.commit.run();
      return result;
    } catch (error) {
      if (writer.db.$client.inTransaction) writer.rollback.run();
      throw error;
    }
  } finally {
    writer.release();
  }
}

/** Read connections a database keeps for read transactions at most; more wait for one. */
const READERS_MAX = 4;

/**
 * The read-only connections of one database file for read transactions, opened as needed: a read transaction holds
 * one of them from its BEGIN to its COMMIT, so other reads (on the database's own connection) never join it.
 */
class Readers {
  private readonly idle: Reader[] = [];
  private readonly waiting: ((reader: Reader) => void)[] = [];
  private opened = 0;
  private readonly all: Reader[] = [];

  constructor(private readonly file: string) {}

  take(): Reader | Promise<Reader> {
    const idle = this.idle.pop();
    if (idle) return idle;
    if (this.opened < READERS_MAX) {
      this.opened++;
      const reader = new Reader(this.file);
      this.all.push(reader);
      return reader;
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  release(reader: Reader): void {
    const next = this.waiting.shift();
    if (next) next(reader);
    else this.idle.push(reader);
  }

  close(): void {
    for (const reader of this.all) reader.db.$client.close();
  }
}

class Reader {
  readonly db: Db;
  readonly begin;
  readonly end;

  constructor(file: string) {
    const client = new Database(file, { readonly: true });
    client.pragma('busy_timeout = 5000');
    keepStatements(client);
    this.db = drizzle(client, { schema });
    this.begin = client.prepare('BEGIN');
    this.end = client.prepare('COMMIT');
  }
}

const readers = new WeakMap<Database.Database, Readers>();

/**
 * Runs `work` in one read transaction: every statement it runs through `tx` sees the database as of one moment (the
 * first read), whatever commits meanwhile, so several reads agree (a tree's version and its cells). On SQLite it holds
 * a read-only connection of its own for the while (a few are kept per database file); on PostgreSQL it is a
 * repeatable-read, read-only transaction. `work` may be asynchronous. An in-memory database (tests) has one
 * connection: `work` reads through it, outside a transaction.
 */
export async function readTransaction<T>(db: Queryable, work: (tx: Db) => T | Promise<T>): Promise<T> {
  const other = otherEngines.get(db);
  if (other) return other.read(work) as Promise<T>;
  const client = (db as Db).$client;
  if (client.memory) return work(db as Db);
  let pool = readers.get(client);
  if (!pool) {
    pool = new Readers(client.name);
    readers.set(client, pool);
  }
  const taken = pool.take();
  const reader = taken instanceof Reader ? taken : await taken;
  try {
    reader.begin.run();
    try {
      const outcome = work(reader.db);
      return isPromise(outcome) ? await outcome : outcome;
    } finally {
      reader.end.run();
    }
  } finally {
    pool.release(reader);
  }
}

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message.replace(/\.$/, '') : String(error);
}
