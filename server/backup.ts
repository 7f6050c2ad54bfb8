/**
 * Online backup of a gallery, safe while the server runs and writes (decision 017): the database as one consistent
 * snapshot (SQLite's `VACUUM INTO`; on PostgreSQL, `pg_dump` of a snapshot this process exports and reads the names
 * from, decision 037), then every media file that snapshot names (content-hashed, so never rewritten meanwhile):
 * each picture's sizes, avatars, and the deep-zoom files (decision 048): an upload kept until its pyramid is cut, and
 * a cut pyramid's descriptor and tiles, which hold the picture at its uploaded resolution and exist nowhere else.
 * Pictures in object storage are not copied (decision 044): the bucket is backed up with the store's own tools, and
 * the backup says so, in its output and in a note beside the database, after checking that the bucket holds every
 * file the copy names.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { PyramidDescriptor } from '#shared/deep-zoom.ts';
import { mediaNameOf, parsePictureSizes, pyramidDescriptorNameOf, sizedMediaNameOf } from './services/display/index.ts';
import { pyramidFileNames } from './services/media/index.ts';
import { StartupError } from './startup-error.ts';
import type { MediaStorage } from './storage/index.ts';

export const BACKUP_DATABASE = 'gallery.db';
/** A PostgreSQL gallery's database in the backup: pg_dump's custom format, for pg_restore. */
export const BACKUP_PG_DUMP = 'gallery.pgdump';
export const BACKUP_MEDIA = 'media';
/** With object storage, the note in place of the media folder: where the pictures are, and what to do about them. */
export const BACKUP_MEDIA_NOTE = 'media-in-object-storage.txt';

export interface BackupResult {
  dir: string;
  /** The database's file in the backup: BACKUP_DATABASE, or BACKUP_PG_DUMP for a gallery on PostgreSQL. */
  databaseFile: string;
  databaseBytes: number;
  /** The media files the copied database names: both sizes of each picture, and avatars. */
  namedMedia: number;
  /** How many of them were copied into the backup's media folder, and their bytes (none from object storage). */
  mediaFiles: number;
  mediaBytes: number;
  /** Files the snapshot names that the media storage did not hold (a problem of the data, not of the backup). */
  missing: string[];
  /** Where the pictures stay when they are in object storage, which the operator backs up; null for the folder. */
  bucket: { bucket: string; endpoint: string | null } | null;
  counts: { users: number; art: number; pictures: number; reservations: number };
}

/** Rows of one statement, on whichever engine holds the snapshot (the statements below are plain SQL both run). */
export type SnapshotQuery = (statement: string) => Promise<Record<string, unknown>[]>;

/** A SQLite database read as a SnapshotQuery. */
export const sqliteQuery =
  (client: Database.Database): SnapshotQuery =>
  async (statement) =>
    client.prepare(statement).all() as Record<string, unknown>[];

/**
 * Every media file name the database's rows point at: every size of each picture (decision 047), uploads kept for a
 * pyramid still to be cut, and avatars. A cut pyramid's tiles are named by its descriptor (pyramidKeysOf).
 */
export async function referencedMediaNames(query: SnapshotQuery): Promise<string[]> {
  const names = new Set<string>();
  for (const row of await query('select distinct media_key as key, sizes from pictures')) {
    const key = String(row.key);
    names.add(mediaNameOf(key, 'large'));
    names.add(mediaNameOf(key, 'thumb'));
    for (const size of parsePictureSizes(String(row.sizes))) names.add(sizedMediaNameOf(key, size));
  }
  for (const row of await query('select pyramid_source as source from pictures where pyramid_source is not null'))
    names.add(String(row.source));
  for (const row of await query('select image from users where image is not null')) names.add(String(row.image));
  return [...names].sort();
}

/** The media keys of the pictures whose pyramid is cut: their descriptor and tiles are in the media storage. */
async function pyramidKeysOf(query: SnapshotQuery): Promise<string[]> {
  return (await query("select distinct media_key as key from pictures where pyramid = 'ready'")).map((row) =>
    String(row.key),
  );
}

