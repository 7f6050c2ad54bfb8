/**
 * `npm run media -- copy --to s3` copies every picture of the media folder (DATA_DIR/media) into the bucket the S3_
 * variables name; `--to folder` copies the bucket back into the folder. Whatever MEDIA_STORAGE says: the copy runs
 * before the switch and again after it (README "Pictures in object storage"). The copying itself, idempotent,
 * resumable and checked, is server/storage/copy.ts; this parses the command, checks both sides and prints.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadMediaPlaces } from '#server/config.ts';
import { COPY_AT_ONCE, copyMedia, type MediaCopyTally } from '#server/storage/copy.ts';
import { createMediaStorage, type MediaStorage } from '#server/storage/index.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const USAGE =
  'Usage: npm run media -- copy --to s3       (the pictures of DATA_DIR/media into the bucket the S3_ variables name)\n' +
  '       npm run media -- copy --to folder   (the bucket back into DATA_DIR/media)';

/** How long each side may take to answer its first look before the copy gives up on it. */
const CHECK_MS = 10_000;
/** Problems listed one per line at the end; past that, only how many more. */
const PROBLEMS_SHOWN = 20;

/** A refusal told as one line: nothing was copied. */
class CopyRefused extends Error {}

const megabytes = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
const number = (n: number) => n.toLocaleString('en-US');

/** Where the files go: `s3` or `folder`, from `copy --to X` or `copy --to=X`; null for anything else. */
function destinationOf(args: string[]): 's3' | 'folder' | null {
  const [command, ...options] = args;
  // `--to s3` and `--to=s3` alike: the options joined by `=` are `--to=s3` either way, and nothing else is.
  const to = /^--to=(s3|folder)$/.exec(options.join('='))?.[1] as 's3' | 'folder' | undefined;
  return command === 'copy' && to ? to : null;
}

/** A storage as a line may name it: the folder's path, or the bucket and its address; never a key. */
function placeOf(storage: MediaStorage): string {
  const where = storage.describe();
  if (where.kind === 'folder') return `the folder ${where.dir}`;
  return `bucket ${where.bucket}${where.endpoint ? ` at ${where.endpoint}` : ''}`;
}

function tallyLine(tally: Readonly<MediaCopyTally>): string {
  const parts = [
    `${number(tally.copied)} copied`,
    `${number(tally.alreadyThere)} already there`,
    `${number(tally.replaced)} replaced`,
    `${number(tally.refused)} refused`,
  ];
  if (tally.failed > 0) parts.push(`${number(tally.failed)} failed`);
  if (tally.gone > 0) parts.push(`${number(tally.gone)} removed from the source meanwhile`);
  return `${parts.join(', ')}; ${megabytes(tally.bytes)} written`;
}

/** Answers the exit code: 0 when every file is at the destination, checked; 1 when one was refused or failed. */
async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    console.log(USAGE);
    return 0;
  }
  const to = destinationOf(args);
  if (!to) {
    console.error(USAGE);
    return 1;
  }
  const places = loadMediaPlaces(process.env, root);
  const folder = createMediaStorage(places.folder);
  const bucket = createMediaStorage(places.s3);
  try {
    const [source, destination] = to === 's3' ? [folder, bucket] : [bucket, folder];
    // The bucket is asked first (wrong keys, no such bucket, another region): a refusal there leaves the folder as
    // it was. Going back, the folder is then made as the app makes it at start, and its check asks for writing.
    const problem = await bucket.check(CHECK_MS);
    if (problem) throw new CopyRefused(problem.message);
    if (to === 's3' && !fs.existsSync(places.folder.dir))
      throw new CopyRefused(`there is no media folder at ${places.folder.dir} (DATA_DIR is ${places.dataDir})`);
    if (to === 'folder') {
      fs.mkdirSync(places.folder.dir, { recursive: true });
      const folderProblem = await folder.check(CHECK_MS);
      if (folderProblem) throw new CopyRefused(folderProblem.message);
    }
    console.log(`Copying the pictures of ${placeOf(source)} to ${placeOf(destination)}, ${COPY_AT_ONCE} at a time.`);
    const started = performance.now();
    const seconds = () => ((performance.now() - started) / 1000).toFixed(1);
    const result = await copyMedia(source, destination, {
      onProgress: (tally) =>
        console.log(`  ${number(tally.looked)} files looked at in ${seconds()} s: ${tallyLine(tally)}`),
    });

    for (const { name, problem } of result.problems.slice(0, PROBLEMS_SHOWN)) console.error(`  ${name}: ${problem}`);
    if (result.problems.length > PROBLEMS_SHOWN)
      console.error(`  ... and ${number(result.problems.length - PROBLEMS_SHOWN)} more`);
    if (result.looked === 0) console.log(`Nothing to copy: ${placeOf(source)} holds no pictures.`);
    else if (result.alreadyThere === result.looked)
      console.log(`Nothing to copy: all ${number(result.looked)} files were already there, the same (${seconds()} s).`);
    else console.log(`Done in ${seconds()} s, ${number(result.looked)} files: ${tallyLine(result)}.`);

    if (result.refused > 0)
      console.error(
        `${number(result.refused)} files do not hold the bytes their names say and were not copied: they are damaged at the source (listed above).`,
      );
    if (result.failed > 0)
      console.error(
        `${number(result.failed)} files could not be copied (listed above): run the command again, which copies only what is missing.`,
      );
    return result.refused > 0 || result.failed > 0 ? 1 : 0;
  } finally {
    await Promise.all([folder.close(), bucket.close()]);
  }
}

try {
  process.exitCode = await main();
} catch (error) {
  if (error instanceof CopyRefused || error instanceof ConfigError) {
    console.error(`Cannot copy the pictures: ${error.message.replace(/\.$/, '')}.`);
  } else {
    const reason = error instanceof Error ? error.message.replace(/\.$/, '') : String(error);
    console.error(
      `The copy failed: ${reason}. The files copied so far are whole and checked: run the command again to go on.`,
    );
  }
  process.exitCode = 1;
}
