/**
 * The tables the app queries, as the engine it runs on defines them (decision 037): SQLite's (drizzle/schema.ts) until
 * `useTablesOf('postgres')` swaps in PostgreSQL's twins (drizzle/schema-pg.ts), once, when the app opens a
 * PostgreSQL database. The services import their tables from here and never learn which engine they run on.
 *
 * Each name is a live binding: a module that imported `cells` sees the swap. The types are SQLite's; the twins have the
 * same names, columns and values (tests/unit/postgres-schema-agrees.test.ts), and the services use only what both
 * dialects' query builders share. One process runs one engine: a test file that opens PostgreSQL swaps the tables for
 * that file's workers, and uses no SQLite database of the app's after that.
 */
import { alias as pgAlias, type PgTable } from 'drizzle-orm/pg-core';
import { alias as sqliteAlias, type SQLiteTable } from 'drizzle-orm/sqlite-core';
import * as sqlite from './schema.ts';
import * as postgres from './schema-pg.ts';

export type Engine = 'sqlite' | 'postgres';

export let users = sqlite.users;
export let sessions = sqlite.sessions;
export let passwordResetTokens = sqlite.passwordResetTokens;
export let loginNetworks = sqlite.loginNetworks;
export let trees = sqlite.trees;
export let treeChanges = sqlite.treeChanges;
export let cells = sqlite.cells;
export let art = sqlite.art;
export let pictures = sqlite.pictures;
export let connections = sqlite.connections;
export let reservations = sqlite.reservations;
export let subscriptions = sqlite.subscriptions;
export let artLikes = sqlite.artLikes;
export let userLikes = sqlite.userLikes;
export let follows = sqlite.follows;
export let artViews = sqlite.artViews;
export let removalRequests = sqlite.removalRequests;
export let contactMessages = sqlite.contactMessages;
export let mailOutbox = sqlite.mailOutbox;
export let jobLeases = sqlite.jobLeases;
export let staffActions = sqlite.staffActions;
export let rateLimitHits = sqlite.rateLimitHits;

let current: Engine = 'sqlite';

/** The engine whose tables the bindings above hold. */
export function tablesEngine(): Engine {
  return current;
}

/** Points every binding at the given engine's tables. */
export function useTablesOf(engine: Engine): void {
  if (engine === current) return;
  // The twins agree column for column (the agreement test): typed as SQLite's, they build the other dialect's SQL.
  const from = (engine === 'sqlite' ? sqlite : postgres) as unknown as typeof sqlite;
  users = from.users;
  sessions = from.sessions;
  passwordResetTokens = from.passwordResetTokens;
  loginNetworks = from.loginNetworks;
  trees = from.trees;
  treeChanges = from.treeChanges;
  cells = from.cells;
  art = from.art;
  pictures = from.pictures;
  connections = from.connections;
  reservations = from.reservations;
  subscriptions = from.subscriptions;
  artLikes = from.artLikes;
  userLikes = from.userLikes;
  follows = from.follows;
  artViews = from.artViews;
  removalRequests = from.removalRequests;
  contactMessages = from.contactMessages;
  mailOutbox = from.mailOutbox;
  jobLeases = from.jobLeases;
  staffActions = from.staffActions;
  rateLimitHits = from.rateLimitHits;
  current = engine;
}

/**
 * A table under another name, for a query that joins it twice (a message's sender and its handler, both users), in
 * the dialect of the engine the tables are now. Made where the query is built, never once at import: an alias made
 * before the swap would still be SQLite's and write SQL PostgreSQL cannot run.
 */
export function tableAlias<T extends SQLiteTable>(table: T, name: string): T {
  if (current === 'sqlite') return sqliteAlias(table, name) as unknown as T;
  return pgAlias(table as unknown as PgTable, name) as unknown as T;
}
