/**
 * `npm run backup -- DIR`: a consistent copy of the gallery (its database, in DATA_DIR or on PostgreSQL with pg_dump,
 * and its media) into the new folder DIR, taken while the server keeps running (server/backup.ts). README "Backup and restore" says how to restore it. With
 * pictures in object storage, the database only, and what the operator must back up instead: the bucket.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { backupData, backupPostgres, BACKUP_MEDIA, BACKUP_MEDIA_NOTE } from '#server/backup.ts';
import { ConfigError, loadConfig } from '#server/config.ts';
import { StartupError } from '#server/startup-error.ts';
import { createMediaStorage } from '#server/storage/index.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const USAGE =
  'Usage: npm run backup -- DIR   (DIR: a new or empty folder; the data folder is DATA_DIR, ./data by default)';

const megabytes = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;

try {
  const dirArgument = process.argv.slice(2).find((arg) => !arg.startsWith('-'));
  if (!dirArgument || process.argv.includes('--help') || process.argv.includes('-h')) {
    console.log(USAGE);
    process.exit(dirArgument ? 0 : 1);
  }
  const config = loadConfig(process.env, root);
  const dir = path.resolve(process.cwd(), dirArgument);
  const started = performance.now();
  const media = createMediaStorage(config.media);
  // Closed once the copy is done (describe() below asks the store nothing): its connections would hold the process.
  const result = await (
    config.databaseUrl ? backupPostgres(config.databaseUrl, media, dir) : backupData(config.databaseFile, media, dir)
  ).finally(() => media.close());
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const { counts } = result;
  console.log(`Backed up ${config.databaseUrl ? 'the PostgreSQL gallery' : config.dataDir} to ${dir} in ${seconds} s:`);
  console.log(
    `  ${result.databaseFile}  ${megabytes(result.databaseBytes)} (${counts.users} users, ${counts.art} pieces, ${counts.pictures} pictures, ${counts.reservations} reservations)`,
  );
  const { bucket } = result;
  if (bucket) {
    const place = `bucket ${bucket.bucket}${bucket.endpoint ? ` at ${bucket.endpoint}` : ''}`;
    console.log(`  ${BACKUP_MEDIA}: not copied. The pictures are in object storage, ${place}.`);
    console.log(
      `  Back that bucket up yourself, right after this copy: ${BACKUP_MEDIA_NOTE} says how (${result.namedMedia} files named, ${result.namedMedia - result.missing.length} in the bucket now).`,
    );
  } else console.log(`  ${BACKUP_MEDIA}/  ${result.mediaFiles} files, ${megabytes(result.mediaBytes)}`);
  if (result.missing.length > 0) {
    const where = media.describe();
    const from = where.kind === 'folder' ? where.dir : `bucket ${where.bucket}`;
    console.error(
      `Warning: ${result.missing.length} media files named by the database were already missing from ${from}: ${result.missing.slice(0, 5).join(', ')}${result.missing.length > 5 ? ', ...' : ''}`,
    );
  }
} catch (error) {
  if (error instanceof StartupError || error instanceof ConfigError) {
    console.error(`Cannot back up: ${error.message}`);
    process.exit(1);
  }
  throw error;
}
