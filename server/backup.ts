/**
 * Online backup of a data folder, safe while the server runs and writes (decision 017): the database as one consistent
 * snapshot (`VACUUM INTO`), then every media file that snapshot names (content-hashed, so never rewritten meanwhile).
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { mediaNameOf } from './services/display/index.ts';
import { StartupError } from './startup-error.ts';

export const BACKUP_DATABASE = 'gallery.db';
export const BACKUP_MEDIA = 'media';

export interface BackupResult {
  dir: string;
  databaseBytes: number;
  mediaFiles: number;
  mediaBytes: number;
  /** Files the snapshot names that the media folder did not hold (a problem of the data, not of the backup). */
  missing: string[];
  counts: { users: number; art: number; pictures: number; reservations: number };
}

/** Every media file name the database's rows point at: both sizes of each picture, and avatars. */
export function referencedMediaNames(client: Database.Database): string[] {
  const names = new Set<string>();
  for (const { key } of client.prepare('select distinct media_key as key from pictures').all() as { key: string }[]) {
    names.add(mediaNameOf(key, 'large'));
    names.add(mediaNameOf(key, 'thumb'));
  }
  for (const { image } of client.prepare('select image from users where image is not null').all() as {
    image: string;
  }[])
    names.add(image);
  return [...names].sort();
}

function countOf(client: Database.Database, table: string): number {
  return (client.prepare(`select count(*) as n from "${table}"`).get() as { n: number }).n;
}

/** Copies the database file and media folder of a (possibly running) gallery into `dir`, which must be new or empty. */
export function backupData(databaseFile: string, mediaDir: string, dir: string): BackupResult {
  if (!fs.existsSync(databaseFile)) throw new StartupError(`There is no database at ${databaseFile}: check DATA_DIR.`);
  if (fs.existsSync(dir) && fs.readdirSync(dir).length > 0)
    throw new StartupError(`The backup folder ${dir} is not empty: choose a new folder.`);
  fs.mkdirSync(path.join(dir, BACKUP_MEDIA), { recursive: true });
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
  let counts: BackupResult['counts'];
  try {
    const check = copy.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new Error(`The copied database does not check out: ${String(check)}.`);
    copy.pragma('journal_mode = WAL');
    names = referencedMediaNames(copy);
    counts = {
      users: countOf(copy, 'users'),
      art: countOf(copy, 'art'),
      pictures: countOf(copy, 'pictures'),
      reservations: countOf(copy, 'reservations'),
    };
  } finally {
    copy.close();
  }

  const missing: string[] = [];
  let mediaBytes = 0;
  for (const name of names) {
    const from = path.join(mediaDir, name);
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
    databaseBytes: fs.statSync(target).size,
    mediaFiles: names.length - missing.length,
    mediaBytes,
    missing,
    counts,
  };
}
