/**
 * `npm run backup -- DIR` against the real server while it takes art saves and reservations: the copy is consistent
 * (every picture's files are in it), and a gallery restored from it (README "Backup and restore") starts and serves
 * the same data.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { count, eq, isNotNull } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { art, cells, pictures, reservations, users } from '#drizzle/schema.ts';
import { referencedMediaNames, sqliteQuery } from '#server/backup.ts';
import { closeDatabase, openDatabase, type Db } from '#server/db.ts';
import { buildQueuedPyramids } from '#server/services/media/pyramids.ts';
import { createTree } from '#server/services/tree/tree.ts';
import { createTestApp, tempDir } from '#tests/helpers/server/test-app.ts';
import { photo, upload } from '../helpers/server/large-uploads.ts';
import { storedFiles } from '../helpers/server/media-files.ts';
import { runScript, startRealServer, stopRealServer, type RealServer } from '../helpers/server/real-server.ts';
import { prepareWriteLoad, runWriteLoad, type LoadTally } from '../helpers/server/write-load.ts';

const running: RealServer[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) {
    if (server.process.exitCode === null && server.process.signalCode === null) await stopRealServer(server, 'SIGKILL');
  }
});

const runBackup = (dataDir: string, dir: string) => runScript('backup.ts', [dir], dataDir);

const countsOf = (db: Db) => ({
  users: db.select({ n: count() }).from(users).get()!.n,
  art: db.select({ n: count() }).from(art).get()!.n,
  pictures: db.select({ n: count() }).from(pictures).get()!.n,
  reservations: db.select({ n: count() }).from(reservations).get()!.n,
  cells: db.select({ n: count() }).from(cells).get()!.n,
});

describe('backup and restore', () => {
  it('copies the database and its media while the server writes, and the restored copy serves the same data', async () => {
    const dataDir = tempDir('gallery-live-');
    const server = await startRealServer(dataDir);
    running.push(server);
    const live = openDatabase(path.join(dataDir, 'gallery.db'));
    const load = await prepareWriteLoad(live, { uploaders: 4, reservers: 12 });

    let done = false;
    const tally: LoadTally = { saves: 0, reservations: 0, failures: [] };
    const writing = runWriteLoad(server.url, load, { stop: () => done || tally.failures.length > 0 }, tally);
    // Back up once the load is well under way, and keep writing until the copy is finished.
    while (tally.saves < 8 && tally.failures.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    const before = countsOf(live);
    const backupDir = path.join(tempDir('gallery-backup-'), 'copy');
    const backup = await runBackup(dataDir, backupDir);
    const duringBackup = countsOf(live);
    await new Promise((resolve) => setTimeout(resolve, 300));
    done = true;
    await writing;
    closeDatabase(live);
    expect(await stopRealServer(server)).toBe(0);

    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    expect(tally.failures).toEqual([]);
    expect(tally.saves).toBeGreaterThan(8);

    const copy = new Database(path.join(backupDir, 'gallery.db'), { readonly: true });
    expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
    const named = await referencedMediaNames(sqliteQuery(copy));
    copy.close();
    expect(named.length).toBeGreaterThanOrEqual(before.pictures * 2);
    expect(fs.readdirSync(path.join(backupDir, 'media')).sort()).toEqual(named);
    const printed = /\((\d+) users, (\d+) pieces, (\d+) pictures, (\d+) reservations\)/.exec(backup.stdout)!;
    expect(backup.stdout).toContain(`media/  ${named.length} files`);

    // Restore as the README says: a new data folder holding the backup's gallery.db and media/, then start.
    const restoredDir = tempDir('gallery-restored-');
    fs.cpSync(backupDir, restoredDir, { recursive: true });
    const restored = await startRealServer(restoredDir);
    running.push(restored);
    const db = openDatabase(path.join(restoredDir, 'gallery.db'));
    const counts = countsOf(db);
    expect([counts.users, counts.art, counts.pictures, counts.reservations]).toEqual(printed.slice(1).map(Number));
    expect(counts.art).toBeGreaterThanOrEqual(before.art);
    expect(counts.art).toBeLessThanOrEqual(duringBackup.art);
    expect(counts.pictures).toBeGreaterThanOrEqual(load.uploaders.length);
    expect(counts.cells).toBe(before.cells);

    // Every picture loads from the restored server, and a piece's details name them.
    for (const name of named) {
      const res = await fetch(`${restored.url}/media/${name}`);
      expect(res.status, name).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/webp');
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
    const piece = db
      .select({ cellToken: cells.token })
      .from(pictures)
      .innerJoin(art, eq(art.id, pictures.artId))
      .innerJoin(cells, eq(cells.artId, art.id))
      .where(isNotNull(pictures.mediaKey))
      .get()!;
    closeDatabase(db);
    const edit = await fetch(`${restored.url}/api/cell/${piece.cellToken}`);
    expect(edit.status).toBe(200);
    expect(await stopRealServer(restored)).toBe(0);
  }, 120_000);

  it('says in one line that PostgreSQL cannot be reached, for a gallery on it, and writes nothing', async () => {
    const dataDir = tempDir('backup-pg-');
    const target = path.join(tempDir('backup-pg-target-'), 'copy');
    try {
      const run = await runScript('backup.ts', [target], dataDir, {
        DATABASE_URL: 'postgres://gallery@127.0.0.1:1/gallery',
      });
      expect(run.code).toBe(1);
      expect(run.stderr.trim()).toMatch(
        /^Cannot back up: PostgreSQL \(DATABASE_URL\) could not be reached: .*ECONNREFUSED/,
      );
      expect(fs.existsSync(target)).toBe(false);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses a folder that is not empty and a data folder without a database, in one line', async () => {
    const full = tempDir('gallery-backup-full-');
    fs.writeFileSync(path.join(full, 'something'), 'x');
    const dataDir = tempDir('gallery-empty-');
    const noDatabase = await runBackup(dataDir, path.join(tempDir(), 'copy'));
    expect(noDatabase.code).toBe(1);
    expect(noDatabase.stderr.trim()).toBe(
      `Cannot back up: There is no database at ${path.join(dataDir, 'gallery.db')}: check DATA_DIR.`,
    );

    fs.writeFileSync(path.join(dataDir, 'gallery.db'), '');
    const notEmpty = await runBackup(dataDir, full);
    expect(notEmpty.code).toBe(1);
    expect(notEmpty.stderr.trim()).toBe(`Cannot back up: The backup folder ${full} is not empty: choose a new folder.`);
    expect(fs.readdirSync(full)).toEqual(['something']);
  }, 60_000);

  it('carries the deep-zoom files: an upload still to be cut and a cut pyramid, restored as they were', async () => {
    const t = await createTestApp();
    try {
      const treeId = (await createTree(t.deps.db, t.clock.now(), 'Backups')).id;
      const cut = await upload(t, treeId, 33, 0, await photo(5));
      expect(await buildQueuedPyramids(t.deps)).toBe(1);
      const queued = await upload(t, treeId, 33, 1, await photo(6));
      expect(queued.row.pyramidSource).toBeTruthy();

      const backupDir = path.join(tempDir('gallery-backup-'), 'copy');
      const backup = await runBackup(t.dir, backupDir);
      expect(backup.stderr).toBe('');
      expect(backup.code).toBe(0);
      // Everything the rows name: all the gallery stores but the upload the cut pyramid was made from (no row names
      // it since: the sweep's after the day's grace), with the kept upload still to be cut and every tile.
      const stored = await storedFiles(t.deps.media);
      const copied = fs.readdirSync(path.join(backupDir, 'media')).sort();
      expect(stored).toContain(cut.row.pyramidSource);
      expect(copied).toEqual(stored.filter((name) => name !== cut.row.pyramidSource));
      expect(copied).toContain(queued.row.pyramidSource);
      // The 2,400 × 1,800 picture's 401 tiles of 128 px over 13 levels, and its descriptor.
      expect(copied.filter((name) => name.startsWith(`${cut.row.mediaKey}-dz`)).length).toBe(
        19 * 15 + 10 * 8 + 5 * 4 + 3 * 2 + 2 * 1 + 8 + 1,
      );

      // Restored, the cut pyramid is served and the queued one is cut from its kept upload.
      const restoredDir = tempDir('gallery-restored-');
      fs.cpSync(backupDir, restoredDir, { recursive: true });
      const restored = await createTestApp({
        dataDir: restoredDir,
        databaseFile: path.join(restoredDir, 'gallery.db'),
        media: { kind: 'folder', dir: path.join(restoredDir, 'media') },
      });
      try {
        const descriptor = await restored.server.inject({ url: `/media/${cut.row.mediaKey}-dz.json` });
        expect(descriptor.statusCode).toBe(200);
        expect(await buildQueuedPyramids(restored.deps)).toBe(1);
        const [rebuilt] = await restored.deps.db.select().from(pictures).where(eq(pictures.id, queued.row.id));
        expect(rebuilt!.pyramid).toBe('ready');
      } finally {
        await restored.cleanup();
      }
    } finally {
      await t.cleanup();
    }
  }, 120_000);
});
