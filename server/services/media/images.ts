/**
 * The image pipeline (decision 009): sharp decides what a file is from its bytes, refuses decompression bombs, drops
 * metadata (EXIF, GPS), and writes a thumbnail for the tree, a large size for the details page and narrower widths
 * beside it for pages to pick by `srcset` (decision 047) under a content-hashed name, with the dominant colour for
 * small-scale drawing.
 */
import { createHash, randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { MAX_IMAGE_PIXELS } from '#shared/validation/art.ts';
import type { MediaStorage } from '../../storage/index.ts';
import { formatPictureSizes, mediaNameOf, sizedMediaNameOf, type PictureSize } from '../display/index.ts';
import { WorkQueue } from '../../work-queue.ts';

/**
 * Uploaded images decoded at once, and waiting: decoding a 40-megapixel picture holds well over 100 MB, so a burst
 * of large uploads waits its turn (or is told busy) instead of taking the server's memory (decision 024).
 */
export const IMAGE_WORK_AT_ONCE = 2;
export const IMAGE_WORK_WAITING = 16;
export const imageWork = new WorkQueue(IMAGE_WORK_AT_ONCE, IMAGE_WORK_WAITING, 5);

/** The pixel limit the editor also checks in the browser: larger than any camera image, far below a bomb. */
export const MAX_INPUT_PIXELS = MAX_IMAGE_PIXELS;
export const THUMB_SIZE = 256;
export const LARGE_SIZE = 1600;
/**
 * The narrower widths stored beside the large size, each as WebP and as AVIF where AVIF is smaller, so a page asks
 * for the width it draws (decision 047); only those narrower than the large size are made, never an enlargement.
 */
export const PICTURE_WIDTHS = [480, 800, 1200] as const;
const SIZED_WEBP = { quality: 82 } as const;
/** Effort 2 of 9: a tenth of the default's time at nearly its size (measured on the demo's art, 1,200 px). */
const SIZED_AVIF = { quality: 50, effort: 2 } as const;

export interface StoredPicture {
  key: string;
  width: number;
  height: number;
  /** 0xRRGGBB */
  dominantColor: number;
  /** The widths stored beside the large size, as the pictures row's `sizes` column holds them (decision 047). */
  sizes: string;
  /**
   * The upload as it came, kept for its deep-zoom pyramid to be cut from (decision 048) when it has more pixels than
   * the large size; null when the large size holds them all.
   */
  pyramidSource: string | null;
}

/**
 * The pictures row's columns a stored picture fills, wherever one is saved (the art service, the demo seed): its
 * files' key, its size and widths, and its deep-zoom state: a picture with more pixels than its large size is queued
 * for its pyramid ('building', decision 048), cut from the upload kept for it.
 */
export function storedPictureColumns(stored: StoredPicture) {
  return {
    mediaKey: stored.key,
    width: stored.width,
    height: stored.height,
    sizes: stored.sizes,
    pyramid: stored.pyramidSource ? 'building' : 'none',
    pyramidSource: stored.pyramidSource,
  };
}

export class ImageRejected extends Error {
  constructor(readonly reason: 'not_an_image' | 'too_many_pixels' | 'unsupported_type') {
    super(reason);
  }
}

const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'gif', 'webp']);

/** A decoded, checked picture held in memory, not yet written: uploads check every file before writing any. */
export interface PreparedPicture extends StoredPicture {
  large: Buffer;
  thumb: Buffer;
  /** The files of `sizes`, in its order. */
  sized: { size: PictureSize; data: Buffer }[];
  /** The upload's bytes when they are kept for a pyramid (`pyramidSource` names them once written), else null. */
  original: Buffer | null;
}

/**
 * A kept upload's name: the large size's key and a random part, since the upload still has its metadata (a camera's
 * GPS position) and must never be found by its key, which is public. It is never linked, and /media/ refuses it.
 */
export function pyramidSourceNameOf(key: string): string {
  return `${key}-src-${randomBytes(8).toString('hex')}.orig`;
}

/** Decodes, checks, normalises and stores one picture; returns its key. Writes files only: rows are the caller's. */
export async function storePicture(
  media: MediaStorage,
  input: Buffer,
  options: PictureOptions = {},
): Promise<StoredPicture> {
  return writePreparedPicture(media, await preparePicture(input, options));
}

export interface PictureOptions {
  /**
   * Whether AVIF is tried beside the WebP widths (the default): it takes most of a picture's encoding time, so the
   * demo seed, which stores a hundred pictures at once, leaves it out.
   */
  avif?: boolean;
}

/**
 * Writes every file of a prepared picture (content-hashed: writing the same picture again keeps its bytes and renews
 * its date).
 */
