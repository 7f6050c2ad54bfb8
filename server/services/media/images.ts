/**
 * The image pipeline (decision 009): sharp decides what a file is from its bytes, refuses decompression bombs, drops
 * metadata (EXIF, GPS), and writes a thumbnail for the tree and a large size for the details page under a
 * content-hashed name, with the dominant colour for small-scale drawing.
 */
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { MAX_IMAGE_PIXELS } from '#shared/validation/art.ts';
import type { MediaStorage } from '../../storage/index.ts';
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

import { mediaNameOf } from '../display/index.ts';

export interface StoredPicture {
  key: string;
  width: number;
  height: number;
  /** 0xRRGGBB */
  dominantColor: number;
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
}

/** Decodes, checks, normalises and stores one picture; returns its key. Writes files only: rows are the caller's. */
export async function storePicture(media: MediaStorage, input: Buffer): Promise<StoredPicture> {
  return writePreparedPicture(media, await preparePicture(input));
}

/**
 * Writes both sizes of a prepared picture (content-hashed: writing the same picture again keeps its bytes and renews
 * its date).
 */
export async function writePreparedPicture(media: MediaStorage, prepared: PreparedPicture): Promise<StoredPicture> {
  await media.put(mediaNameOf(prepared.key, 'large'), prepared.large);
  await media.put(mediaNameOf(prepared.key, 'thumb'), prepared.thumb);
  const { key, width, height, dominantColor } = prepared;
  return { key, width, height, dominantColor };
}

/** Decodes, checks and re-encodes one picture in memory (metadata dropped); throws ImageRejected. */
export async function preparePicture(input: Buffer): Promise<PreparedPicture> {
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
  try {
    large = await base()
      .resize(LARGE_SIZE, LARGE_SIZE, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 86 })
      .toBuffer({ resolveWithObject: true });
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
    large: large.data,
    thumb,
  };
}