/**
 * The files of the cut pyramids, by their descriptors in the media storage; a descriptor not there is named so that
 * it counts as missing (its tiles cannot be known without it).
 */
async function pyramidNamesOf(media: MediaStorage, keys: string[]): Promise<string[]> {
  const names: string[] = [];
  for (const key of keys) {
    const descriptor = await media.get(pyramidDescriptorNameOf(key));
    if (descriptor) names.push(...pyramidFileNames(key, JSON.parse(descriptor.toString()) as PyramidDescriptor));
    else names.push(pyramidDescriptorNameOf(key));
  }
  return names;
}

async function countsOf(query: SnapshotQuery): Promise<BackupResult['counts']> {
  const count = async (table: string) => Number((await query(`select count(*) as n from "${table}"`))[0]!.n);
  return {
    users: await count('users'),
    art: await count('art'),
    pictures: await count('pictures'),
    reservations: await count('reservations'),
  };
}

/** What a snapshot of the database names: its media files (the pyramids' tiles too) and its counts. */
async function namedBy(query: SnapshotQuery, media: MediaStorage) {
  const names = await referencedMediaNames(query);
  const pyramids = await pyramidNamesOf(media, await pyramidKeysOf(query));
  return { names: [...names, ...pyramids].sort(), counts: await countsOf(query) };
}

function refuseFullFolder(dir: string): void {
  if (fs.existsSync(dir) && fs.readdirSync(dir).length > 0)
    throw new StartupError(`The backup folder ${dir} is not empty: choose a new folder.`);
}

/**
 * Copies the database file and media folder of a (possibly running) gallery into `dir`, which must be new or empty;
 * with object storage, the database only, and the note saying where the pictures are.
 */
export async function backupData(databaseFile: string, media: MediaStorage, dir: string): Promise<BackupResult> {
  if (!fs.existsSync(databaseFile)) throw new StartupError(`There is no database at ${databaseFile}: check DATA_DIR.`);
  refuseFullFolder(dir);
  fs.mkdirSync(dir, { recursive: true });
  const target = path.join(dir, BACKUP_DATABASE);

  const source = new Database(databaseFile, { readonly: true, fileMustExist: true });
  try {
    source.pragma('busy_timeout = 5000');
    source.prepare('vacuum into ?').run(target);
  } finally {
    source.close();
  }

  const copy = new Database(target);
  let named: Awaited<ReturnType<typeof namedBy>>;
  try {
    const check = copy.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new Error(`The copied database does not check out: ${String(check)}.`);
    copy.pragma('journal_mode = WAL');
    named = await namedBy(sqliteQuery(copy), media);
  } finally {
    copy.close();
  }
  return {
    dir,
    databaseFile: BACKUP_DATABASE,
    databaseBytes: fs.statSync(target).size,
    ...(await copyMedia(named, media, dir, BACKUP_DATABASE)),
  };
}

/** Runs pg_dump; its own words when it fails, and a clear one when it is not installed. */
function pgDump(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('pg_dump', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT'
          ? new StartupError(
              "pg_dump was not found: install PostgreSQL's client tools, of the server's major version or newer " +
                '(Debian: postgresql-client), so that pg_dump is on PATH.',
            )
          : error,
      ),
    );
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new StartupError(`pg_dump failed (exit ${code}): ${stderr.trim()}`)),
    );
  });
}

/**
 * Backs up a gallery on PostgreSQL into `dir` (new or empty): the database with pg_dump (custom format, no owners or
 * privileges, for pg_restore into an empty database), and the media files it names, as for SQLite. This process
 * opens a read-only repeatable-read transaction and exports its snapshot; pg_dump dumps exactly that snapshot and the
 * names are read in it, so the media copied are the ones the dump names, however the gallery writes meanwhile.
 */