export async function writePreparedPicture(media: MediaStorage, prepared: PreparedPicture): Promise<StoredPicture> {
  await media.put(mediaNameOf(prepared.key, 'large'), prepared.large);
  await media.put(mediaNameOf(prepared.key, 'thumb'), prepared.thumb);
  for (const { size, data } of prepared.sized) await media.put(sizedMediaNameOf(prepared.key, size), data);
  const { key, width, height, dominantColor, sizes } = prepared;
  // Kept under a name of its own each time: the row that names it is the pyramid job's queue entry.
  const pyramidSource = prepared.original ? pyramidSourceNameOf(key) : null;
  if (pyramidSource && prepared.original) await media.put(pyramidSource, prepared.original);
  return { key, width, height, dominantColor, sizes, pyramidSource };
}

/**
 * The narrower widths of a picture from its large size's pixels: WebP at each of PICTURE_WIDTHS narrower than it,
 * and AVIF at those and at the large width itself, each AVIF kept only where it is smaller than the WebP beside it.
 */
async function sizedCopies(
  pixels: { data: Buffer; info: sharp.OutputInfo },
  large: Buffer,
  { avif: tryAvif = true }: PictureOptions,
): Promise<{ size: PictureSize; data: Buffer }[]> {
  const { width, height, channels } = pixels.info;
  const from = () => sharp(pixels.data, { raw: { width, height, channels } });
  const copies: { size: PictureSize; data: Buffer }[] = [];
  for (const narrower of [...PICTURE_WIDTHS.filter((w) => w < width), width]) {
    const webp = narrower === width ? large : await from().resize({ width: narrower }).webp(SIZED_WEBP).toBuffer();
    if (narrower < width) copies.push({ size: { width: narrower, format: 'webp' }, data: webp });
    if (!tryAvif) continue;
    const resized = narrower === width ? from() : from().resize({ width: narrower });
    const avif = await resized.avif(SIZED_AVIF).toBuffer();
    if (avif.length < webp.length) copies.push({ size: { width: narrower, format: 'avif' }, data: avif });
  }
  return copies;
}

/** Decodes, checks and re-encodes one picture in memory (metadata dropped); throws ImageRejected. */
export async function preparePicture(input: Buffer, options: PictureOptions = {}): Promise<PreparedPicture> {
  let metadata: sharp.Metadata;
  try {
    metadata = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
  } catch (error) {
    // sharp refuses to read past the pixel limit: that is a bomb (or a huge image), not a broken file.
    throw new ImageRejected(
      error instanceof Error && /pixel limit/i.test(error.message) ? 'too_many_pixels' : 'not_an_image',
    );
  }
  if (!metadata.format || !ACCEPTED_FORMATS.has(metadata.format)) throw new ImageRejected('unsupported_type');
  if (!metadata.width || !metadata.height) throw new ImageRejected('not_an_image');
  if (metadata.width * metadata.height > MAX_INPUT_PIXELS) throw new ImageRejected('too_many_pixels');

  const base = () => sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' }).rotate();
  let large: { data: Buffer; info: sharp.OutputInfo };
  let thumb: Buffer;
  let stats: sharp.Stats;
  let sized: { size: PictureSize; data: Buffer }[];
  try {
    // The original is decoded once for the large size's pixels, from which the large size and the narrower widths
    // are encoded.
    const pixels = await base()
      .resize(LARGE_SIZE, LARGE_SIZE, { fit: 'inside', withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const { width, height, channels } = pixels.info;
    large = await sharp(pixels.data, { raw: { width, height, channels } })
      .webp({ quality: 86 })
      .toBuffer({ resolveWithObject: true });
    sized = await sizedCopies(pixels, large.data, options);
    thumb = await base().resize(THUMB_SIZE, THUMB_SIZE, { fit: 'cover' }).webp({ quality: 80 }).toBuffer();
    stats = await sharp(thumb).stats();
  } catch {
    throw new ImageRejected('not_an_image');
  }
  const key = createHash('sha256').update(large.data).digest('hex').slice(0, 32);
  const { r, g, b } = stats.dominant;
  return {
    key,
    width: large.info.width,
    height: large.info.height,
    dominantColor: (r << 16) | (g << 8) | b,
    sizes: formatPictureSizes(sized.map((copy) => copy.size)),
    large: large.data,
    thumb,
    sized,
    // More pixels than the large size kept: the upload is what a deep zoom shows them from (decision 048).
    original: Math.max(metadata.width, metadata.height) > LARGE_SIZE ? input : null,
    pyramidSource: null,
  };
}
