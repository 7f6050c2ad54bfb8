/**
 * A fingerprint of everything the server stores: a hash of every row of every table and the list of media files.
 * Two equal fingerprints mean a call wrote nothing, which is how the hostile-input tests prove that a refused call
 * left no trace. Tables are read from the database's own catalogue (SQLite's or PostgreSQL's), so a table added
 * later is covered without a change here.
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { Db } from '#server/db.ts';
import { isPostgres } from '#server/open-database.ts';
import type { MediaStorage } from '#server/storage/index.ts';
import { storedFiles } from './media-files.ts';

/** Attempt counters: a refused login or search still counts against its limit, by design (decision 006). */
const COUNTERS = new Set(['rate_limit_hits']);

export interface StoreFingerprint {
  tables: Record<string, string>;
  files: string[];
}

export async function storeFingerprint(db: Db, media: MediaStorage): Promise<StoreFingerprint> {
  const tables = isPostgres(db) ? await postgresTables(db.$client as unknown as pg.Pool) : sqliteTables(db);
  return { tables, files: await storedFiles(media) };
}

function sqliteTables(db: Db): Record<string, string> {
  const client = db.$client;
  const names = client
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '__drizzle%' ORDER BY name",
    )
    .pluck()
    .all() as string[];
  const tables: Record<string, string> = {};
  for (const name of names) {
    if (COUNTERS.has(name) || isFtsShadow(name, names)) continue;
    const hash = createHash('sha256');
    for (const row of client.prepare(`SELECT * FROM "${name}"`).raw().iterate())
      hash.update(JSON.stringify(row, bigints));
    tables[name] = hash.digest('hex').slice(0, 16);
  }
  return tables;
}

/**
 * PostgreSQL's tables of the app's schema (its migrations keep their own), each hashed in one statement: rows in the
 * order of their text, since PostgreSQL moves a row it updates, even to the same values.
 */
async function postgresTables(pool: pg.Pool): Promise<Record<string, string>> {
  const names = (
    await pool.query<{ name: string }>(
      "select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by 1",
    )
  ).rows
    .map((row) => row.name)
    .filter((name) => !COUNTERS.has(name));
  const hashes = await pool.query<{ name: string; hash: string }>(
    names
      .map(
        (name) =>
          `select '${name}' as name, md5(coalesce(string_agg(t::text, E'\\n' order by t::text), '')) as hash from "${name}" t`,
      )
      .join(' union all '),
  );
  return Object.fromEntries(hashes.rows.map((row) => [row.name, row.hash.slice(0, 16)]));
}

/** FTS5 keeps its index in shadow tables (name_data, name_idx, ...) that mirror the virtual table hashed already. */
function isFtsShadow(name: string, all: readonly string[]): boolean {
  return all.some(
    (other) => other !== name && name.startsWith(`${other}_`) && /_(data|idx|content|docsize|config)$/.test(name),
  );
}

const bigints = (_key: string, value: unknown) => (typeof value === 'bigint' ? value.toString() : value);

/**
 * The same comparison made cheap enough to run around thousands of calls: while the database has written nothing (by
 * SQLite's total_changes(), the rows this connection has inserted, updated or deleted; by PostgreSQL's write-ahead
 * log position, which any write moves) the last fingerprint still holds and only the media folder needs a look.
 */
export function watchStore(db: Db, media: MediaStorage) {
  const writes = async (): Promise<string> =>
    isPostgres(db)
      ? (
          await (db.$client as unknown as pg.Pool).query<{ at: string }>(
            'select pg_current_wal_insert_lsn()::text as at',
          )
        ).rows[0]!.at
      : String(db.$client.prepare('SELECT total_changes()').pluck().get());
  let cached: { writes: string; fingerprint: StoreFingerprint } | null = null;
  const current = async (): Promise<StoreFingerprint> => {
    const now = await writes();
    if (now !== cached?.writes) cached = { writes: now, fingerprint: await storeFingerprint(db, media) };
    return { tables: cached.fingerprint.tables, files: await storedFiles(media) };
  };
  return {
    /** What is stored now. */
    mark: current,
    /** The tables and files that differ from a mark: empty when nothing was written since. */
    async changedSince(mark: StoreFingerprint): Promise<string[]> {
      const now = await current();
      const tables = Object.keys({ ...mark.tables, ...now.tables }).filter(
        (name) => mark.tables[name] !== now.tables[name],
      );
      const files = mark.files.join('\n') === now.files.join('\n') ? [] : ['media files'];
      return [...tables, ...files];
    },
  };
}
