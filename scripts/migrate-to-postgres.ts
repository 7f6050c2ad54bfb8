/**
 * `npm run migrate-to-postgres -- DATABASE_URL`: copies the gallery of DATA_DIR's SQLite file into an empty
 * PostgreSQL database (decision 037, "Amendment: moving a gallery"; README "Moving to PostgreSQL").
 *
 * The SQLite file is opened read-only and read in one read transaction (one consistent moment). The target is
 * migrated by openPostgres, then everything happens in one PostgreSQL transaction: the app's tables are locked and
 * must all be empty; every table of the schema modules is copied, parents before children, streamed from SQLite in
 * primary-key order and inserted in multi-row batches, every value read as the app reads it (drizzle's SQLite column
 * mapping) and written as the app writes it (drizzle's PostgreSQL column mapping), ids, tokens and the change log's
 * numbers kept; each identity is moved past its highest id; the search table is rebuilt from the copied rows by the
 * reindexing rule (SQLite's FTS5 table is not copied); then each table's rows are read back from PostgreSQL and
 * compared with what was read from SQLite, by count and by an order-independent checksum over the values as the app
 * sees them. Only when all agree does the transaction commit; any failure rolls it back and leaves the target as
 * empty as it was (migrated, without rows), so the command can simply be run again.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { getTableName, is, type Column } from 'drizzle-orm';
import { getTableConfig as getPgTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { getTableConfig as getSqliteTableConfig, SQLiteTable } from 'drizzle-orm/sqlite-core';
import type pg from 'pg';
import * as pgSchema from '#drizzle/schema-pg.ts';
import * as sqliteSchema from '#drizzle/schema.ts';
import { ConfigError, loadConfig } from '#server/config.ts';
import { MIGRATIONS_DIR } from '#server/db.ts';
import { closePostgres, openPostgres, type PgDb } from '#server/db-pg.ts';
import { StartupError } from '#server/startup-error.ts';
import { rebuildSearchIndexPostgres } from '#server/services/search/index.ts';
import { ArtStatus } from '#shared/domain.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const USAGE =
  'Usage: npm run migrate-to-postgres -- DATABASE_URL   (copies the SQLite database of DATA_DIR, ./data by default, ' +
  'into the empty PostgreSQL database at postgres://user:password@host:port/database)';

/** Rows an INSERT carries at most; fewer when the table has so many columns that the parameters would pass the cap. */
const BATCH_ROWS = 2000;
/** PostgreSQL takes at most 65,535 parameters a statement. */
const MAX_PARAMETERS = 60_000;
/** Rows a read-back query fetches at a time. */
const READ_BACK_ROWS = 5000;
/** A line of progress inside a long table every this many rows. */
const PROGRESS_EVERY = 200_000;

/** Refusals and failed checks: told as one line, nothing written. */
class CopyError extends Error {}

interface ColumnPlan {
  name: string;
  sqlite: Column;
  pg: Column;
  /** An integer column on PostgreSQL (integer, bigint), where SQLite would also keep a number with a fraction. */
  whole: boolean;
}

interface TablePlan {
  name: string;
  columns: ColumnPlan[];
  /** The primary key's columns: the order rows are read in. */
  key: string[];
  /** The identity column, moved past the highest value after the copy; null when the table has none. */
  identity: string | null;
}

interface TableResult {
  name: string;
  sqliteRows: number;
  pgRows: number;
  sameChecksum: boolean;
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);
const number = (n: number) => n.toLocaleString('en-US');

/** The search table, which PostgreSQL has as a plain table and SQLite as FTS5 outside its schema module. */
const SEARCH_TABLE = getTableName(pgSchema.artSearch);

/**
 * What to copy, from the two schema modules (never a list of names kept here, so a new table is never left out),
 * parents before children. Refuses a table or column one engine has and the other lacks.
 */
