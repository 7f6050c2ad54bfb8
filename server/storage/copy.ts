/**
 * Copies every media file of one storage into another: `npm run media -- copy --to s3|folder` (scripts/media.ts;
 * decision 044, "Amendment: copying the pictures over"). The copy may run while the site runs, and any number of
 * times: names are content-addressed, so a name at the destination with the source's bytes is done, whoever wrote it.
 *
 * - **Idempotent and resumable**: the destination is listed once at the start; a file listed there with the source's
 *   size and bytes is left alone (its MD5 from the listing when the store gives one, else its bytes read and
 *   compared), a missing one is written, and one of another size or other bytes (a copy cut short by another tool,
 *   a damaged file) is deleted and written again. A run stopped half way leaves only whole files (the folder writes
 *   through a temporary file and a rename, an object store takes an object whole or not at all), so the next run
 *   picks up where it stopped.
 * - **Verifying**: a file whose name carries the hash of its own bytes (a picture's large size, an avatar) is checked
 *   against its name before it is copied, and refused when they differ: a damaged source file is reported rather
 *   than spread. Each file written is then looked up at the destination and compared with the source's bytes again.
 * - **Never deletes** anything but a wrong file at the destination it replaces. Files removed from the source while
 *   the copy runs (the hourly sweep) are counted and skipped.
 */
import { createHash } from 'node:crypto';
import type { MediaStorage, StoredMedia } from './port.ts';

/** Files copied at once: enough to hide an object store's round trips, few enough for a small server's memory. */
export const COPY_AT_ONCE = 8;

/** A progress line at most every this many files looked at... */
const PROGRESS_EVERY_FILES = 1000;
/** ...or after this long without one. */
const PROGRESS_EVERY_MS = 10_000;

/**
 * The names that carry the hash of their own bytes: a picture's large size, whose media key is the first 32 hex
 * digits of its SHA-256 (server/services/media/images.ts), and an avatar, named the same way
 * (server/services/accounts/avatars.ts). A thumbnail, and a narrower width (decision 047), carries its large size's
 * key, which says nothing of its own bytes.
 */
const SELF_HASHED_NAME = /^([0-9a-f]{32})-(?:large\.webp|avatar\.jpg)$/;

/** How many files went which way so far. */
export interface MediaCopyTally {
  /** Source files looked at. */
  looked: number;
  /** Written where the destination had nothing under the name. */
  copied: number;
  /** At the destination already, with the same bytes. */
  alreadyThere: number;
  /** At the destination with another size or other bytes, written again. */
  replaced: number;
  /** Source files whose bytes do not match their name: not copied. */
  refused: number;
  /** Files the copy could not write or check (the store failing, the bytes read back not the same). */
  failed: number;
  /** Listed at the source, then removed from it before they were read (the sweep): nothing to copy. */
  gone: number;
  /** Bytes written to the destination (copied and replaced). */
  bytes: number;
}

export interface MediaCopyResult extends MediaCopyTally {
  /** What was wrong with each refused or failed file, by name. */
  problems: { name: string; problem: string }[];
}

export interface MediaCopyOptions {
  /** Files copied at once; COPY_AT_ONCE unless given. */
  atOnce?: number;
  /** Told the tally now and then while the copy runs (every thousand files or ten seconds). */
  onProgress?: (tally: Readonly<MediaCopyTally>) => void;
  /** Files between two calls of onProgress; PROGRESS_EVERY_FILES unless given (a test's few files want fewer). */
  progressEveryFiles?: number;
}

const sha256Of = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const md5Of = (bytes: Buffer) => createHash('md5').update(bytes).digest('hex');

/** A source file's bytes and their hashes, read once and compared with every copy of it. */
interface SourceFile {
  name: string;
  bytes: Buffer;
  sha256: string;
  md5: string;
}

