/**
 * Online backup of a data folder, safe while the server runs and writes (decision 017): the database as one consistent
 * snapshot (`VACUUM INTO`), then every media file that snapshot names (content-hashed, so never rewritten meanwhile):
 * each picture's sizes, avatars, and the deep-zoom files (decision 048): an upload kept until its pyramid is cut, and
 * a cut pyramid's descriptor and tiles, which hold the picture at its uploaded resolution and exist nowhere else.
 * Pictures in object storage are not copied (decision 044): the bucket is backed up with the store's own tools, and
 * the backup says so, in its output and in a note beside the database, after checking that the bucket holds every
 * file the copy names.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { PyramidDescriptor } from '#shared/deep-zoom.ts';
import { mediaNameOf, parsePictureSizes, pyramidDescriptorNameOf, sizedMediaNameOf } from './services/display/index.ts';
import { pyramidFileNames } from './services/media/index.ts';
import { StartupError } from './startup-error.ts';
import type { MediaStorage } from './storage/index.ts';

export const BACKUP_DATABASE = 'gallery.db';
export const BACKUP_MEDIA = 'media';
/** With object storage, the note in place of the media folder: where the pictures are, and what to do about them. */
export const BACKUP_MEDIA_NOTE = 'media-in-object-storage.txt';

export interface BackupResult {
  dir: string;
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

/**
 * Every media file name the database's rows point at: every size of each picture (decision 047), uploads kept for a
 * pyramid still to be cut, and avatars. A cut pyramid's tiles are named by its descriptor (pyramidKeysOf).
 */
export function referencedMediaNames(client: Database.Database): string[] {
  const names = new Set<string>();
  for (const { key, sizes } of client.prepare('select distinct media_key as key, sizes from pictures').all() as {
    key: string;
    sizes: string;
  }[]) {
    names.add(mediaNameOf(key, 'large'));
    names.add(mediaNameOf(key, 'thumb'));
    for (const size of parsePictureSizes(sizes)) names.add(sizedMediaNameOf(key, size));
  }
  for (const { source } of client
    .prepare('select pyramid_source as source from pictures where pyramid_source is not null')
    .all() as { source: string }[])
    names.add(source);
  for (const { image } of client.prepare('select image from users where image is not null').all() as {
    image: string;
  }[])
    names.add(image);
  return [...names].sort();
}

/** The media keys of the pictures whose pyramid is cut: their descriptor and tiles are in the media storage. */
function pyramidKeysOf(client: Database.Database): string[] {
  return (
    client.prepare("select distinct media_key as key from pictures where pyramid = 'ready'").all() as { key: string }[]
  ).map(({ key }) => key);
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

function countOf(client: Database.Database, table: string): number {
  return (client.prepare(`select count(*) as n from "${table}"`).get() as { n: number }).n;
}

/**
 * Copies the database file and media folder of a (possibly running) gallery into `dir`, which must be new or empty;
 * with object storage, the database only, and the note saying where the pictures are.
 */
export async function backupData(databaseFile: string, media: MediaStorage, dir: string): Promise<BackupResult> {
  if (!fs.existsSync(databaseFile)) throw new StartupError(`There is no database at ${databaseFile}: check DATA_DIR.`);
  if (fs.existsSync(dir) && fs.readdirSync(dir).length > 0)
    throw new StartupError(`The backup folder ${dir} is not empty: choose a new folder.`);
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
  let names: string[];
  let pyramidKeys: string[];
  let counts: BackupResult['counts'];
  try {
    const check = copy.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new Error(`The copied database does not check out: ${String(check)}.`);
    copy.pragma('journal_mode = WAL');
    names = referencedMediaNames(copy);
    pyramidKeys = pyramidKeysOf(copy);
    counts = {
      users: countOf(copy, 'users'),
      art: countOf(copy, 'art'),
      pictures: countOf(copy, 'pictures'),
      reservations: countOf(copy, 'reservations'),
    };
  } finally {
    copy.close();
  }

  names = [...names, ...(await pyramidNamesOf(media, pyramidKeys))].sort();
  const databaseBytes = fs.statSync(target).size;
  const where = media.describe();
  if (where.kind === 's3') {
    const stored = new Set<string>();
    for await (const file of media.list()) stored.add(file.name);
    const missing = names.filter((name) => !stored.has(name));
    const bucket = { bucket: where.bucket, endpoint: where.endpoint };
    fs.writeFileSync(path.join(dir, BACKUP_MEDIA_NOTE), mediaNote(bucket, names.length, missing.length));
    return { dir, databaseBytes, namedMedia: names.length, mediaFiles: 0, mediaBytes: 0, missing, bucket, counts };
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
    dir,
    databaseBytes,
    namedMedia: names.length,
    mediaFiles: names.length - missing.length,
    mediaBytes,
    missing,
    bucket: null,
    counts,
  };
}

/** Where the pictures of a database copied without them are, and what backing them up and restoring them takes. */
function mediaNote(bucket: { bucket: string; endpoint: string | null }, named: number, missing: number): string {
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
    `To restore: put ${BACKUP_DATABASE} back as the data folder's database, and point MEDIA_STORAGE=s3 and the S3_`,
    'variables at the bucket, or at a bucket restored from its backup.',
    '',
  ].join('\n');
}