function planTables(): TablePlan[] {
  const sqliteTables = new Map(
    (Object.values(sqliteSchema) as unknown[])
      .filter((value): value is SQLiteTable => is(value, SQLiteTable))
      .map((table) => [getTableName(table), table]),
  );
  const pgTables = (Object.values(pgSchema) as unknown[]).filter((value): value is PgTable => is(value, PgTable));
  const plans = new Map<string, TablePlan & { parents: string[] }>();
  for (const table of pgTables) {
    const name = getTableName(table);
    if (name === SEARCH_TABLE) continue;
    const twin = sqliteTables.get(name);
    if (!twin) throw new CopyError(`The PostgreSQL schema's table ${name} has no twin in drizzle/schema.ts.`);
    const config = getPgTableConfig(table);
    const sqliteColumns = new Map(getSqliteTableConfig(twin).columns.map((column) => [column.name, column]));
    const columns = config.columns
      .filter((column) => !column.generated)
      .map((column) => {
        const sqlite = sqliteColumns.get(column.name);
        if (!sqlite) throw new CopyError(`The column ${name}.${column.name} has no twin in drizzle/schema.ts.`);
        return { name: column.name, sqlite, pg: column, whole: column.dataType === 'number' };
      });
    for (const column of sqliteColumns.keys()) {
      if (!columns.some((c) => c.name === column)) {
        throw new CopyError(`The column ${name}.${column} of drizzle/schema.ts has no twin in drizzle/schema-pg.ts.`);
      }
    }
    const key =
      config.primaryKeys[0]?.columns.map((column) => column.name) ??
      config.columns.filter((column) => column.primary).map((column) => column.name);
    if (key.length === 0) throw new CopyError(`The table ${name} has no primary key to read it in order by.`);
    const parents = config.foreignKeys
      .map((foreignKey) => getTableName(foreignKey.reference().foreignTable))
      .filter((parent) => parent !== name);
    const identity = config.columns.find((column) => column.generatedIdentity)?.name ?? null;
    plans.set(name, { name, columns, key, identity, parents });
  }
  for (const name of sqliteTables.keys()) {
    if (!plans.has(name)) throw new CopyError(`The SQLite schema's table ${name} has no twin in drizzle/schema-pg.ts.`);
  }
  // Parents first: each round takes the tables whose parents are all placed, in the schema's own order.
  const ordered: TablePlan[] = [];
  const placed = new Set<string>();
  while (placed.size < plans.size) {
    const ready = [...plans.values()].filter(
      (plan) => !placed.has(plan.name) && plan.parents.every((parent) => placed.has(parent)),
    );
    if (ready.length === 0) {
      const left = [...plans.keys()].filter((name) => !placed.has(name));
      throw new CopyError(`The foreign keys among ${left.join(', ')} go round in a circle: no order copies them.`);
    }
    for (const { parents: _parents, ...plan } of ready) {
      ordered.push(plan);
      placed.add(plan.name);
    }
  }
  return ordered;
}

/** One value as a piece of text that two engines' equal values share (a boolean is a boolean, a blob its bytes). */
function canonical(value: unknown): string {
  if (value === null || value === undefined) return 'n';
  if (typeof value === 'boolean') return value ? 't' : 'f';
  if (typeof value === 'number' || typeof value === 'bigint') return `i${value}`;
  if (typeof value === 'string') return `s${JSON.stringify(value)}`;
  if (Buffer.isBuffer(value)) return `b${value.toString('hex')}`;
  return `j${stableJson(value)}`;
}

/** JSON with object keys sorted: jsonb keeps its keys in an order of its own, which the app does not rely on. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${stableJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** An order-independent sum of the rows' hashes, so each side may be read in its own order. */
class Checksum {
  private sum = 0n;
  rows = 0;
  add(values: readonly unknown[]): void {
    const digest = createHash('sha256').update(values.map(canonical).join('\u0000')).digest();
    this.sum = (this.sum + digest.readBigUInt64BE(0)) & 0xffff_ffff_ffff_ffffn;
    this.rows++;
  }
  equals(other: Checksum): boolean {
    return this.sum === other.sum && this.rows === other.rows;
  }
}

