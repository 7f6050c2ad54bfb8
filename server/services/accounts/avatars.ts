/**
 * The avatar pipeline (docs/product.md, Limits; decision 014): type by magic bytes, size, sharp's pixel limit, then
 * turned upright, cropped to 300x300, flattened on white, written as a JPEG without metadata (EXIF, GPS) under a
 * content-hashed name. Files only: the user row is the caller's. No avatar is ever deleted here, not even one a
 * profile no longer shows: the orphan sweep takes it once no row has named it for a day (decision 044).
 */
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { AVATAR_LIMITS } from '#shared/constants.ts';
import { AVATAR_MESSAGES } from '#shared/validation/profile.ts';
import type { MediaStorage } from '../../storage/index.ts';
import { sniffImageType, imageWork, MAX_INPUT_PIXELS } from '../media/index.ts';
import { AppError } from '../../errors.ts';

export interface PreparedAvatar {
  name: string;
  bytes: Buffer;
}

/** Checks and re-encodes an uploaded avatar in memory; answers it or the image field's message (AVATAR_MESSAGES). */
export async function prepareAvatar(bytes: Buffer): Promise<PreparedAvatar | { error: string }> {
  if (bytes.length > AVATAR_LIMITS.maxBytes) return { error: AVATAR_MESSAGES.tooBig };
  if (!sniffImageType(bytes)) return { error: AVATAR_MESSAGES.wrongType };
  let jpeg: Buffer;
  try {
    jpeg = await imageWork.run(() =>
      sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
        .rotate()
        .resize(AVATAR_LIMITS.size, AVATAR_LIMITS.size, { fit: 'cover' })
        .flatten({ background: '#ffffff' })
        .jpeg({ quality: 88 })
        .toBuffer(),
    );
  } catch (error) {
    if (error instanceof AppError) throw error;
    // Right magic bytes, but not a picture sharp can read (or one past the pixel limit).
    return { error: AVATAR_MESSAGES.wrongType };
  }
  const key = createHash('sha256').update(jpeg).digest('hex').slice(0, 32);
  return { name: `${key}-avatar.jpg`, bytes: jpeg };
}

/**
 * Writes the avatar before the transaction that names it (or renews the date of the same picture stored already), so
 * that no row ever names a file not written.
 */
export async function writeAvatar(media: MediaStorage, avatar: PreparedAvatar): Promise<void> {
  await media.put(avatar.name, avatar.bytes);
}
