/**
 * Art images through the media pipeline (decisions 009, 044): magic bytes first (JPEG, PNG, GIF only, whatever the name
 * says), then sharp's decoding and pixel limit; every file of a request is checked before any is written. A save
 * writes its files before the transaction that names them and never deletes one, even when it then fails; the
 * hourly sweep alone deletes, and only files no row names that no save has written for a day.
 */
import { and, inArray, isNotNull } from 'drizzle-orm';
import { pictures, users } from '#drizzle/tables.ts';
import { ART_LIMITS } from '#shared/constants.ts';
import { ART_MESSAGES, sniffImageType } from '#shared/validation/art.ts';
import { mapAtOnce } from '../../at-once.ts';
import type { Db } from '../../db.ts';
import type { ServiceContext } from '../context.ts';
import {
  ImageRejected,
  imageWork,
  preparePicture,
  writePreparedPicture,
  type PreparedPicture,
  type StoredPicture,
} from './images.ts';

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

/**
 * Writes the files of the pictures a save stores, before the transaction that names them; a name stored already has
 * its date renewed (MediaStorage.put), so the sweep leaves it alone however old it was. Nothing is taken back if
 * the save then fails: its files, named by no row, are the sweep's after MEDIA_ORPHAN_GRACE_MS.
 */
export async function writePreparedPictures(
  ctx: Pick<ServiceContext, 'media'>,
  prepared: readonly PreparedPicture[],
): Promise<StoredPicture[]> {
  const stored: StoredPicture[] = [];
  for (const picture of prepared) stored.push(await writePreparedPicture(ctx.media, picture));
  return stored;
}

const AVATAR_NAME = /^[0-9a-f]{32}-avatar\.jpg$/;

/** Whether a media file is named the way avatars are (accounts/avatars.ts writes them; the sweep judges them). */
function isAvatarName(name: string): boolean {
  return AVATAR_NAME.test(name);
}

/** A picture's files: its large size, thumbnail and narrower widths (decision 047), each named by its media key. */
const KEY_OF_NAME = /^([0-9a-f]{32})-(?:thumb\.webp|large\.webp|w\d{1,5}\.(?:webp|avif))$/;
/** A picture's deep-zoom files (decision 048): its pyramid's descriptor and tiles, named by its media key too. */
const KEY_OF_PYRAMID_NAME = /^([0-9a-f]{32})-dz(?:\.json|\d{1,2}-\d{1,5}-\d{1,5}\.webp)$/;
/** An upload kept for its pyramid to be cut from (images.ts, pyramidSourceNameOf): named by its whole name. */
const PYRAMID_SOURCE_NAME = /^[0-9a-f]{32}-src-[0-9a-f]{16}\.orig$/;
/** The pyramid states whose files a row keeps: a failed build's tiles, if any were written, are nobody's. */
const PYRAMID_KEPT = ['building', 'ready'];

/**
 * How long a file no row names is kept: longer than any save takes between writing its files and committing the
 * row that names them, so the sweep never takes the files of a save under way, on any host.
 */
export const MEDIA_ORPHAN_GRACE_MS = 24 * 60 * 60 * 1000;
/** Temporary files a killed write left (the folder's), which no save ever names: removed after an hour. */
const STALE_TEMPORARY_MS = 60 * 60 * 1000;
/** Names looked up in the database at once. */
const SWEEP_BATCH = 100;
/** Files of a batch looked up and deleted at once: a removed piece's pyramid is a few thousand, each a round trip. */
const SWEEP_AT_ONCE = 8;

/**
 * What the sweep judges of a media file, as the row value that would name it, marked by the kind of row: `p:` a
 * picture key (any picture row), `z:` a pyramid's key (a picture row whose pyramid is building or ready), `s:` a
 * kept upload (a row's pyramid_source), `a:` an avatar (a user's image); null when the file is not ours to judge.
 */
function namedBy(name: string): string | null {
  const key = KEY_OF_NAME.exec(name)?.[1];
  if (key) return `p:${key}`;
  const pyramidKey = KEY_OF_PYRAMID_NAME.exec(name)?.[1];
  if (pyramidKey) return `z:${pyramidKey}`;
  if (PYRAMID_SOURCE_NAME.test(name)) return `s:${name}`;
  return isAvatarName(name) ? `a:${name}` : null;
}