function openSqlite(file: string, dataDir: string): Database.Database {
  if (!fs.existsSync(file)) {
    throw new CopyError(`There is no SQLite database at ${file} (DATA_DIR is ${dataDir}): nothing to copy.`);
  }
  let sqlite: Database.Database;
  try {
    sqlite = new Database(file, { readonly: true, fileMustExist: true });
    sqlite.pragma('busy_timeout = 5000');
  } catch (error) {
    throw new CopyError(`The SQLite database ${file} cannot be opened: ${reason(error)}.`);
  }
  try {
    const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as {
      entries: unknown[];
    };
    const applied = (sqlite.prepare('select count(*) as n from __drizzle_migrations').get() as { n: number }).n;
    if (applied !== journal.entries.length) {
      throw new CopyError(
        `The SQLite database ${file} has ${applied} of this version's ${journal.entries.length} migrations applied: ` +
          'start this version of the app on it once (it migrates at start), stop it, then copy.',
      );
    }
  } catch (error) {
    sqlite.close();
    if (error instanceof CopyError) throw error;
    throw new CopyError(`The file ${file} is not a gallery's SQLite database: ${reason(error)}.`);
  }
  return sqlite;
}

/** `insert into t (a, b) values ($1, $2), ($3, $4), …` for `rows` rows. */
function insertStatement(plan: TablePlan, rows: number): string {
  const width = plan.columns.length;
  const tuples = Array.from(
    { length: rows },
    (_, row) => `(${plan.columns.map((_c, column) => `$${row * width + column + 1}`).join(',')})`,
  );
  return `insert into ${quote(plan.name)} (${plan.columns.map((c) => quote(c.name)).join(',')}) values ${tuples.join(',')}`;
}

/**
 * Streams one table from SQLite into PostgreSQL; answers the checksum of what it read. SQLite keeps a number with a
 * fraction in an integer column as it is given (older demo seeds wrote such times); PostgreSQL's integer columns
 * cannot hold one, so it is rounded to the nearest whole number, counted, and said, and checked as rounded.
 */
async function copyTable(
  sqlite: Database.Database,
  client: pg.PoolClient,
  plan: TablePlan,
  log: (line: string) => void,
): Promise<Checksum> {
  const started = performance.now();
  const checksum = new Checksum();
  const rounded = new Map<string, number>();
  const batchRows = Math.max(1, Math.min(BATCH_ROWS, Math.floor(MAX_PARAMETERS / plan.columns.length)));
  const fullStatement = insertStatement(plan, batchRows);
  const select = sqlite
    .prepare(
      `select ${plan.columns.map((c) => quote(c.name)).join(',')} from ${quote(plan.name)} order by ${plan.key.map(quote).join(',')}`,
    )
    .raw(true);
  let parameters: unknown[] = [];
  let inBatch = 0;
  // One batch in flight while the next is read: PostgreSQL and this process work side by side, memory stays bounded.
  let pending: Promise<unknown> = Promise.resolve();
  const send = async () => {
    await pending;
    const text = inBatch === batchRows ? fullStatement : insertStatement(plan, inBatch);
    pending = client.query(text, parameters);
    pending.catch(() => {});
    parameters = [];
    inBatch = 0;
  };
  const appValues: unknown[] = new Array(plan.columns.length);
  for (const raw of select.iterate() as IterableIterator<unknown[]>) {
    for (let i = 0; i < plan.columns.length; i++) {
      const column = plan.columns[i]!;
      let value = raw[i] === null ? null : column.sqlite.mapFromDriverValue(raw[i]);
      if (column.whole && typeof value === 'number' && !Number.isInteger(value) && Number.isFinite(value)) {
        value = Math.round(value);
        rounded.set(column.name, (rounded.get(column.name) ?? 0) + 1);
      }
      appValues[i] = value;
      parameters.push(value === null ? null : column.pg.mapToDriverValue(value));
    }
    checksum.add(appValues);
    if (++inBatch === batchRows) await send();
    if (checksum.rows % PROGRESS_EVERY === 0) {
      log(`  ${plan.name.padEnd(22)} ${number(checksum.rows).padStart(11)} rows so far  ${seconds(started)} s`);
    }
  }
  if (inBatch > 0) await send();
  await pending;
  log(`  ${plan.name.padEnd(22)} ${number(checksum.rows).padStart(11)} rows  ${seconds(started).padStart(6)} s`);
  for (const [column, n] of rounded) {
    log(
      `    ${plan.name}.${column}: ${number(n)} ${n === 1 ? 'value' : 'values'} with a fraction rounded to a whole number`,
    );
  }
  return checksum;
}

