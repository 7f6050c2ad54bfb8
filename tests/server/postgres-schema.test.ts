/**
 * PostgreSQL as the second engine, on a real server (tests/helpers/server/postgres.ts, decision 037): openPostgres
 * migrates a new database, and only once when several processes open it together; a row goes into and comes back out
 * of every table through drizzle, with the foreign keys and unique indexes holding; the search table finds pieces by
 * a title word, a prefix, the artist and a keyword, the same pieces SQLite's FTS5 table finds; a database that cannot
 * serve is refused, saying why.
 */
import fs from 'node:fs';
import path from 'node:path';
import { count, eq, getTableName, is, sql, type SQL } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as pgSchema from '#drizzle/schema-pg.ts';
import {
  art,
  artLikes,
  artSearch,
  artViews,
  cells,
  connections,
  contactMessages,
  follows,
  jobLeases,
  mailOutbox,
  passwordResetTokens,
  pictures,
  rateLimitHits,
  loginNetworks,
  removalRequests,
  reservations,
  SEARCH_CONFIGURATION,
  sessions,
  staffActions,
  subscriptions,
  treeChanges,
  trees,
  userLikes,
  users,
} from '#drizzle/schema-pg.ts';
import { closeDatabase, openDatabase } from '#server/db.ts';
import { closePostgres, openPostgres, PG_MIGRATIONS_DIR, type PgDb } from '#server/db-pg.ts';
import { ftsQueryOf, SEARCH_CANDIDATES, searchWordsOf } from '#server/services/search/search.ts';
import {
  rebuildSearchIndexPostgres,
  reindexRowPostgres,
  searchHitsPostgres,
  searchIdsPostgres,
} from '#server/services/search/search-postgres.ts';
import { ArtStatus, Role } from '#shared/domain.ts';
import { postgresDatabase, type TestDatabase } from '#tests/helpers/server/postgres.ts';

/** A time past what 32 bits hold in milliseconds, as every real one is. */
const T = Date.UTC(2026, 10, 26, 12);

const ALL_TABLES = Object.values(pgSchema as Record<string, unknown>).filter((value): value is PgTable =>
  is(value, PgTable),
);

let database: TestDatabase;
let db: PgDb;

beforeAll(async () => {
  database = await postgresDatabase();
  db = await openPostgres(database.url);
});

afterAll(async () => {
  if (db) await closePostgres(db);
  await database?.drop();
});

/** The SQLSTATE of a failed statement (drizzle wraps the driver's error in its own). */
async function sqlState(statement: Promise<unknown>): Promise<string | undefined> {
  try {
    await statement;
  } catch (error) {
    const failure = error as { code?: string; cause?: { code?: string } };
    return failure.code ?? failure.cause?.code;
  }
  return undefined;
}

let tokens = 0;
const token = () => `token-${++tokens}`;

