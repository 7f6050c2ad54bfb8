/**
 * Tests that run alike on both engines (decision 037): `describe.each(ENGINES)` with a database of the app's opened
 * for each, SQLite in a temporary folder or a new PostgreSQL database on the run's server, through
 * openAppDatabase, so the services' tables are that engine's while the suite runs. One engine at a time: a file's
 * suites run one after the other, and each puts SQLite's tables back when it closes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { useTablesOf, type Engine } from '#drizzle/tables.ts';
import type { Db } from '#server/db.ts';
import { closeAppDatabase, openAppDatabase } from '#server/open-database.ts';
import { postgresDatabase } from './postgres.ts';
import { tempDir } from './test-app.ts';

export const ENGINES: readonly Engine[] = ['sqlite', 'postgres'];

export interface EngineDatabase {
  db: Db;
  close: () => Promise<void>;
}

/** A new, empty, migrated database of the app's on `engine`. */
export async function openEngineDatabase(engine: Engine): Promise<EngineDatabase> {
  if (engine === 'sqlite') {
    const dir = tempDir('engine-');
    const db = await openAppDatabase({ databaseFile: path.join(dir, 'gallery.db'), databaseUrl: null });
    return {
      db,
      close: async () => {
        await closeAppDatabase(db);
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const database = await postgresDatabase();
  const db = await openAppDatabase({ databaseFile: '', databaseUrl: database.url });
  return {
    db,
    close: async () => {
      await closeAppDatabase(db);
      useTablesOf('sqlite');
      await database.drop();
    },
  };
}
