/**
 * `npm run migrate-to-postgres -- DATABASE_URL` (scripts/migrate-to-postgres.ts; decision 037, "Amendment: moving a
 * gallery"), run as the command it is, from a real SQLite file into the real PostgreSQL of the test setup: a demo
 * gallery with a row in every table arrives whole (ids, tokens, sessions, the change log's numbers, booleans, JSON and
 * blobs as the app reads them), the search table is rebuilt as the app indexes, new rows get ids past the copied ones;
 * a non-empty target and a missing file are refused with one line, a failure half-way leaves the target empty; and a
 * generated tree of 20,000 cells (ten batches a table) copies and checks out. The engines benchmark copies a gallery
 * of 100,000 cells and as many searchable pieces (`npm run bench -- engines`).
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { eq, getTableName, is, sql, type Column } from 'drizzle-orm';
import { drizzle as sqliteDrizzle } from 'drizzle-orm/better-sqlite3';
import { getTableConfig as getPgTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { SQLiteTable } from 'drizzle-orm/sqlite-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as pgSchema from '#drizzle/schema-pg.ts';
import * as sqliteSchema from '#drizzle/schema.ts';
import { systemClock } from '#server/clock.ts';
import { testConfig } from '#server/config.ts';
import { closeDatabase, openDatabase } from '#server/db.ts';
import { closePostgres, openPostgres, type PgDb } from '#server/db-pg.ts';
import { createMediaStorage } from '#server/storage/index.ts';
import { seedDemo } from '#server/seed/demo.ts';
import { reindexArt } from '#server/services/search/index.ts';
import { generateSyntheticTree } from '#server/seed/synthetic.ts';
import type { ServiceContext } from '#server/services/context.ts';
import { newToken } from '#server/tokens.ts';
import { ArtStatus } from '#shared/domain.ts';
import { postgresDatabase, type TestDatabase } from '#tests/helpers/server/postgres.ts';
import { runScript, type ScriptRun } from '#tests/helpers/server/real-server.ts';
import { tempDir } from '#tests/helpers/server/test-app.ts';

const quietLog = { info() {}, warn() {}, error() {}, debug() {} } as unknown as ServiceContext['log'];
const T = Date.UTC(2026, 10, 27, 9);
const DAY = 24 * 60 * 60 * 1000;

const folders: string[] = [];
const databases: TestDatabase[] = [];
const handles: PgDb[] = [];

afterAll(async () => {
  for (const db of handles) await closePostgres(db);
  for (const database of databases) await database.drop();
  for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
});

async function newDatabase(): Promise<TestDatabase> {
  const database = await postgresDatabase();
  databases.push(database);
  return database;
}

function newFolder(prefix: string): string {
  const dir = tempDir(prefix);
  folders.push(dir);
  return dir;
}

/** The command as an operator runs it: DATA_DIR in the environment, the URL as its argument. */
const migrate = (dataDir: string, url: string) => runScript('migrate-to-postgres.ts', [url], dataDir);

const sqliteTables = (Object.values(sqliteSchema) as unknown[]).filter((value): value is SQLiteTable =>
  is(value, SQLiteTable),
);
const pgTables = new Map(
  (Object.values(pgSchema) as unknown[])
    .filter((value): value is PgTable => is(value, PgTable))
    .map((table) => [getTableName(table), table]),
);

/** Rows in a stable order (by their primary key's values), whichever order an engine answers in. */
function sorted<Row extends Record<string, unknown>>(table: PgTable, rows: Row[]): Row[] {
  const config = getPgTableConfig(table);
  const keyNames = (config.primaryKeys[0]?.columns ?? config.columns.filter((column) => column.primary)).map(
    (column) => column.name,
  );
  // The rows' keys are the columns' names in the schema module (userId), not in the database (user_id).
  const keys = Object.entries(table)
    .filter(([, value]) => config.columns.includes(value as never) && keyNames.includes((value as Column).name))
    .map(([key]) => key);
  const keyOf = (row: Row) => JSON.stringify(keys.map((key) => row[key]));
  return [...rows].sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
}

