/**
 * drizzle/tables.ts hands the services their tables: SQLite's by default, PostgreSQL's twins after
 * useTablesOf('postgres'). Every table of either schema has its binding, and a swap moves every one of them (a
 * table left behind would send one dialect's SQL to the other engine). And no module of the server reads a binding
 * when it is imported (a condition, a set of columns or an alias made once at module scope): what it made would keep
 * SQLite's tables after the swap, and decode or write PostgreSQL's values as SQLite's.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { is } from 'drizzle-orm';
import ts from 'typescript';
import { PgTable } from 'drizzle-orm/pg-core';
import { SQLiteTable } from 'drizzle-orm/sqlite-core';
import { afterEach, describe, expect, it } from 'vitest';
import * as sqliteSchema from '#drizzle/schema.ts';
import * as pgSchema from '#drizzle/schema-pg.ts';
import * as tables from '#drizzle/tables.ts';
import { PROJECT_ROOT } from '../helpers/paths.ts';

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

/** Where a module of `dir` reads a binding of drizzle/tables.ts outside any function: "file:line name". */
function bindingsReadAtImport(dir: string): string[] {
  const found: string[] = [];
  const files = fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.ts'));
  for (const name of files) {
    const file = path.join(dir, name);
    const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const imported = new Set<string>();
    for (const statement of source.statements) {
      if (!ts.isImportDeclaration(statement) || statement.importClause?.isTypeOnly) continue;
      if ((statement.moduleSpecifier as ts.StringLiteral).text !== '#drizzle/tables.ts') continue;
      const named = statement.importClause?.namedBindings;
      if (named && ts.isNamedImports(named))
        for (const element of named.elements) if (!element.isTypeOnly) imported.add(element.name.text);
    }
    const visit = (node: ts.Node): void => {
      // Inside a function it is read when called, after the swap; a type is no value.
      if (ts.isFunctionLike(node) || ts.isTypeNode(node) || ts.isImportDeclaration(node)) return;
      if (ts.isIdentifier(node) && imported.has(node.text) && !isNameOnly(node)) {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart());
        found.push(`${path.relative(PROJECT_ROOT, file)}:${line + 1} ${node.text}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

/** A property's or a declaration's own name (`{ cells: 3 }`, `interface X { cells: number }`), not a read. */
function isNameOnly(node: ts.Identifier): boolean {
  const parent = node.parent;
  return (
    (ts.isPropertyAssignment(parent) ||
      ts.isPropertySignature(parent) ||
      ts.isPropertyDeclaration(parent) ||
      ts.isPropertyAccessExpression(parent)) &&
    parent.name === node
  );
}

describe('the server modules', () => {
  it('read no table binding when imported, only inside functions', () => {
    const found = ['server', 'scripts'].flatMap((dir) => bindingsReadAtImport(path.join(PROJECT_ROOT, dir)));
    expect(found).toEqual([]);
  });

  it('are looked at by this check: a condition made at module scope is found', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tables-at-import-'));
    try {
      fs.writeFileSync(
        path.join(dir, 'held.ts'),
        [
          "import { eq } from 'drizzle-orm';",
          "import { art, cells } from '#drizzle/tables.ts';",
          'export type Row = typeof art.$inferSelect;',
          'export const onItsSquare = eq(cells.artId, 1);',
          'export const later = () => eq(art.id, 1);',
        ].join('\n'),
      );
      expect(bindingsReadAtImport(dir)).toEqual([`${path.relative(PROJECT_ROOT, dir)}/held.ts:4 cells`]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
