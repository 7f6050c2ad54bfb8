/**
 * The database the configuration names (server/open-database.ts): SQLite without DATABASE_URL; with it, a real
 * PostgreSQL database whose tables the services then query (drizzle/tables.ts), and whose writes `write(db, work)`
 * runs as PostgreSQL's write transaction: committed whole, or rolled back whole with the error.
 */
import fs from 'node:fs';
import path from 'node:path';
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as sqliteSchema from '#drizzle/schema.ts';
import * as pgSchema from '#drizzle/schema-pg.ts';
import { contactMessages, tablesEngine, useTablesOf } from '#drizzle/tables.ts';
import { ConfigError, loadConfig } from '#server/config.ts';
import { write } from '#server/db.ts';
import { closeAppDatabase, isPostgres, openAppDatabase } from '#server/open-database.ts';
import { postgresDatabase, type TestDatabase } from '#tests/helpers/server/postgres.ts';
import { tempDir } from '#tests/helpers/server/test-app.ts';

const message = (subject: string) => ({
  email: 'someone@example.test',
  reason: 'other',
  subject,
  message: 'Hello',
  createdAt: 1,
});

describe('DATABASE_URL', () => {
  it('is a postgres:// URL or nothing: anything else stops the start with one line', () => {
    expect(loadConfig({}).databaseUrl).toBeNull();
    expect(loadConfig({ DATABASE_URL: 'postgres://gallery:secret@db.example:5432/gallery' }).databaseUrl).toBe(
      'postgres://gallery:secret@db.example:5432/gallery',
    );
    for (const wrong of ['mysql://db/gallery', 'gallery.db', 'postgres://'])
      expect(() => loadConfig({ DATABASE_URL: wrong }), wrong).toThrow(ConfigError);
    expect(() => loadConfig({ DATABASE_URL: 'file.db' })).toThrow(/DATABASE_URL: must be a postgres:\/\/ URL/);
  });
});

describe('without DATABASE_URL', () => {
  it('opens the SQLite file of the data folder, with SQLite’s tables', async () => {
    const dir = tempDir('open-database-');
    const db = await openAppDatabase({ databaseFile: path.join(dir, 'gallery.db'), databaseUrl: null });
    try {
      expect(isPostgres(db)).toBe(false);
      expect(tablesEngine()).toBe('sqlite');
      expect(contactMessages).toBe(sqliteSchema.contactMessages);
      await write(db, (tx) => tx.insert(contactMessages).values(message('on SQLite')).run());
      expect(db.select({ n: count() }).from(contactMessages).get()?.n).toBe(1);
    } finally {
      await closeAppDatabase(db);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('with DATABASE_URL', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await postgresDatabase();
  });

  afterAll(async () => {
    useTablesOf('sqlite');
    await database?.drop();
  });

  it('opens and migrates PostgreSQL, swaps in its tables, and writes through its write transaction', async () => {
    const db = await openAppDatabase({ databaseFile: '/nowhere/gallery.db', databaseUrl: database.url });
    try {
      expect(isPostgres(db)).toBe(true);
      expect(tablesEngine()).toBe('postgres');
      expect(contactMessages).toBe(pgSchema.contactMessages);
      const saved = await write(
        db,
        async (tx) => (await tx.insert(contactMessages).values(message('kept')).returning())[0],
      );
      expect(saved?.subject).toBe('kept');
      const failing = write(db, async (tx) => {
        await tx.insert(contactMessages).values(message('half'));
        throw new Error('refused half-way');
      });
      await expect(failing).rejects.toThrow('refused half-way');
      const subjects = (await db.select({ subject: contactMessages.subject }).from(contactMessages)).map(
        (r) => r.subject,
      );
      expect(subjects).toEqual(['kept']);
    } finally {
      await closeAppDatabase(db);
    }
    expect(fs.existsSync('/nowhere')).toBe(false);
  });
});