describe('migrations', () => {
  it('give a new database every table of the schema, the search configuration and a record of each migration', async () => {
    const tables = await db.execute<{ name: string }>(
      sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
    );
    // And the search's words, which a migration makes beside art_search as SQLite's FTS5 table is made beside its own.
    expect(tables.rows.map((row) => row.name).sort()).toEqual(
      [...ALL_TABLES.map((table) => getTableName(table)), 'art_search_words'].sort(),
    );
    const configuration = await db.execute(sql`select 1 from pg_ts_config where cfgname = ${SEARCH_CONFIGURATION}`);
    expect(configuration.rowCount).toBe(1);
    const journal = JSON.parse(fs.readFileSync(path.join(PG_MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as {
      entries: unknown[];
    };
    const applied = await db.execute<{ n: string }>(sql`select count(*) as n from drizzle.__drizzle_migrations`);
    expect(Number(applied.rows[0]!.n)).toBe(journal.entries.length);
  });

  it('are applied once when several processes open a new database at the same moment', async () => {
    const migrations = (
      JSON.parse(fs.readFileSync(path.join(PG_MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as { entries: unknown[] }
    ).entries.length;
    const fresh = await postgresDatabase();
    try {
      const opened = await Promise.all([1, 2, 3].map(() => openPostgres(fresh.url, { maxConnections: 2 })));
      const applied = await opened[0]!.execute<{ n: string }>(
        sql`select count(*) as n from drizzle.__drizzle_migrations`,
      );
      expect(Number(applied.rows[0]!.n)).toBe(migrations);
      // And once more later: nothing left to do.
      opened.push(await openPostgres(fresh.url, { maxConnections: 1 }));
      const again = await opened[0]!.execute<{ n: string }>(
        sql`select count(*) as n from drizzle.__drizzle_migrations`,
      );
      expect(Number(again.rows[0]!.n)).toBe(migrations);
      await Promise.all(opened.map(closePostgres));
    } finally {
      await fresh.drop();
    }
  });
});

describe('every table through drizzle', () => {
  it('takes a row and gives it back, with its defaults and types, the foreign keys and unique indexes holding', async () => {
    const written = new Map<PgTable, unknown[]>();
    async function put<Table extends PgTable>(
      table: Table,
      values: Table['$inferInsert'],
    ): Promise<Table['$inferSelect']> {
      const [row] = (await db
        .insert(table)
        .values(values as never)
        .returning()) as Table['$inferSelect'][];
      written.set(table, [...(written.get(table) ?? []), row]);
      return row!;
    }

    const author = await put(users, {
      token: token(),
      email: 'emile@example.test',
      passwordHash: 'unusable',
      firstname: 'Émile',
      lastname: 'Zola',
      createdAt: T,
      updatedAt: T,
    });
    expect(author).toMatchObject({ role: Role.Observer, showEmail: false, description: '', image: null, createdAt: T });
    const staff = await put(users, {
      token: token(),
      email: 'staff@example.test',
      passwordHash: 'unusable',
      firstname: 'Sam',
      lastname: 'Staff',
      role: Role.Admin,
      showEmail: true,
      createdAt: T,
      updatedAt: T,
    });
    const session = await put(sessions, {
      id: 'session-1',
      secretHash: Buffer.from([0, 1, 2, 254, 255]),
      userId: author.id,
      createdAt: T,
      lastVerifiedAt: T + 1,
    });
    expect(Buffer.isBuffer(session.secretHash) && [...session.secretHash]).toEqual([0, 1, 2, 254, 255]);
    await put(passwordResetTokens, { tokenHash: 'hash-1', userId: author.id, expiresAt: T + 3_600_000, createdAt: T });
    const tree = await put(trees, {
      token: token(),
      name: 'The tree',
      settings: { columns: 9, trunk: [4], nested: { deep: true } },
      createdAt: T,
    });
    expect(tree).toMatchObject({
      version: 1,
      changesFrom: 0,
      settings: { columns: 9, trunk: [4], nested: { deep: true } },
    });
    const cell = await put(cells, {
      token: token(),
      treeId: tree.id,
      row: 0,
      column: 4,
      type: 1,
      status: 2,
      createdAt: T,
      updatedAt: T,
    });
    const next = await put(cells, {
      token: token(),
      treeId: tree.id,
      row: 1,
      column: 4,
      type: 1,
      status: 1,
      createdAt: T,
      updatedAt: T,
    });
    const piece = await put(art, {
      token: token(),
      cellId: cell.id,
      authorId: author.id,
      status: ArtStatus.Published,
      title: 'Blue Heron',
      keywords: ['river', 'bird'],
      dominantColor: 0xffeedd,
      publishedAt: T,
      createdAt: T,
      updatedAt: T,
    });
    expect(piece).toMatchObject({
      medium: [],
      materials: [],
      keywords: ['river', 'bird'],
      noSize: false,
      units: 'in',
      aiUse: 'none',
    });
    await db.update(cells).set({ artId: piece.id }).where(eq(cells.id, cell.id));
    written.set(cells, [{ ...cell, artId: piece.id }, next]);
    const change = await put(treeChanges, { treeId: tree.id, cellId: cell.id, at: T });
    expect(change.seq).toBe(1);
    await put(pictures, {
      token: token(),
      artId: piece.id,
      position: 0,
      mediaKey: 'abc',
      width: 800,
      height: 600,
      createdAt: T,
    });
    await put(connections, {
      token: token(),
      artId: piece.id,
      nextCellId: next.id,
      description: 'down to the river',
      createdAt: T,
      updatedAt: T,
    });
    const reservation = await put(reservations, {
      token: token(),
      userId: author.id,
      cellId: next.id,
      expiresAt: T + 86_400_000,
      createdAt: T,
      updatedAt: T,
    });
    expect(reservation).toMatchObject({ state: 'active', reminderCount: 0, extended: false });
    await put(subscriptions, { userId: staff.id, cellId: null, createdAt: T });
    await put(artLikes, { userId: staff.id, artId: piece.id, createdAt: T });
    await put(userLikes, { userId: staff.id, likedUserId: author.id, createdAt: T });
    await put(follows, { followerId: staff.id, followedId: author.id, createdAt: T });
    await put(artViews, { artId: piece.id, viewerKey: 'visitor-1', createdAt: T });
    await put(removalRequests, {
      token: token(),
      artId: piece.id,
      requesterId: staff.id,
      email: 'staff@example.test',
      reason: 'a test',
      createdAt: T,
    });
    await put(contactMessages, {
      email: 'someone@example.test',
      reason: 'help',
      subject: 'Hi',
      message: 'Hello',
      createdAt: T,
    });
    await put(mailOutbox, {
      dedupeKey: 'welcome-1',
      toAddress: 'emile@example.test',
      subject: 'Welcome',
      textBody: 'Welcome',
      kind: 'welcome',
      nextAttemptAt: T,
      createdAt: T,
    });
    expect(await put(jobLeases, { name: 'orphan-sweep' })).toEqual({
      name: 'orphan-sweep',
      owner: null,
      leaseUntil: 0,
      nextRunAt: 0,
      lastRunAt: null,
    });
    await put(staffActions, {
      staffId: staff.id,
      action: 'publish',
      subjectType: 'art',
      subjectToken: piece.token,
      createdAt: T,
    });
    await put(rateLimitHits, { key: 'login:192.0.2.1', windowStart: T, count: 1 });
    await put(loginNetworks, { userId: author.id, network: '2001:db8:1:2::/64', lastAt: T });
    const indexed = await put(artSearch, {
      artId: piece.id,
      title: piece.title,
      keywords: 'river bird',
      description: '',
      category: '',
      artist: 'Émile Zola',
    });
    expect(indexed.document).toContain("'heron':");

    expect(ALL_TABLES.filter((table) => !written.has(table))).toEqual([]);
    for (const table of ALL_TABLES) {
      const rows = await db.select().from(table);
      expect(rows).toHaveLength(written.get(table)!.length);
      expect(rows).toEqual(expect.arrayContaining(written.get(table)!));
    }

    // Foreign keys: a square of no tree, a like of no piece.
    expect(
      await sqlState(
        db.insert(cells).values({
          token: token(),
          treeId: 999_999,
          row: 9,
          column: 9,
          type: 1,
          status: 1,
          createdAt: T,
          updatedAt: T,
        }),
      ),
    ).toBe('23503');
    expect(await sqlState(db.insert(artLikes).values({ userId: author.id, artId: 999_999, createdAt: T }))).toBe(
      '23503',
    );
    // Unique: an address, a square's position, one active reservation a square (an expired one may stay beside it).
    expect(
      await sqlState(
        db.insert(users).values({ ...author, id: undefined, token: token() } as typeof users.$inferInsert),
      ),
    ).toBe('23505');
    expect(
      await sqlState(
        db.insert(cells).values({
          token: token(),
          treeId: tree.id,
          row: 0,
          column: 4,
          type: 1,
          status: 1,
          createdAt: T,
          updatedAt: T,
        }),
      ),
    ).toBe('23505');
    const again = { token: token(), userId: staff.id, cellId: next.id, expiresAt: T, createdAt: T, updatedAt: T };
    expect(await sqlState(db.insert(reservations).values(again))).toBe('23505');
    await db.insert(reservations).values({ ...again, state: 'expired' });
    // Cascades: a user's sessions go with them.
    await db.delete(sessions).where(eq(sessions.userId, author.id));
    expect((await db.select({ n: count() }).from(sessions))[0]!.n).toBe(0);
  });
});

/** Pieces whose texts exercise what a tokenizer decides: accents, case, hyphens, apostrophes, numbers, addresses. */
const PIECES = [
  {
    title: 'Blue Heron at Dawn',
    artist: 'Émile Zola',
    keywords: 'river bird',
    category: 'Painting',
    description: 'Oil on linen, 3.5 by 4 feet',
  },
  {
    title: 'Héron cendré',
    artist: 'Ada Lovelace',
    keywords: 'bird',
    category: 'Drawing',
    description: 'See www.example.org',
  },
  {
    title: 'Harbour Lights',
    artist: 'Zoë Marchetti',
    keywords: 'sea night-time',
    category: 'Photography',
    description: 'blue-green water',
  },
  {
    title: 'ΚΑΦΕΝΕΙΟ',
    artist: 'Eleni Papadaki',
    keywords: 'coffee',
    category: 'Painting',
    description: 'Athens, 2024',
  },
  {
    title: 'Untitled #4',
    artist: "Mary O'Keeffe",
    keywords: 'abstract',
    category: 'Print',
    description: 'mail art to a@b.example',
  },
  { title: 'Bluebird', artist: 'Jon Smith', keywords: 'bird blue', category: 'Print', description: '' },
];

/** What visitors type: single words, prefixes, several words, other cases and accents, nothing found. */
const TERMS = [
  'heron',
  'HERON',
  'her',
  'héron',
  'emile',
  'Émile Zola',
  'zol',
  'zoe',
  'river',
  'bird',
  'blue',
  'blue bird',
  'bluebird',
  'green',
  'night time',
  'water',
  'www',
  'example',
  '3',
  '5',
  '2024',
  'καφ',
  'καφενειο',
  "o'keeffe",
  'keef',
  'painting',
  'oil linen',
  'nothing here',
];

/** The pieces PostgreSQL's search finds for what a visitor typed, best first (server/services/search). */
async function searchPostgres(term: string): Promise<number[]> {
  return searchIdsPostgres(db, searchWordsOf(term), SEARCH_CANDIDATES, 100);
}

describe('full-text search', () => {
  const ids: number[] = [];

  beforeAll(async () => {
    await db.delete(artSearch); // the piece indexed above
    const [tree] = await db
      .insert(trees)
      .values({ token: token(), name: 'Search', settings: {}, createdAt: T })
      .returning();
    const [author] = await db
      .insert(users)
      .values({
        token: token(),
        email: 'search@example.test',
        passwordHash: 'x',
        firstname: 'S',
        lastname: 'A',
        createdAt: T,
        updatedAt: T,
      })
      .returning();
    for (const [i, piece] of PIECES.entries()) {
      const [cell] = await db
        .insert(cells)
        .values({
          token: token(),
          treeId: tree!.id,
          row: 10,
          column: i,
          type: 1,
          status: 2,
          createdAt: T,
          updatedAt: T,
        })
        .returning();
      const [row] = await db
        .insert(art)
        .values({
          token: token(),
          cellId: cell!.id,
          authorId: author!.id,
          status: ArtStatus.Published,
          title: piece.title,
          createdAt: T,
          updatedAt: T,
        })
        .returning();
      await db.insert(artSearch).values({ artId: row!.id, ...piece });
      ids.push(row!.id);
    }
  });

  it('finds a piece by a title word, a prefix, the artist and a keyword, whatever the case and accents', async () => {
    const [heron, cendre, harbour, kafeneio, untitled, bluebird] = ids;
    expect(await searchPostgres('heron')).toEqual([cendre, heron]);
    expect(await searchPostgres('her')).toEqual([cendre, heron]);
    expect(await searchPostgres('HÉRON')).toEqual([cendre, heron]);
    expect(await searchPostgres('emile')).toEqual([heron]);
    expect(await searchPostgres('zol')).toEqual([heron]);
    expect(await searchPostgres('river')).toEqual([heron]);
    expect(await searchPostgres('καφ')).toEqual([kafeneio]);
    expect(await searchPostgres("o'keeffe")).toEqual([untitled]);
    expect(await searchPostgres('night')).toEqual([harbour]);
    // A title match outranks a keyword match, which outranks a description match.
    expect(await searchPostgres('blue')).toEqual([bluebird, heron, harbour]);
    expect(await searchPostgres('nothing')).toEqual([]);
  });

  it('finds, for every term, the same pieces as SQLite’s FTS5 table', async () => {
    const sqlite = openDatabase(':memory:');
    try {
      for (const [i, piece] of PIECES.entries()) {
        sqlite.run(sql`
          insert into art_search (rowid, title, keywords, description, category, artist)
          values (${ids[i]!}, ${piece.title}, ${piece.keywords}, ${piece.description}, ${piece.category}, ${piece.artist})
        `);
      }
      const found: Record<string, { sqlite: number[]; postgres: number[] }> = {};
      for (const term of TERMS) {
        const query = ftsQueryOf(term)!;
        const fromSqlite = sqlite
          .all<{ id: number }>(sql`select rowid as id from art_search where art_search match ${query}`)
          .map((row) => row.id);
        found[term] = {
          sqlite: fromSqlite.sort((a, b) => a - b),
          postgres: (await searchPostgres(term)).sort((a, b) => a - b),
        };
      }
      for (const [term, { sqlite: fromSqlite, postgres }] of Object.entries(found))
        expect(postgres, term).toEqual(fromSqlite);
      // The comparison means something: most terms find pieces, and one finds none.
      expect(Object.values(found).filter(({ sqlite: fromSqlite }) => fromSqlite.length > 0).length).toBeGreaterThan(
        TERMS.length - 3,
      );
    } finally {
      closeDatabase(sqlite);
    }
  });

  it('answers a hit with its square, artist and picture only while the piece is its square’s published art', async () => {
    const heron = ids[0]!;
    const [piece] = await db.select().from(art).where(eq(art.id, heron));
    const heronWords = searchWordsOf('heron');
    // Not yet the square's art: the index row alone shows nothing.
    expect(await searchHitsPostgres(db, heronWords, SEARCH_CANDIDATES, 10, 5)).toEqual([]);
    await db.update(cells).set({ artId: heron }).where(eq(cells.id, piece!.cellId));
    const [hit] = await searchHitsPostgres(db, heronWords, SEARCH_CANDIDATES, 10, 5);
    expect(hit).toMatchObject({ artToken: piece!.token, title: piece!.title, row: 10, column: 0, addedAt: T });
    expect(typeof hit!.addedAt).toBe('number');
    // Taken out of the index: not found; put back with other words: found by them.
    await reindexRowPostgres(db, heron, null);
    expect(await searchIdsPostgres(db, heronWords, SEARCH_CANDIDATES, 10)).not.toContain(heron);
    await reindexRowPostgres(db, heron, {
      title: 'Kingfisher',
      keywords: '',
      description: '',
      category: '',
      artist: 'S A',
    });
    expect(await searchIdsPostgres(db, searchWordsOf('kingf'), SEARCH_CANDIDATES, 10)).toEqual([heron]);
    expect(await searchIdsPostgres(db, heronWords, SEARCH_CANDIDATES, 10)).not.toContain(heron);
    await db.update(cells).set({ artId: null }).where(eq(cells.id, piece!.cellId));
    await reindexRowPostgres(db, heron, PIECES[0]!);
  });

  it('rebuilds the index from the published pieces, one row each', async () => {
    const published = await db.select({ n: count() }).from(art).where(eq(art.status, ArtStatus.Published));
    expect(await rebuildSearchIndexPostgres(db.$client)).toBe(published[0]!.n);
    const [indexed] = await db.select({ n: count() }).from(artSearch);
    expect(indexed!.n).toBe(published[0]!.n);
    const pieces = await db.execute<{ n: number }>(sql`select count(distinct art_id)::int as n from art_search_words`);
    expect(pieces.rows[0]!.n).toBe(published[0]!.n);
  });

  it('keeps the words of every indexed piece, whoever writes art_search, and answers a prefix from their b-tree', async () => {
    const heron = ids[0]!;
    const wordsOf = async (artId: number) =>
      (
        await db.execute<{ word: string; weight: number }>(
          sql`select word, weight from art_search_words where art_id = ${artId} order by word`,
        )
      ).rows.map(({ word, weight }) => `${word} ${weight}`);
    await db.update(artSearch).set({ title: 'Kingfisher', keywords: 'Blue' }).where(eq(artSearch.artId, heron));
    expect(await wordsOf(heron)).toContain('kingfisher 1');
    expect(await wordsOf(heron)).toContain('blue 0.4');
    expect((await wordsOf(heron)).some((entry) => entry.startsWith('heron '))).toBe(false);
    await db.delete(artSearch).where(eq(artSearch.artId, heron));
    expect(await wordsOf(heron)).toEqual([]);
    await reindexRowPostgres(db, heron, PIECES[0]!);
    expect(await wordsOf(heron)).toContain('heron 1');

    const planOf = (query: SQL) =>
      db.transaction(async (tx) => {
        await tx.execute(sql`set local enable_seqscan = off`);
        const { rows } = await tx.execute<{ 'QUERY PLAN': string }>(sql`explain ${query}`);
        return rows.map((row) => row['QUERY PLAN']).join('\n');
      });
    // A prefix of one or two letters is a range of the words' index; one of three or more, read by its head, newest
    // piece first.
    expect(
      await planOf(sql`select art_id from art_search_words where word >= 'bl' and word < ${'bl\u{10FFFF}'}`),
    ).toContain('art_search_words_prefix_idx');
    expect(
      await planOf(
        sql`select art_id from art_search_words where head = 'blu' and word >= 'blue' and word < ${'blue\u{10FFFF}'}
            order by art_id desc limit 1000`,
      ),
    ).toContain('art_search_words_head_idx');
    const heads = await db.execute<{ head: string }>(
      sql`select head from art_search_words where art_id = ${heron} and word = 'heron'`,
    );
    expect(heads.rows).toEqual([{ head: 'her' }]);
  });
});

describe('a database that cannot serve', () => {
  it('is refused with why: unreachable (the password never shown), or without UTF-8', async () => {
    await expect(openPostgres('postgres://gallery:hunter2@127.0.0.1:1/gallery')).rejects.toThrow(
      /^The PostgreSQL database at postgres:\/\/gallery:\*\*\*@127\.0\.0\.1:1\/gallery cannot be connected to: .*ECONNREFUSED/,
    );
    const ascii = await postgresDatabase({ encoding: 'SQL_ASCII', locale: 'C' });
    try {
      await expect(openPostgres(ascii.url)).rejects.toThrow(
        /has encoding SQL_ASCII and LC_CTYPE C: the app needs UTF8/,
      );
    } finally {
      await ascii.drop();
    }
  });
});