/** Counts of every app table on PostgreSQL, art_search included. */
async function pgCounts(db: PgDb): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const name of pgTables.keys()) {
    const { rows } = await db.$client.query<{ n: number }>(`select count(*)::int as n from "${name}"`);
    counts[name] = rows[0]!.n;
  }
  return counts;
}

/** What a fraction in an integer column becomes on PostgreSQL: the nearest whole number. */
const roundFractions = (row: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(row).map(([key, value]) => [
      key,
      typeof value === 'number' && !Number.isInteger(value) ? Math.round(value) : value,
    ]),
  );

describe('a demo gallery with a row in every table', () => {
  let dataDir: string;
  let file: string;
  let database: TestDatabase;
  let first: ScriptRun;
  let target: PgDb;
  let source: ReturnType<typeof sqliteDrizzle<typeof sqliteSchema>>;

  beforeAll(async () => {
    dataDir = newFolder('gallery-to-pg-');
    file = path.join(dataDir, 'gallery.db');
    fs.mkdirSync(path.join(dataDir, 'media'));
    const db = openDatabase(file);
    const ctx: ServiceContext = {
      db,
      clock: systemClock,
      media: createMediaStorage({ kind: 'folder', dir: path.join(dataDir, 'media') }),
      config: testConfig(dataDir),
      log: quietLog,
    };
    await seedDemo(ctx, { pieces: 6, artists: 6, seed: 11 });
    await addRowsTheDemoLacks(db);
    closeDatabase(db);
    database = await newDatabase();
    first = await migrate(dataDir, database.url);
    target = await openPostgres(database.url, { maxConnections: 2 });
    handles.push(target);
    const reader = new Database(file, { readonly: true });
    source = sqliteDrizzle(reader, { schema: sqliteSchema });
  }, 120_000);

  afterAll(() => source?.$client.close());

  it('starts from a gallery whose every table has rows', () => {
    for (const table of sqliteTables) {
      const n = source.$client.prepare(`select count(*) as n from "${getTableName(table)}"`).get() as { n: number };
      expect(n.n, getTableName(table)).toBeGreaterThan(0);
    }
  });

  it('copies, prints each table with its rows and time, the checks, and the total', () => {
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    for (const table of sqliteTables) {
      const name = getTableName(table);
      expect(first.stdout).toMatch(new RegExp(`^  ${name} +[\\d,]+ rows +[\\d.]+ s$`, 'm'));
      expect(first.stdout).toMatch(new RegExp(`^  ${name} +([\\d,]+) +\\1  same$`, 'm'));
    }
    expect(first.stdout).toMatch(/^ {4}contact_messages\.created_at: 1 value with a fraction rounded/m);
    expect(first.stdout).toMatch(/^Copied [\d,]+ rows of \d+ tables in [\d.]+ s\.$/m);
    expect(first.stdout).toMatch(
      /^Tables vacuumed and statistics gathered for the query planner \(VACUUM ANALYZE\) in [\d.]+ s\.$/m,
    );
  });

  it('leaves every table analysed, so the first queries are planned on the copied rows', async () => {
    const { rows } = await target.$client.query<{ name: string }>(
      'select relname as name from pg_stat_user_tables where last_analyze is null and last_autoanalyze is null',
    );
    expect(rows.map((row) => row.name)).toEqual([]);
  });

  it('holds the same rows in every table, as drizzle reads them on each side', async () => {
    for (const table of sqliteTables) {
      const name = getTableName(table);
      const twin = pgTables.get(name)!;
      const fromSqlite = source.select().from(table).all() as Record<string, unknown>[];
      const fromPg = (await target.select().from(twin)) as Record<string, unknown>[];
      expect(fromPg.length, name).toBe(fromSqlite.length);
      expect(sorted(twin, fromPg), name).toEqual(sorted(twin, fromSqlite.map(roundFractions)));
    }
  });

  it('keeps ids, tokens, sessions, booleans, JSON, blobs and the change log numbers', async () => {
    const S = sqliteSchema;
    const P = pgSchema;
    const byId = <Row extends { id: number }>(rows: Row[]) => [...rows].sort((a, b) => a.id - b.id);
    const usersOf = (rows: { id: number; token: string; showEmail: boolean }[]) =>
      byId(rows).map(({ id, token, showEmail }) => ({ id, token, showEmail }));
    const sqliteUsers = usersOf(source.select().from(S.users).all());
    expect(usersOf(await target.select().from(P.users))).toEqual(sqliteUsers);
    expect(sqliteUsers.some((user) => user.showEmail)).toBe(true);

    const [session] = await target.select().from(P.sessions).where(eq(P.sessions.id, 'session-one'));
    expect(Buffer.isBuffer(session!.secretHash)).toBe(true);
    expect(session!.secretHash).toEqual(Buffer.from([0, 1, 2, 254, 255, 0x80]));

    const seqs = (rows: { seq: number }[]) => rows.map((row) => row.seq).sort((a, b) => a - b);
    const sqliteSeqs = seqs(source.select().from(S.treeChanges).all());
    expect(seqs(await target.select().from(P.treeChanges))).toEqual(sqliteSeqs);
    // A gap left by a removed change stays a gap: the numbers are kept, not handed out again.
    expect(sqliteSeqs.at(-1)! - sqliteSeqs[0]!).toBeGreaterThan(sqliteSeqs.length - 1);

    const [tree] = await target.select().from(P.trees);
    expect(tree!.settings).toEqual(source.select().from(S.trees).get()!.settings);
    expect(typeof tree!.settings).toBe('object');
    const [piece] = await target.select().from(P.art).where(eq(P.art.noSize, true));
    expect(piece!.keywords).toEqual(['café', 'ünïcode', 'a "quoted" word']);
    const [reservation] = await target.select().from(P.reservations).where(eq(P.reservations.extended, true));
    expect(reservation).toBeDefined();
    const [mail] = await target.select().from(P.mailOutbox);
    expect(mail!.htmlBody).toBeNull();
    expect(mail!.nextAttemptAt).toBe(T + 2 ** 40);
  });

  it('rebuilds the search table as the app indexes: the same rows as SQLite kept', async () => {
    const indexed = source.$client
      .prepare('select rowid as artId, title, keywords, description, category, artist from art_search order by rowid')
      .all();
    expect(indexed.length).toBeGreaterThan(0);
    const rebuilt = await target
      .select({
        artId: pgSchema.artSearch.artId,
        title: pgSchema.artSearch.title,
        keywords: pgSchema.artSearch.keywords,
        description: pgSchema.artSearch.description,
        category: pgSchema.artSearch.category,
        artist: pgSchema.artSearch.artist,
      })
      .from(pgSchema.artSearch)
      .orderBy(pgSchema.artSearch.artId);
    expect(rebuilt).toEqual(indexed);
    const published = source.select().from(sqliteSchema.art).where(eq(sqliteSchema.art.status, ArtStatus.Published));
    expect(rebuilt.length).toBe(published.all().length);
  });

  it('hands a new row an id past the highest copied one, in every table with an identity', async () => {
    for (const [name, table] of pgTables) {
      const identity = getPgTableConfig(table).columns.find((column) => column.generatedIdentity);
      if (!identity) continue;
      const { rows } = await target.$client.query<{ next: string; max: string | null }>(
        `select nextval(pg_get_serial_sequence($1, $2)) as next, (select max("${identity.name}") from "${name}") as max`,
        [name, identity.name],
      );
      expect(Number(rows[0]!.next), name).toBeGreaterThan(Number(rows[0]!.max ?? 0));
    }
    const highest = Math.max(
      ...source
        .select()
        .from(sqliteSchema.users)
        .all()
        .map((user) => user.id),
    );
    const [user] = await target
      .insert(pgSchema.users)
      .values({
        token: newToken(),
        email: 'new@example.org',
        passwordHash: 'x',
        firstname: 'N',
        lastname: 'U',
        createdAt: T,
        updatedAt: T,
      })
      .returning();
    expect(user!.id).toBeGreaterThan(highest);
    const [change] = await target.insert(pgSchema.treeChanges).values({ treeId: 1, cellId: null, at: T }).returning();
    expect(change!.seq).toBeGreaterThan(
      Math.max(
        ...source
          .select()
          .from(sqliteSchema.treeChanges)
          .all()
          .map((c) => c.seq),
      ),
    );
  });

  it('refuses to copy again into the same database, with one line, and changes nothing', async () => {
    const before = await pgCounts(target);
    const again = await migrate(dataDir, database.url);
    expect(again.code).toBe(1);
    expect(again.stderr.trim().split('\n')).toHaveLength(1);
    expect(again.stderr).toMatch(/^Cannot move the gallery to PostgreSQL: PostgreSQL's table \w+ already has rows/);
    expect(again.stdout).not.toMatch(/Copied/);
    expect(await pgCounts(target)).toEqual(before);
  });

  it('leaves the target empty when a row fails half-way (one transaction)', async () => {
    // A copy of the gallery whose removal request (a late table) holds a NUL character, which PostgreSQL's text refuses.
    const broken = newFolder('gallery-to-pg-broken-');
    fs.copyFileSync(file, path.join(broken, 'gallery.db'));
    const writer = new Database(path.join(broken, 'gallery.db'));
    writer.prepare('update removal_requests set reason = ?').run('before\u0000after');
    writer.close();
    const fresh = await newDatabase();
    const run = await migrate(broken, fresh.url);
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/failed: while copying table removal_requests: .*rolled back/);
    const db = await openPostgres(fresh.url, { maxConnections: 1 });
    handles.push(db);
    expect(Object.values(await pgCounts(db)).every((n) => n === 0)).toBe(true);
    // And the command simply runs again once the row is mended.
    const mender = new Database(path.join(broken, 'gallery.db'));
    mender.prepare('update removal_requests set reason = ?').run('mended');
    mender.close();
    expect((await migrate(broken, fresh.url)).code).toBe(0);
  }, 60_000);
});