/** Reads one table back from PostgreSQL, in primary-key order a page at a time, as the app would read its values. */
async function readBack(client: pg.PoolClient, plan: TablePlan): Promise<Checksum> {
  const checksum = new Checksum();
  const columns = plan.columns.map((c) => quote(c.name)).join(',');
  const key = plan.key.map(quote).join(',');
  const keyAt = plan.key.map((name) => plan.columns.findIndex((c) => c.name === name));
  let after: unknown[] | null = null;
  for (;;) {
    const where: string = after ? `where (${key}) > (${plan.key.map((_k, i) => `$${i + 1}`).join(',')})` : '';
    const result: pg.QueryResult<unknown[]> = await client.query({
      text: `select ${columns} from ${quote(plan.name)} ${where} order by ${key} limit ${READ_BACK_ROWS}`,
      values: after ?? [],
      rowMode: 'array',
    });
    for (const raw of result.rows) {
      checksum.add(plan.columns.map((column, i) => (raw[i] === null ? null : column.pg.mapFromDriverValue(raw[i]))));
    }
    if (result.rows.length < READ_BACK_ROWS) return checksum;
    const last = result.rows.at(-1)!;
    after = keyAt.map((i) => last[i]);
  }
}

async function copy(sqlite: Database.Database, db: PgDb, log: (line: string) => void): Promise<void> {
  const started = performance.now();
  const plans = planTables();
  const client = await db.$client.connect();
  let open = false;
  try {
    await client.query('begin');
    open = true;
    const appTables = [...plans.map((plan) => plan.name), SEARCH_TABLE];
    // Nobody else writes while the copy runs (a second copy waits here, then finds the tables full).
    await client.query(`lock table ${appTables.map(quote).join(', ')} in exclusive mode`);
    for (const name of appTables) {
      const { rows } = await client.query<{ any: boolean }>(`select exists (select 1 from ${quote(name)}) as any`);
      if (rows[0]?.any) {
        throw new CopyError(
          `PostgreSQL's table ${name} already has rows: the copy goes only into an empty database (create a new one, or drop and recreate this one). Nothing was changed.`,
        );
      }
    }
    // One read transaction: every table as of one moment, even if something still writes to the file.
    sqlite.exec('begin');
    log(`Copying ${plans.length} tables:`);
    const fromSqlite = new Map<string, Checksum>();
    for (const plan of plans) {
      try {
        fromSqlite.set(plan.name, await copyTable(sqlite, client, plan, log));
      } catch (error) {
        throw new Error(`while copying table ${plan.name}: ${reason(error)}`);
      }
    }
    const sqliteSearchRows = (sqlite.prepare(`select count(*) as n from ${SEARCH_TABLE}`).get() as { n: number }).n;
    sqlite.exec('commit');

    for (const plan of plans) {
      if (!plan.identity) continue;
      await client.query(
        `select setval(pg_get_serial_sequence($1, $2), coalesce((select max(${quote(plan.identity)}) from ${quote(plan.name)}), 0) + 1, false)`,
        [plan.name, plan.identity],
      );
    }
    const searchStarted = performance.now();
    const indexed = await rebuildSearchIndexPostgres(client);
    log(
      `  ${`${SEARCH_TABLE} (rebuilt)`.padEnd(22)} ${number(indexed).padStart(11)} rows  ${seconds(searchStarted).padStart(6)} s`,
    );

    const checkStarted = performance.now();
    const results: TableResult[] = [];
    for (const plan of plans) {
      const read = await readBack(client, plan);
      const copied = fromSqlite.get(plan.name)!;
      results.push({ name: plan.name, sqliteRows: copied.rows, pgRows: read.rows, sameChecksum: read.equals(copied) });
    }
    const { rows: published } = await client.query<{ n: number }>(
      'select count(*)::int as n from art where status = $1',
      [ArtStatus.Published],
    );
    log(`Checked in ${seconds(checkStarted)} s:`);
    log(`  ${'table'.padEnd(22)} ${'SQLite'.padStart(11)} ${'PostgreSQL'.padStart(11)}  checksum`);
    for (const result of results) {
      const verdict = result.sqliteRows !== result.pgRows ? 'COUNTS DIFFER' : result.sameChecksum ? 'same' : 'DIFFERS';
      log(
        `  ${result.name.padEnd(22)} ${number(result.sqliteRows).padStart(11)} ${number(result.pgRows).padStart(11)}  ${verdict}`,
      );
    }
    log(
      `  ${SEARCH_TABLE.padEnd(22)} ${number(sqliteSearchRows).padStart(11)} ${number(indexed).padStart(11)}  rebuilt: ${number(published[0]!.n)} published pieces`,
    );
    const wrong = results.find((result) => result.sqliteRows !== result.pgRows || !result.sameChecksum);
    if (wrong) {
      throw new CopyError(
        wrong.sqliteRows !== wrong.pgRows
          ? `Check failed: table ${wrong.name} has ${wrong.sqliteRows} rows in SQLite and ${wrong.pgRows} in PostgreSQL; the copy was rolled back, PostgreSQL is empty again.`
          : `Check failed: table ${wrong.name} reads back different values from PostgreSQL; the copy was rolled back, PostgreSQL is empty again.`,
      );
    }
    if (indexed !== published[0]!.n) {
      throw new CopyError(
        `Check failed: ${SEARCH_TABLE} has ${indexed} rows for ${published[0]!.n} published pieces; the copy was rolled back.`,
      );
    }
    await client.query('commit');
    open = false;
    const total = results.reduce((sum, result) => sum + result.pgRows, 0);
    log(`Copied ${number(total)} rows of ${plans.length} tables in ${seconds(started)} s.`);
    // The planner's statistics of the copied tables and their visibility maps, now rather than whenever autovacuum
    // comes by: without statistics the first visitors' searches read the whole search table (a prefix search took
    // 25 ms instead of 2), and until a table is vacuumed an index cannot answer alone (a search's words' index read
    // the table row by row: 7 ms a search instead of 2).
    const analyzeStarted = performance.now();
    await client.query('vacuum (analyze)');
    log(
      `Tables vacuumed and statistics gathered for the query planner (VACUUM ANALYZE) in ${seconds(analyzeStarted)} s.`,
    );
  } finally {
    if (sqlite.inTransaction) sqlite.exec('rollback');
    if (open) await client.query('rollback').catch(() => {});
    client.release();
  }
}

