/**
 * drizzle/schema-pg.ts mirrors drizzle/schema.ts (decision 037): the same tables, columns (names, nullability,
 * primary keys, defaults), unique constraints, indexes and foreign keys, read from both through each dialect's
 * getTableConfig, with each SQLite type given its PostgreSQL counterpart. The one table of PostgreSQL's own is
 * art_search, the full-text index SQLite keeps as an FTS5 table outside its schema: its texts are FTS5's columns.
 */
import fs from 'node:fs';
import path from 'node:path';
import { is, SQL, type Column } from 'drizzle-orm';
import { getTableConfig as pgTableConfig, PgDialect, PgTable } from 'drizzle-orm/pg-core';
import { getTableConfig as sqliteTableConfig, SQLiteSyncDialect, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { describe, expect, it } from 'vitest';
import * as sqliteSchema from '#drizzle/schema.ts';
import * as pgSchema from '#drizzle/schema-pg.ts';
import { MIGRATIONS_DIR } from '#server/db.ts';

const sqliteTables = new Map(
  Object.values(sqliteSchema as Record<string, unknown>)
    .filter((value): value is SQLiteTable => is(value, SQLiteTable))
    .map((table) => [sqliteTableConfig(table).name, sqliteTableConfig(table)]),
);
const pgTables = new Map(
  Object.values(pgSchema as Record<string, unknown>)
    .filter((value): value is PgTable => is(value, PgTable))
    .map((table) => [pgTableConfig(table).name, pgTableConfig(table)]),
);

/** PostgreSQL's own: the full-text index (SQLite's is the FTS5 table of migrations/0001_search.sql). */
const PG_ONLY = ['art_search'];

const sqliteDialect = new SQLiteSyncDialect();
const pgDialect = new PgDialect();

/** The PostgreSQL type each SQLite column kind becomes; integers are `integer` or, for times and log numbers, `bigint`. */
const TYPE_OF: Record<string, string> = {
  SQLiteText: 'text',
  SQLiteTextJson: 'jsonb',
  SQLiteBoolean: 'boolean',
  SQLiteBlobBuffer: 'bytea',
};

/** Unix millisecond times (past 2^31 since 1970's 25th day) and the change log's numbers need 64 bits. */
const needsBigint = (name: string) =>
  /(^at|_at|_until|_start)$/.test(name) || ['seq', 'version', 'changes_from'].includes(name);

/** A default as a value both sides can be compared by: SQL text for an expression, JSON text parsed. */
function defaultOf(column: Column, json: boolean): unknown {
  if (!column.hasDefault) return undefined;
  const value: unknown = column.default;
  if (is(value, SQL)) {
    const text = (is(column.table, PgTable) ? pgDialect : sqliteDialect).sqlToQuery(value).sql;
    return json && /^'.*'$/.test(text) ? JSON.parse(text.slice(1, -1)) : text;
  }
  return value;
}

function columnShape(column: Column, json = false) {
  return {
    notNull: column.notNull,
    primary: column.primary,
    hasDefault: column.hasDefault,
    default: defaultOf(column, json),
    unique: column.isUnique ? column.uniqueName : null,
  };
}

type AnyConfig = ReturnType<typeof sqliteTableConfig> | ReturnType<typeof pgTableConfig>;

function constraints(config: AnyConfig) {
  const dialect = 'schema' in config ? pgDialect : sqliteDialect;
  const names = (columns: readonly unknown[]) => columns.map((column) => (column as { name: string }).name);
  return {
    primaryKeys: config.primaryKeys.map((key) => ({ name: key.getName(), columns: names(key.columns) })),
    uniqueConstraints: config.uniqueConstraints.map((unique) => ({
      name: unique.getName(),
      columns: names(unique.columns),
    })),
    indexes: config.indexes
      .map(({ config: index }) => ({
        name: index.name,
        unique: index.unique,
        columns: names(index.columns),
        where: index.where ? dialect.sqlToQuery(index.where).sql : null,
      }))
      .filter((index) => !PG_ONLY.some((table) => index.name?.startsWith(`${table}_`))),
    foreignKeys: config.foreignKeys.map((key) => {
      const reference = key.reference();
      return {
        name: key.getName(),
        columns: names(reference.columns),
        foreignTable: is(reference.foreignTable, PgTable)
          ? pgTableConfig(reference.foreignTable).name
          : sqliteTableConfig(reference.foreignTable).name,
        foreignColumns: names(reference.foreignColumns),
        onDelete: key.onDelete ?? 'no action',
        onUpdate: key.onUpdate ?? 'no action',
      };
    }),
    checks: config.checks.length,
  };
}

describe('the PostgreSQL schema mirrors the SQLite schema', () => {
  it('has the same tables, and one of its own for search', () => {
    expect([...pgTables.keys()].sort()).toEqual([...sqliteTables.keys(), ...PG_ONLY].sort());
  });

  for (const [name, sqlite] of sqliteTables) {
    describe(name, () => {
      const pg = pgTables.get(name)!;

      it('has the same columns, in the same order, with the same nullability, keys and defaults', () => {
        expect(pg.columns.map((column) => column.name)).toEqual(sqlite.columns.map((column) => column.name));
        for (const column of sqlite.columns) {
          const twin = pg.columns.find((other) => other.name === column.name)!;
          const json = column.columnType === 'SQLiteTextJson';
          expect(columnShape(twin, json), column.name).toEqual(columnShape(column, json));
        }
      });

      it('gives each column its PostgreSQL type', () => {
        for (const column of sqlite.columns) {
          const twin = pg.columns.find((other) => other.name === column.name)!;
          const expected =
            TYPE_OF[column.columnType] ??
            (column.getSQLType() === 'integer' && needsBigint(column.name) ? 'bigint' : 'integer');
          expect(twin.getSQLType(), `${name}.${column.name}`).toBe(expected);
          // An autoincrement id is an identity that a copy may still write (generated by default, not always).
          const identity = (twin as { generatedIdentity?: { type: string } }).generatedIdentity?.type;
          expect(identity, `${name}.${column.name}`).toBe(
            (column as { autoIncrement?: boolean }).autoIncrement ? 'byDefault' : undefined,
          );
        }
      });

      it('has the same primary keys, unique constraints, indexes and foreign keys', () => {
        expect(constraints(pg)).toEqual(constraints(sqlite));
      });
    });
  }

  it('indexes for search the texts that FTS5 indexes on SQLite', () => {
    const migration = fs.readFileSync(path.join(MIGRATIONS_DIR, '0001_search.sql'), 'utf8');
    const fts = /CREATE VIRTUAL TABLE `art_search` USING fts5\(([^)]*)\)/.exec(migration)?.[1];
    expect(fts).toBeDefined();
    const ftsColumns = [...fts!.matchAll(/^\s*`(\w+)`,?$/gm)].map((match) => match[1]);
    expect(ftsColumns).toEqual(['title', 'keywords', 'description', 'category', 'artist']);
    const search = pgTables.get('art_search')!;
    const texts = search.columns.filter((column) => column.getSQLType() === 'text').map((column) => column.name);
    expect(texts).toEqual(ftsColumns);
    expect(search.columns.find((column) => column.name === 'art_id')?.primary).toBe(true);
    // Its words are searched through art_search_words (a migration's table and trigger), not an index of its own.
    expect(search.indexes).toEqual([]);
  });
});
