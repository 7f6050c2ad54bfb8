/**
 * Opening a picture chosen for the avatar (docs/product.md, Limits; decision 015): at most 8 MB, and a JPEG, PNG or
 * GIF by its first bytes whatever its name says (a text file renamed .png is refused), then decoded by the browser.
 * Answers the decoded picture or the size or type message.
 */
import { AVATAR_LIMITS } from '#shared/constants.ts';
import { sniffImageType } from '#shared/validation/art.ts';
import { messages } from '#client/locale/messages.ts';

export type OpenedAvatar = { ok: true; picture: ImageBitmap } | { ok: false; message: string };

/** JPEG, PNG or GIF by its first bytes: the same check the server makes (shared/validation/art.ts). */
export function hasImageSignature(head: Uint8Array): boolean {
  return sniffImageType(head) !== null;
}

export async function openAvatarFile(file: File): Promise<OpenedAvatar> {
  if (file.size > AVATAR_LIMITS.maxBytes) return { ok: false, message: messages.avatarTooLarge };
  const head = new Uint8Array(await file.slice(0, 8).arrayBuffer());
  if (!hasImageSignature(head)) return { ok: false, message: messages.avatarWrongType };
  try {
    return { ok: true, picture: await createImageBitmap(file) };
  } catch {
    // A damaged file that only starts like an image.
    return { ok: false, message: messages.avatarWrongType };
  }
}