/** The values of one kind among marked names (namedBy's). */
const ofKind = (names: readonly string[], kind: string) =>
  names.filter((name) => name.startsWith(kind)).map((name) => name.slice(kind.length));

/** Of the given marked names (namedBy's), those some committed row names. */
async function namedAmong(db: Db, names: readonly string[]): Promise<Set<string>> {
  const named = new Set<string>();
  const keys = ofKind(names, 'p:');
  const pyramidKeys = ofKind(names, 'z:');
  const sources = ofKind(names, 's:');
  const avatars = ofKind(names, 'a:');
  if (keys.length)
    for (const row of await db
      .select({ key: pictures.mediaKey })
      .from(pictures)
      .where(inArray(pictures.mediaKey, keys)))
      named.add(`p:${row.key}`);
  if (pyramidKeys.length)
    for (const row of await db
      .select({ key: pictures.mediaKey })
      .from(pictures)
      .where(and(inArray(pictures.mediaKey, pyramidKeys), inArray(pictures.pyramid, PYRAMID_KEPT))))
      named.add(`z:${row.key}`);
  if (sources.length)
    for (const row of await db
      .select({ source: pictures.pyramidSource })
      .from(pictures)
      .where(inArray(pictures.pyramidSource, sources)))
      if (row.source) named.add(`s:${row.source}`);
  if (avatars.length)
    for (const row of await db.select({ image: users.image }).from(users).where(inArray(users.image, avatars)))
      if (row.image) named.add(`a:${row.image}`);
  return named;
}

async function everyNamed(db: Db): Promise<Set<string>> {
  const named = new Set<string>();
  for (const row of await db.selectDistinct({ key: pictures.mediaKey }).from(pictures)) named.add(`p:${row.key}`);
  for (const row of await db
    .selectDistinct({ key: pictures.mediaKey })
    .from(pictures)
    .where(inArray(pictures.pyramid, PYRAMID_KEPT)))
    named.add(`z:${row.key}`);
  for (const row of await db
    .select({ source: pictures.pyramidSource })
    .from(pictures)
    .where(isNotNull(pictures.pyramidSource)))
    if (row.source) named.add(`s:${row.source}`);
  for (const row of await db.select({ image: users.image }).from(users).where(isNotNull(users.image)))
    if (row.image) named.add(`a:${row.image}`);
  return named;
}

/**
 * The hourly job: deletes the picture, pyramid, kept-upload and avatar files that no picture row and no user names and that no save has
 * written for MEDIA_ORPHAN_GRACE_MS, then temporaries a killed write left. No lock is held: a save writes (or
 * renews) its files before its transaction names them, so a file being saved is young. A row may name a file after
 * the listing was read, so each old one is looked up in the database again, then its date read again last of all,
 * just before it is deleted: a save that used it meanwhile made it young.
 */
export async function sweepOrphanMedia(ctx: ServiceContext): Promise<string[]> {
  const named = await everyNamed(ctx.db);
  const isOld = (modifiedAt: number) => ctx.clock.now() - modifiedAt >= MEDIA_ORPHAN_GRACE_MS;
  const candidates: { name: string; namedBy: string }[] = [];
  for await (const file of ctx.media.list()) {
    // Only files named the way pictures (by their media key) and avatars (by their whole name) are: anything else
    // is not ours to judge.
    const by = namedBy(file.name);
    if (by && !named.has(by) && isOld(file.modifiedAt)) candidates.push({ name: file.name, namedBy: by });
  }
  const removed: string[] = [];
  for (let i = 0; i < candidates.length; i += SWEEP_BATCH) {
    const batch = candidates.slice(i, i + SWEEP_BATCH);
    const namedNow = await namedAmong(ctx.db, [...new Set(batch.map((file) => file.namedBy))]);
    const gone = await mapAtOnce(batch, SWEEP_AT_ONCE, async (file) => {
      if (namedNow.has(file.namedBy)) return null;
      const now = await ctx.media.lookUp(file.name);
      if (!now || !isOld(now.modifiedAt)) return null;
      await ctx.media.delete(file.name);
      return file.name;
    });
    removed.push(...gone.filter((name) => name !== null));
  }
  const temporaries = (await ctx.media.removeStaleTemporaries?.(ctx.clock.now() - STALE_TEMPORARY_MS)) ?? [];
  removed.push(...temporaries);
  if (removed.length) ctx.log.info({ count: removed.length }, 'orphan media removed');
  return removed;
}
