/**
 * A fingerprint of everything the server stores: a hash of every row of every table and the list of media files.
 * Two equal fingerprints mean a call wrote nothing, which is how the hostile-input tests prove that a refused call
 * left no trace. Tables are read from SQLite itself, so a table added later is covered without a change here.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { Db } from '#server/db.ts';

/** Attempt counters: a refused login or search still counts against its limit, by design (decision 006). */
const COUNTERS = new Set(['rate_limit_hits']);

export interface StoreFingerprint {
  tables: Record<string, string>;
  files: string[];
}

export function storeFingerprint(db: Db, mediaDir: string): StoreFingerprint {
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
  return { tables, files: fs.readdirSync(mediaDir).sort() };
}

/** FTS5 keeps its index in shadow tables (name_data, name_idx, ...) that mirror the virtual table hashed already. */
function isFtsShadow(name: string, all: readonly string[]): boolean {
  return all.some(
    (other) => other !== name && name.startsWith(`${other}_`) && /_(data|idx|content|docsize|config)$/.test(name),
  );
}

const bigints = (_key: string, value: unknown) => (typeof value === 'bigint' ? value.toString() : value);

/**
 * The same comparison made cheap enough to run around thousands of calls: SQLite's total_changes() counts every
 * row the connection has inserted, updated or deleted, so while it stands still the last fingerprint still holds
 * and only the media folder needs a look.
 */
export function watchStore(db: Db, mediaDir: string) {
  const changes = () => db.$client.prepare('SELECT total_changes()').pluck().get() as number;
  let cached = { changes: changes(), fingerprint: storeFingerprint(db, mediaDir) };
  const current = (): StoreFingerprint => {
    const now = changes();
    if (now !== cached.changes) cached = { changes: now, fingerprint: storeFingerprint(db, mediaDir) };
    return { tables: cached.fingerprint.tables, files: fs.readdirSync(mediaDir).sort() };
  };
  return {
    /** What is stored now. */
    mark: current,
    /** The tables and files that differ from a mark: empty when nothing was written since. */
    changedSince(mark: StoreFingerprint): string[] {
      const now = current();
      const tables = Object.keys({ ...mark.tables, ...now.tables }).filter(
        (name) => mark.tables[name] !== now.tables[name],
      );
      const files = mark.files.join('\n') === now.files.join('\n') ? [] : ['media files'];
      return [...tables, ...files];
    },
  };
}
