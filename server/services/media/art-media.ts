/**
 * Art images through the media pipeline (decisions 009, 024): magic bytes first (JPEG, PNG, GIF only, whatever the name
 * says), then sharp's decoding and pixel limit; every file of a request is checked before any is written; files written
 * for a save that then fails are removed; an hourly sweep removes files no row names.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { eq, inArray, isNotNull } from 'drizzle-orm';
import { pictures, users } from '#drizzle/tables.ts';
import { ART_LIMITS } from '#shared/constants.ts';
import { ART_MESSAGES, sniffImageType } from '#shared/validation/art.ts';
import { write, type Db, type Queryable } from '../../db.ts';
import { isAvatarName, type MediaStore } from '../../media-store.ts';
import type { ServiceContext } from '../context.ts';
import {
  ImageRejected,
  imageWork,
  preparePicture,
  writePreparedPicture,
  type PreparedPicture,
  type StoredPicture,
} from './images.ts';
import { mediaNameOf } from '../display/index.ts';

// The magic-byte check is shared with the editor, which runs it on a chosen file before sending it.
export { sniffImageType } from '#shared/validation/art.ts';

/** Checks and decodes one uploaded art image in memory; answers the prepared picture or the message for its slot. */
export async function prepareArtImage(bytes: Buffer): Promise<PreparedPicture | { error: string }> {
  if (bytes.length === 0) return { error: ART_MESSAGES.imageBlank };
  if (bytes.length > ART_LIMITS.maxImageBytes) return { error: ART_MESSAGES.imageTooBig };
  if (!sniffImageType(bytes)) return { error: ART_MESSAGES.imageType };
  try {
    return await imageWork.run(() => preparePicture(bytes));
  } catch (error) {
    if (error instanceof ImageRejected) {
      if (error.reason === 'too_many_pixels') return { error: ART_MESSAGES.imageTooManyPixels };
      if (error.reason === 'unsupported_type') return { error: ART_MESSAGES.imageType };
      return { error: ART_MESSAGES.imageUnreadable };
    }
    throw error;
  }
}

const namesOf = (key: string) => [mediaNameOf(key, 'large'), mediaNameOf(key, 'thumb')];

/** The files written by one save, so a failed save can take back exactly those (and nothing older). */
export interface WrittenMedia {
  pictures: StoredPicture[];
  /** Names that did not exist before this save. */
  created: string[];
}

export async function writePreparedPictures(
  ctx: Pick<ServiceContext, 'media' | 'db'>,
  prepared: readonly PreparedPicture[],
): Promise<WrittenMedia> {
  const created: string[] = [];
  const stored: StoredPicture[] = [];
  try {
    for (const picture of prepared) {
      for (const name of namesOf(picture.key)) if (!ctx.media.exists(name)) created.push(name);
      stored.push(await writePreparedPicture(ctx.media, picture));
    }
  } catch (error) {
    await removeUnnamedMedia(ctx, created);
    throw error;
  }
  return { pictures: stored, created };
}

/**
 * Inside the transaction that names them: the files of the pictures a save stores, written again if a removal
 * took them since they were written (another save of the same bytes failed, or the sweep ran).
 */
export function restorePictureFiles(media: MediaStore, prepared: readonly PreparedPicture[]): void {
  for (const picture of prepared) {
    media.restoreSync(mediaNameOf(picture.key, 'large'), picture.large);
    media.restoreSync(mediaNameOf(picture.key, 'thumb'), picture.thumb);
  }
}

const KEY_OF_NAME = /^([0-9a-f]{32})-(?:thumb|large)\.webp$/;

async function namedKeys(db: Db): Promise<Set<string>> {
  const keys = new Set<string>();
  for (const row of await db.select({ key: pictures.mediaKey }).from(pictures)) keys.add(row.key);
  for (const row of await db.select({ image: users.image }).from(users).where(isNotNull(users.image))) {
    if (row.image) keys.add(row.image);
  }
  return keys;
}

async function isNamed(db: Queryable, name: string): Promise<boolean> {
  const key = KEY_OF_NAME.exec(name)?.[1];
  if (
    key &&
    (await db.select({ id: pictures.id }).from(pictures).where(eq(pictures.mediaKey, key)).limit(1))[0] !== undefined
  )
    return true;
  return (
    (
      await db
        .select({ id: users.id })
        .from(users)
        .where(inArray(users.image, key ? [key, name] : [name]))
        .limit(1)
    )[0] !== undefined
  );
}

/**
 * Removes the given media files that no committed row names. Files are shared by every row with the same bytes,
 * so the check and the removal run under the database's write lock: a save that names one of them commits either
 * before (the file stays) or after (its transaction writes the file again first, restorePictureFiles), whichever
 * process it runs in.
 */
export async function removeUnnamedMedia(
  ctx: Pick<ServiceContext, 'media' | 'db'>,
  names: readonly string[],
): Promise<string[]> {
  if (names.length === 0) return [];
  return write(ctx.db, async (tx) => {
    const removed: string[] = [];
    for (const name of names) {
      if (await isNamed(tx, name)) continue;
      ctx.media.removeSync(name);
      removed.push(name);
    }
    return removed;
  });
}

export const ORPHAN_MIN_AGE_MS = 60 * 60 * 1000;
/** Files the sweep removes per hold of the write lock. */
const SWEEP_BATCH = 100;

/**
 * The hourly job: deletes picture and avatar files older than an hour that no picture row and no user names, and temporary
 * files a killed write left. The age guard leaves alone the files of a save between writing them and committing.
 */
export async function sweepOrphanMedia(ctx: ServiceContext): Promise<string[]> {
  const keys = await namedKeys(ctx.db);
  const now = ctx.clock.now();
  const candidates: string[] = [];
  for (const name of await ctx.media.list()) {
    // Only files named the way pictures (by their media key) and avatars (by their whole name) are: anything else
    // is not ours to judge.
    const key = KEY_OF_NAME.exec(name)?.[1];
    if (key ? keys.has(key) : !isAvatarName(name) || keys.has(name)) continue;
    const stat = await fs.stat(path.join(ctx.media.dir, name)).catch(() => null);
    if (!stat?.isFile() || now - stat.mtimeMs < ORPHAN_MIN_AGE_MS) continue;
    candidates.push(name);
  }
  // Checked again under the write lock, a batch at a time: a row may have come to name one since the list was read.
  const removed: string[] = [];
  for (let i = 0; i < candidates.length; i += SWEEP_BATCH)
    removed.push(...(await removeUnnamedMedia(ctx, candidates.slice(i, i + SWEEP_BATCH))));
  removed.push(...(await ctx.media.removeStaleTemporaries(now - ORPHAN_MIN_AGE_MS)));
  if (removed.length) ctx.log.info({ count: removed.length }, 'orphan media removed');
  return removed;
}