describe('refusals before anything is written', () => {
  it('a DATA_DIR without a database: one line, and PostgreSQL untouched', async () => {
    const empty = newFolder('gallery-to-pg-empty-');
    const database = await newDatabase();
    const run = await migrate(empty, database.url);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain(`There is no SQLite database at ${path.join(empty, 'gallery.db')}`);
    // Refused before connecting: not even the migrations were applied.
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const { rows } = await client.query<{ n: number }>(
      "select count(*)::int as n from information_schema.tables where table_schema in ('public', 'drizzle')",
    );
    await client.end();
    expect(rows[0]!.n).toBe(0);
  });

  it('no URL: the usage, exit 1', async () => {
    const run = await migrate(newFolder('gallery-to-pg-usage-'), '');
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^Usage: npm run migrate-to-postgres -- DATABASE_URL/);
  });
});

describe('a generated tree of 20,000 cells', () => {
  it('copies and checks out', async () => {
    const dataDir = newFolder('gallery-to-pg-big-');
    const db = openDatabase(path.join(dataDir, 'gallery.db'));
    await generateSyntheticTree(db, { cells: 20_000, now: T });
    closeDatabase(db);
    const database = await newDatabase();
    const started = performance.now();
    const run = await migrate(dataDir, database.url);
    const wall = (performance.now() - started) / 1000;
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^ {2}cells +20,000 +20,000 {2}same$/m);
    const copied = /^Copied ([\d,]+) rows of \d+ tables in ([\d.]+) s\.$/m.exec(run.stdout)!;
    console.log(
      `20,000 cells: ${copied[1]} rows copied and checked in ${copied[2]} s (${wall.toFixed(1)} s with the process's start)`,
    );
    const target = await openPostgres(database.url, { maxConnections: 1 });
    handles.push(target);
    const { rows } = await target.execute<{ n: number }>(sql`select count(*)::int as n from cells`);
    expect(rows[0]!.n).toBe(20_000);
  }, 300_000);
});

