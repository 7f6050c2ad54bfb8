/**
 * drizzle/tables.ts hands the services their tables: SQLite's by default, PostgreSQL's twins after
 * useTablesOf('postgres'). Every table of either schema has its binding, and a swap moves every one of them (a
 * table left behind would send one dialect's SQL to the other engine).
 */
import { is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { SQLiteTable } from 'drizzle-orm/sqlite-core';
import { afterEach, describe, expect, it } from 'vitest';
import * as sqliteSchema from '#drizzle/schema.ts';
import * as pgSchema from '#drizzle/schema-pg.ts';
import * as tables from '#drizzle/tables.ts';

const sqliteNames = Object.entries(sqliteSchema as Record<string, unknown>)
  .filter(([, value]) => is(value, SQLiteTable))
  .map(([name]) => name);

/** PostgreSQL's own table: the search index, which SQLite keeps as an FTS5 table outside its schema. */
const PG_ONLY = ['artSearch'];

const bound = tables as unknown as Record<string, unknown>;

describe('the tables the services query', () => {
  afterEach(() => tables.useTablesOf('sqlite'));

  it('are SQLite’s at first, every one of them', () => {
    expect(sqliteNames.length).toBeGreaterThan(20);
    expect(tables.tablesEngine()).toBe('sqlite');
    for (const name of sqliteNames) expect(bound[name], name).toBe((sqliteSchema as Record<string, unknown>)[name]);
  });

  it('are all PostgreSQL’s twins after the swap, and SQLite’s again after swapping back', () => {
    const pgNames = Object.entries(pgSchema as Record<string, unknown>)
      .filter(([, value]) => is(value, PgTable))
      .map(([name]) => name);
    expect(pgNames.filter((name) => !PG_ONLY.includes(name)).sort()).toEqual([...sqliteNames].sort());
    tables.useTablesOf('postgres');
    expect(tables.tablesEngine()).toBe('postgres');
    for (const name of sqliteNames) expect(bound[name], name).toBe((pgSchema as Record<string, unknown>)[name]);
    tables.useTablesOf('sqlite');
    for (const name of sqliteNames) expect(bound[name], name).toBe((sqliteSchema as Record<string, unknown>)[name]);
  });
});
