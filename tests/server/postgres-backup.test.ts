/**
 * `npm run backup -- DIR` for a gallery on PostgreSQL (server/backup.ts, README "Backup and restore"): the database
 * with pg_dump, of the snapshot the media names are read in, and every media file it names (the deep-zoom files
 * too); restored with pg_restore into an empty database and the media folder put back, the gallery serves the same
 * pieces and pictures, and cuts the pyramid still queued.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { count, eq } from 'drizzle-orm';
import { afterAll, expect, it } from 'vitest';
import { art, pictures, users } from '#drizzle/tables.ts';
import { BACKUP_PG_DUMP } from '#server/backup.ts';
import { buildQueuedPyramids } from '#server/services/media/pyramids.ts';
import { createTree } from '#server/services/tree/tree.ts';
import { createTestApp, tempDir, type TestApp } from '#tests/helpers/server/test-app.ts';
import { photo, upload } from '../helpers/server/large-uploads.ts';
import { storedFiles } from '../helpers/server/media-files.ts';
import { postgresDatabase, type TestDatabase } from '../helpers/server/postgres.ts';
import { runScript } from '../helpers/server/real-server.ts';

const databases: TestDatabase[] = [];
const apps: TestApp[] = [];
afterAll(async () => {
  for (const app of apps) await app.cleanup();
  for (const database of databases) await database.drop();
});

const countsOf = async (t: TestApp) => ({
  users: (await t.deps.db.select({ n: count() }).from(users))[0]!.n,
  art: (await t.deps.db.select({ n: count() }).from(art))[0]!.n,
  pictures: (await t.deps.db.select({ n: count() }).from(pictures))[0]!.n,
});

it('dumps the database and copies what it names; restored, the gallery is the same', async () => {
  const source = await postgresDatabase();
  databases.push(source);
  const t = await createTestApp({ databaseUrl: source.url });
  apps.push(t);
  const treeId = (await createTree(t.deps.db, t.clock.now(), 'Backed up')).id;
  const cut = await upload(t, treeId, 33, 0, await photo(5));
  expect(await buildQueuedPyramids(t.deps)).toBe(1);
  const queued = await upload(t, treeId, 33, 1, await photo(6));
  const before = await countsOf(t);

  const backupDir = path.join(tempDir('gallery-pg-backup-'), 'copy');
  const run = await runScript('backup.ts', [backupDir], t.dir, { DATABASE_URL: source.url });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  expect(run.stdout).toMatch(
    new RegExp(`${BACKUP_PG_DUMP} .*\\(${before.users} users, ${before.art} pieces, ${before.pictures} pictures`),
  );
  const copied = fs.readdirSync(path.join(backupDir, 'media')).sort();
  // All the gallery stores but the upload the cut pyramid was made from, which no row names since.
  expect(copied).toEqual((await storedFiles(t.deps.media)).filter((name) => name !== cut.row.pyramidSource));
  expect(copied).toContain(queued.row.pyramidSource);

  // Restore as the README says: pg_restore into an empty database, the media folder into a new data folder.
  const target = await postgresDatabase();
  databases.push(target);
  execFileSync('pg_restore', [
    '--no-owner',
    '--no-privileges',
    `--dbname=${target.url}`,
    path.join(backupDir, BACKUP_PG_DUMP),
  ]);
  const restoredDir = tempDir('gallery-pg-restored-');
  fs.cpSync(path.join(backupDir, 'media'), path.join(restoredDir, 'media'), { recursive: true });
  const restored = await createTestApp({
    databaseUrl: target.url,
    dataDir: restoredDir,
    media: { kind: 'folder', dir: path.join(restoredDir, 'media') },
  });
  apps.push(restored);
  expect(await countsOf(restored)).toEqual(before);
  expect((await restored.server.inject({ url: `/media/${cut.row.mediaKey}-dz.json` })).statusCode).toBe(200);
  expect((await restored.server.inject({ url: `/media/${queued.row.mediaKey}-large.webp` })).statusCode).toBe(200);
  expect(await buildQueuedPyramids(restored.deps)).toBe(1);
  const [rebuilt] = await restored.deps.db.select().from(pictures).where(eq(pictures.id, queued.row.id));
  expect(rebuilt!.pyramid).toBe('ready');
}, 120_000);
