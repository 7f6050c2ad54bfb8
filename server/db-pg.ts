/**
 * PostgreSQL (15 or later) as the second engine, beside server/db.ts (decision 037): `openPostgres(url)` connects a
 * pool, applies migrations-pg/ and returns a drizzle handle over drizzle/schema-pg.ts; `writeTransaction` is how every
 * change runs on it and `readTransactionPg` how agreeing reads do, registered as what the services' `write` and
 * `readTransaction` run on this handle (server/db.ts). The app opens it when DATABASE_URL is set (open-database.ts).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { NodePgSession, NodePgTransaction } from 'drizzle-orm/node-postgres/session';
import pg from 'pg';
import * as schema from '#drizzle/schema-pg.ts';
import { useEngineTransactions, type Db } from './db.ts';
import { keepPgStatements } from './pg-statement-cache.ts';
import { StartupError } from './startup-error.ts';

export type PgDb = NodePgDatabase<typeof schema> & { $client: pg.Pool };

/** A transaction on a PgDb: what a change runs in. */
export type PgTransaction = Parameters<Parameters<PgDb['transaction']>[0]>[0];

export const PG_MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../migrations-pg');

/** The oldest PostgreSQL the app is tested on (server_version_num). */
const OLDEST_SERVER = 150_000;

/**
 * Advisory lock keys (one 64-bit space per database, shared with anything else that uses the database, hence numbers
 * unlikely to be chosen by chance): one for applying migrations, one that every write transaction takes.
 */
const MIGRATIONS_LOCK = 0x6761_6c6c_0001;
const WRITE_LOCK = 0x6761_6c6c_0002;

export interface PostgresOptions {
  /** Connections the pool opens at most (10 by default). */
  maxConnections?: number;
}

/**
 * Connects to the database at `url` (a `postgres://` URL), applies the migrations not applied yet, and returns the
 * handle. Several processes starting together apply them once: each waits for the migrations lock before looking.
 * Fails with a StartupError that says why: the server cannot be reached or refuses the login, is older than 15, the
 * database is not UTF-8, or a migration failed.
 */
export async function openPostgres(url: string, options: PostgresOptions = {}): Promise<PgDb> {
  const where = withoutPassword(url);
  const pool = new pg.Pool({
    connectionString: url,
    max: options.maxConnections ?? 10,
    // A server that does not answer fails a query in seconds (a health probe says so) instead of holding it.
    connectionTimeoutMillis: 5_000,
    application_name: 'gallery-tree',
  });
  // A connection that breaks while idle (the server restarted, a proxy timed it out) is dropped from the pool, and
  // the next query opens a new one; left unheard, the pool's 'error' event would end the process.
  pool.on('error', () => {});
  // Each connection prepares a query's text once and binds its values after that (pg-statement-cache.ts).
  keepPgStatements(pool);
  const db: PgDb = drizzle({ client: pool, schema });
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    await pool.end();
    throw new StartupError(`The PostgreSQL database at ${where} cannot be connected to: ${reason(error)}.`);
  }
  try {
    const { rows } = await client.query<{ v: string }>('select current_setting($1) as v', ['server_version_num']);
    const version = Number(rows[0]?.v);
    if (!(version >= OLDEST_SERVER)) {
      throw new StartupError(
        `The PostgreSQL server at ${where} is version ${Math.floor(version / 10_000)}; the app needs 15 or later.`,
      );
    }
    await checkText(client, where);
    await client.query('select pg_advisory_lock($1)', [MIGRATIONS_LOCK]);
    try {
      // On the locked connection itself: its migrations run in one transaction there.
      await migrate(drizzle({ client, schema }), { migrationsFolder: PG_MIGRATIONS_DIR });
    } finally {
      // A broken connection frees its locks as it closes (the catch below closes it).
      await client.query('select pg_advisory_unlock($1)', [MIGRATIONS_LOCK]).catch(() => {});
    }
    client.release();
    // The services' `write(db, work)` and `readTransaction(db, work)` run on this handle as this engine's own.
    useEngineTransactions(db, {
      write: (work) => writeTransaction(db, async (tx) => work(tx as unknown as Db)),
      read: (work) => readTransactionPg(db, async (tx) => work(tx as unknown as Db)),
    });
    return db;
  } catch (error) {
    client.release(true);
    await pool.end();
    if (error instanceof StartupError) throw error;
    throw new StartupError(`The PostgreSQL database at ${where} could not be prepared: ${reason(error)}.`);
  }
}