async function main(): Promise<void> {
  const url = process.argv.slice(2).find((arg) => !arg.startsWith('-'));
  if (!url || process.argv.includes('--help') || process.argv.includes('-h')) {
    console.log(USAGE);
    process.exit(url ? 0 : 1);
  }
  if (!/^postgres(ql)?:\/\//.test(url))
    throw new CopyError(`${USAGE.split('   ')[0]}: the URL must start with postgres://.`);
  const config = loadConfig(process.env, root);
  const sqlite = openSqlite(config.databaseFile, config.dataDir);
  try {
    const db = await openPostgres(url, { maxConnections: 2 });
    try {
      console.log(`From ${config.databaseFile} to ${withoutPassword(url)}`);
      await copy(sqlite, db, (line) => console.log(line));
    } finally {
      await closePostgres(db);
    }
  } finally {
    sqlite.close();
  }
}

function withoutPassword(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message.replace(/\.$/, '') : String(error);
}

try {
  await main();
} catch (error) {
  if (error instanceof CopyError || error instanceof StartupError || error instanceof ConfigError) {
    console.error(`Cannot move the gallery to PostgreSQL: ${error.message}`);
  } else {
    console.error(
      `The copy to PostgreSQL failed: ${reason(error)}. It ran in one transaction, which was rolled back: the database holds no rows, and the command can be run again.`,
    );
  }
  process.exit(1);
}