export async function backupPostgres(databaseUrl: string, media: MediaStorage, dir: string): Promise<BackupResult> {
  refuseFullFolder(dir);
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'gallery backup' });
  try {
    await client.connect();
  } catch (error) {
    throw new StartupError(`PostgreSQL (DATABASE_URL) could not be reached: ${(error as Error).message}`);
  }
  const target = path.join(dir, BACKUP_PG_DUMP);
  let named: Awaited<ReturnType<typeof namedBy>>;
  try {
    fs.mkdirSync(dir, { recursive: true });
    await client.query('begin isolation level repeatable read read only');
    const { rows } = await client.query<{ snapshot: string }>('select pg_export_snapshot() as snapshot');
    await pgDump([
      `--snapshot=${rows[0]!.snapshot}`,
      '--format=custom',
      '--no-owner',
      '--no-privileges',
      `--file=${target}`,
      `--dbname=${databaseUrl}`,
    ]);
    named = await namedBy(
      async (statement) => (await client.query(statement)).rows as Record<string, unknown>[],
      media,
    );
    await client.query('commit');
  } finally {
    await client.end();
  }
  return {
    dir,
    databaseFile: BACKUP_PG_DUMP,
    databaseBytes: fs.statSync(target).size,
    ...(await copyMedia(named, media, dir, BACKUP_PG_DUMP)),
  };
}

/** The media part of a backup: the named files copied from the folder, or the bucket checked and the note written. */
async function copyMedia(
  { names, counts }: { names: string[]; counts: BackupResult['counts'] },
  media: MediaStorage,
  dir: string,
  databaseFile: string,
): Promise<Omit<BackupResult, 'dir' | 'databaseFile' | 'databaseBytes'>> {
  const where = media.describe();
  if (where.kind === 's3') {
    const stored = new Set<string>();
    for await (const file of media.list()) stored.add(file.name);
    const missing = names.filter((name) => !stored.has(name));
    const bucket = { bucket: where.bucket, endpoint: where.endpoint };
    fs.writeFileSync(path.join(dir, BACKUP_MEDIA_NOTE), mediaNote(bucket, names.length, missing.length, databaseFile));
    return { namedMedia: names.length, mediaFiles: 0, mediaBytes: 0, missing, bucket, counts };
  }
  fs.mkdirSync(path.join(dir, BACKUP_MEDIA));
  const missing: string[] = [];
  let mediaBytes = 0;
  for (const name of names) {
    const from = path.join(where.dir, name);
    try {
      fs.copyFileSync(from, path.join(dir, BACKUP_MEDIA, name), fs.constants.COPYFILE_FICLONE);
      mediaBytes += fs.statSync(from).size;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      missing.push(name);
    }
  }
  return {
    namedMedia: names.length,
    mediaFiles: names.length - missing.length,
    mediaBytes,
    missing,
    bucket: null,
    counts,
  };
}

/** Where the pictures of a database copied without them are, and what backing them up and restoring them takes. */
function mediaNote(
  bucket: { bucket: string; endpoint: string | null },
  named: number,
  missing: number,
  databaseFile: string,
): string {
  const place = `bucket ${bucket.bucket}${bucket.endpoint ? ` at ${bucket.endpoint}` : ''}`;
  return [
    `The pictures of this gallery are not in this backup: they are in object storage, ${place}.`,
    `This copy of the database names ${named} files; ${named - missing} of them were in the bucket when it was taken.`,
    '',
    "Back the bucket up with the store's own means, right after this copy: versioning on the bucket (deleted",
    'objects kept for a while), replication to another bucket, or a copy such as `rclone sync` or `aws s3 sync`.',
    'A file the live gallery stops naming (a picture replaced, a piece removed) may be deleted by the hourly orphan',
    'sweep, so a copy of the bucket taken much later can miss files this database names; versioning cannot.',
    '',
    databaseFile === BACKUP_PG_DUMP
      ? `To restore: pg_restore ${BACKUP_PG_DUMP} into an empty database and point DATABASE_URL at it, and point`
      : `To restore: put ${BACKUP_DATABASE} back as the data folder's database, and point`,
    'MEDIA_STORAGE=s3 and the S3_ variables at the bucket, or at a bucket restored from its backup.',
    '',
  ].join('\n');
}