/**
 * Search folds case and finds words by the database's character classes (decision 037): with encoding SQL_ASCII or
 * LC_CTYPE `C`, `É` would neither lower-case nor count as a letter. Refuses such a database with how to create one.
 */
async function checkText(client: pg.PoolClient, where: string): Promise<void> {
  const { rows } = await client.query<{ ok: boolean; encoding: string; ctype: string }>(
    `select lower('ÉΣ') = 'éσ' and regexp_replace('é1', '[^[:alnum:]]', '', 'g') = 'é1' as ok,
            pg_encoding_to_char(encoding) as encoding, datctype as ctype
     from pg_database where datname = current_database()`,
  );
  const row = rows[0];
  if (row?.ok) return;
  throw new StartupError(
    `The PostgreSQL database at ${where} has encoding ${row?.encoding ?? '?'} and LC_CTYPE ${row?.ctype ?? '?'}: ` +
      "the app needs UTF8 and a UTF-8 LC_CTYPE (CREATE DATABASE … ENCODING 'UTF8' LOCALE 'C.UTF-8' TEMPLATE template0).",
  );
}

/** Closes the pool's connections once the queries running finish. */
export async function closePostgres(db: PgDb): Promise<void> {
  if (!db.$client.ended) await db.$client.end();
}

/**
 * The statement a write transaction opens with: BEGIN and the one write lock in a single round trip (the simple query
 * protocol takes both). Read committed, so every statement after the lock sees all that committed before it.
 */
const BEGIN_WRITE = `begin isolation level read committed; select pg_advisory_xact_lock(${WRITE_LOCK})`;

/** What drizzle's session over the pool was made with, to make one of the same kind over a single connection. */
interface SessionParts {
  dialect: ConstructorParameters<typeof NodePgSession>[1];
  schema: ConstructorParameters<typeof NodePgSession>[2];
  options: ConstructorParameters<typeof NodePgSession>[3];
}

/**
 * Runs `work` in a transaction that first takes the database's one write lock, held until it commits or rolls back:
 * writes follow one another as on SQLite (an IMMEDIATE transaction), so what a change read still holds when it
 * writes, and the numbers an identity hands out (the tree's change log) follow commit order. Reads need no lock.
 *
 * Drizzle's own `transaction` sends BEGIN alone and the lock would follow as a second statement; every statement is a
 * round trip and a socket write, which on a busy host cost more than the statement itself. So the transaction is made
 * here the way drizzle makes it (its session over one pooled connection, its transaction object over that), opened
 * with BEGIN_WRITE, and ended with COMMIT or, on any error, ROLLBACK.
 */
export async function writeTransaction<T>(db: PgDb, work: (tx: PgTransaction) => Promise<T>): Promise<T> {
  const { dialect, schema: relations, options } = db._.session as unknown as SessionParts;
  const client = await db.$client.connect();
  // Back to the pool only after a COMMIT or ROLLBACK that went through; a connection left inside a transaction, or
  // broken, is closed instead, so that nobody inherits it.
  let ended = false;
  try {
    const tx = new NodePgTransaction(dialect, new NodePgSession(client, dialect, relations, options), relations);
    await client.query(BEGIN_WRITE);
    let result: T;
    try {
      result = await work(tx as unknown as PgTransaction);
    } catch (error) {
      await client.query('rollback').then(
        () => (ended = true),
        () => {},
      );
      throw error;
    }
    await client.query('commit');
    ended = true;
    return result;
  } finally {
    client.release(!ended);
  }
}

/**
 * Runs `work` in a repeatable-read, read-only transaction: all its statements see one snapshot (taken at the first),
 * so several reads agree. No lock: it waits for no writer and no writer waits for it.
 */
export function readTransactionPg<T>(db: PgDb, work: (tx: PgTransaction) => Promise<T>): Promise<T> {
  return db.transaction(work, { isolationLevel: 'repeatable read', accessMode: 'read only' });
}

/** The URL as it may be shown in a message: its password replaced. */
function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'the URL given (which is not a valid URL)';
  }
}

function reason(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return reason(error.errors[0]);
  return error instanceof Error ? error.message.replace(/\.$/, '') || error.name : String(error);
}
