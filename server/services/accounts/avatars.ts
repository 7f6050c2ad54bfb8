/**
 * The avatar pipeline (docs/product.md, Limits; decision 014): type by magic bytes, size, sharp's pixel limit, then
 * turned upright, cropped to 300x300, flattened on white, written as a JPEG without metadata (EXIF, GPS) under a
 * content-hashed name. Files only: the user row is the caller's.
 */
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { AVATAR_LIMITS } from '#shared/constants.ts';
import { AVATAR_MESSAGES } from '#shared/validation/profile.ts';
import { isAvatarName, type MediaStore } from '../../media-store.ts';
import { removeUnnamedMedia, sniffImageType, imageWork, MAX_INPUT_PIXELS } from '../media/index.ts';
import type { ServiceContext } from '../context.ts';
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

/** Writes the avatar; answers whether this call created the file (so a failed save takes back only its own). */
export async function writeAvatar(media: MediaStore, avatar: PreparedAvatar): Promise<boolean> {
  const created = !media.exists(avatar.name);
  await media.write(avatar.name, avatar.bytes);
  return created;
}

/**
 * Removes an avatar file unless some user row still names it (identical pictures share one file): checked and
 * removed under the write lock (art-media.ts removeUnnamedMedia), like pictures.
 */
export async function removeAvatarIfUnused(
  ctx: Pick<ServiceContext, 'media' | 'db'>,
  name: string | null,
): Promise<void> {
  if (!name || !isAvatarName(name)) return;
  await removeUnnamedMedia(ctx, [name]);
}