/** What is wrong with a file's bytes given its name, or null when the name carries no hash or the right one. */
export function nameMismatch(name: string, bytes: Buffer): string | null {
  const key = SELF_HASHED_NAME.exec(name)?.[1];
  if (!key) return null;
  const hash = sha256Of(bytes).slice(0, key.length);
  return hash === key ? null : `its bytes hash to ${hash}, not to the ${key} its name carries`;
}

/**
 * Whether the destination's file is the source's: the same size, and the same MD5 when the store gives one without a
 * read, else (no MD5, or one of another kind) the same bytes read back.
 */
async function holdsSame(destination: MediaStorage, stored: StoredMedia, source: SourceFile): Promise<boolean> {
  if (stored.size !== source.bytes.length) return false;
  if (stored.md5 === source.md5) return true;
  const bytes = await destination.get(source.name);
  return bytes !== null && bytes.length === source.bytes.length && sha256Of(bytes) === source.sha256;
}

/** Runs `work` on each item of `items`, `atOnce` at a time; the items are pulled as workers come free. */
async function forEachAtOnce<T>(items: AsyncIterable<T>, atOnce: number, work: (item: T) => Promise<void>) {
  const iterator = items[Symbol.asyncIterator]();
  const worker = async () => {
    // An async generator answers its next() calls one after another, so the workers never take the same item.
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) await work(next.value);
  };
  await Promise.all(Array.from({ length: atOnce }, worker));
}

/**
 * Copies every media file of `source` into `destination` (see above) and answers the tally. Throws only when a
 * storage cannot be listed; a file that fails is counted, said in `problems`, and the copy goes on with the others.
 */
export async function copyMedia(
  source: MediaStorage,
  destination: MediaStorage,
  options: MediaCopyOptions = {},
): Promise<MediaCopyResult> {
  const result: MediaCopyResult = {
    looked: 0,
    copied: 0,
    alreadyThere: 0,
    replaced: 0,
    refused: 0,
    failed: 0,
    gone: 0,
    bytes: 0,
    problems: [],
  };
  // Listed once: the destination's sizes and MD5s say most files are there without a request each.
  const present = new Map<string, StoredMedia>();
  for await (const file of destination.list()) present.set(file.name, file);

  let lastProgress = performance.now();
  const progress = () => {
    if (!options.onProgress) return;
    const now = performance.now();
    const everyFiles = options.progressEveryFiles ?? PROGRESS_EVERY_FILES;
    if (result.looked % everyFiles !== 0 && now - lastProgress < PROGRESS_EVERY_MS) return;
    lastProgress = now;
    const { problems: _, ...counts } = result;
    options.onProgress(counts);
  };

  const copyOne = async (listed: StoredMedia) => {
    const { name } = listed;
    const bytes = await source.get(name);
    if (bytes === null) {
      result.gone++;
      return;
    }
    const mismatch = nameMismatch(name, bytes);
    if (mismatch) {
      result.refused++;
      result.problems.push({ name, problem: `not copied: ${mismatch}` });
      return;
    }
    const file: SourceFile = { name, bytes, sha256: sha256Of(bytes), md5: md5Of(bytes) };
    const there = present.get(name);
    if (there && (await holdsSame(destination, there, file))) {
      result.alreadyThere++;
      return;
    }
    // A put of a name stored already keeps the stored bytes (content-addressed names): a wrong file goes first.
    if (there) await destination.delete(name);
    await destination.put(name, bytes);
    const written = await destination.lookUp(name);
    if (!written || !(await holdsSame(destination, written, file))) {
      result.failed++;
      const after = written ? 'holds other bytes' : 'has nothing under the name';
      result.problems.push({ name, problem: `written, but the destination ${after} when looked at again` });
      return;
    }
    if (there) result.replaced++;
    else result.copied++;
    result.bytes += bytes.length;
  };

  await forEachAtOnce(source.list(), options.atOnce ?? COPY_AT_ONCE, async (listed) => {
    try {
      await copyOne(listed);
    } catch (error) {
      result.failed++;
      result.problems.push({ name: listed.name, problem: error instanceof Error ? error.message : String(error) });
    }
    result.looked++;
    progress();
  });
  return result;
}