/** Rows for the tables the demo leaves empty, with the values that tell types apart: blobs, nulls, JSON, booleans. */
async function addRowsTheDemoLacks(db: ReturnType<typeof openDatabase>): Promise<void> {
  const S = sqliteSchema;
  const users = db.select().from(S.users).all();
  const staff = users[0]!;
  const member = users.at(-1)!;
  const tree = db.select().from(S.trees).get()!;
  const pieces = db.select().from(S.art).all();
  const cell = db.select().from(S.cells).get()!;
  db.update(S.users).set({ showEmail: true }).where(eq(S.users.id, member.id)).run();
  const published = pieces.find((piece) => piece.status === ArtStatus.Published)!;
  db.update(S.art)
    .set({ noSize: true, keywords: ['café', 'ünïcode', 'a "quoted" word'] })
    .where(eq(S.art.id, published.id))
    .run();
  await reindexArt(db, published.id);
  const reservation = db.select().from(S.reservations).get();
  if (reservation) db.update(S.reservations).set({ extended: true }).where(eq(S.reservations.id, reservation.id)).run();
  db.insert(S.sessions)
    .values({
      id: 'session-one',
      secretHash: Buffer.from([0, 1, 2, 254, 255, 0x80]),
      userId: member.id,
      createdAt: T,
      lastVerifiedAt: T,
    })
    .run();
  db.insert(S.passwordResetTokens)
    .values({ tokenHash: 'reset-hash', userId: member.id, expiresAt: T + DAY, usedAt: null, createdAt: T })
    .run();
  db.insert(S.loginNetworks).values({ userId: member.id, network: '2001:db8:1:2::/64', lastAt: T }).run();
  db.insert(S.subscriptions)
    .values([
      { userId: member.id, cellId: cell.id, createdAt: T },
      { userId: member.id, cellId: null, createdAt: T, notifiedAt: T + 1 },
    ])
    .run();
  db.insert(S.removalRequests)
    .values({
      token: newToken(),
      artId: pieces[0]!.id,
      requesterId: null,
      email: 'someone@example.org',
      reason: 'Mine, not theirs.',
      state: 'declined',
      decidedBy: staff.id,
      decisionNote: 'Checked.',
      decidedAt: T,
      createdAt: T - DAY,
    })
    .run();
  // A time with a fraction of a millisecond, as an older demo seed wrote some: rounded on the way.
  db.insert(S.contactMessages)
    .values({
      userId: null,
      email: 'a@example.org',
      reason: 'other',
      subject: 'Hi',
      message: 'Hello ✓',
      createdAt: T + 0.4,
    })
    .run();
  db.insert(S.mailOutbox)
    .values({
      dedupeKey: 'welcome:1',
      toAddress: member.email,
      subject: 'Welcome',
      textBody: 'Hello',
      htmlBody: null,
      kind: 'welcome',
      nextAttemptAt: T + 2 ** 40,
      createdAt: T,
    })
    .run();
  db.insert(S.jobLeases).values({ name: 'reminders', owner: null, leaseUntil: 0, nextRunAt: T }).run();
  db.insert(S.staffActions)
    .values({
      staffId: staff.id,
      action: 'decline',
      subjectType: 'removal',
      subjectToken: 'x',
      note: null,
      createdAt: T,
    })
    .run();
  db.insert(S.rateLimitHits).values({ key: 'login:203.0.113.9', windowStart: T, count: 3 }).run();
  // Three more changes, the middle one then removed: a gap in the log's numbers.
  const seqs = [1, 2, 3].map(
    (i) =>
      db
        .insert(S.treeChanges)
        .values({ treeId: tree.id, cellId: cell.id, at: T + i })
        .returning({ seq: S.treeChanges.seq })
        .get().seq,
  );
  db.delete(S.treeChanges).where(eq(S.treeChanges.seq, seqs[1]!)).run();
}
