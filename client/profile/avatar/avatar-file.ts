/**
 * Opening a picture chosen for the avatar (spec §5): at most 8 MB, and really a JPEG, PNG or GIF, whatever its name
 * says. The first bytes decide the type (a text file renamed .png is refused), then the browser must be able to
 * decode it. Answers the decoded picture or the spec's message.
 */
import { AVATAR_LIMITS } from '#shared/constants.ts';
import { messages } from '#client/locale/messages.ts';

export type OpenedAvatar = { ok: true; picture: ImageBitmap } | { ok: false; message: string };

const SIGNATURES: readonly (readonly number[])[] = [
  [0xff, 0xd8, 0xff], // JPEG
  [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], // PNG
  [0x47, 0x49, 0x46, 0x38, 0x37, 0x61], // GIF87a
  [0x47, 0x49, 0x46, 0x38, 0x39, 0x61], // GIF89a
];

export function hasImageSignature(head: Uint8Array): boolean {
  return SIGNATURES.some((signature) => signature.every((byte, index) => head[index] === byte));
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
