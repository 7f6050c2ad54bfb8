/**
 * Checks a chosen image file in the browser before it is ever sent, with the server's messages (decision 011): size,
 * then the type its first bytes announce (a text file renamed .png is refused), then the pixel count and whether
 * the browser can decode it at all. The server checks everything again.
 */
import { ART_MESSAGES, MAX_IMAGE_PIXELS, imageFileError, sniffImageType } from '#shared/validation/art.ts';

export type FileCheck = { preview: string } | { error: string };

export async function checkImageFile(file: File): Promise<FileCheck> {
  const basic = imageFileError(file);
  if (basic) return { error: basic };
  const head = new Uint8Array(await file.slice(0, 8).arrayBuffer());
  if (!sniffImageType(head)) return { error: ART_MESSAGES.imageType };
  const preview = URL.createObjectURL(file);
  const problem = await decodingProblem(preview);
  if (problem) {
    URL.revokeObjectURL(preview);
    return { error: problem };
  }
  return { preview };
}

/** Loads the header first (a huge image is refused without decoding it), then decodes the picture. */
async function decodingProblem(url: string): Promise<string | null> {
  const image = new Image();
  image.src = url;
  const loaded = await new Promise<boolean>((resolve) => {
    image.onload = () => resolve(true);
    image.onerror = () => resolve(false);
  });
  if (!loaded) return ART_MESSAGES.imageUnreadable;
  if (image.naturalWidth * image.naturalHeight > MAX_IMAGE_PIXELS) return ART_MESSAGES.imageTooManyPixels;
  try {
    await image.decode();
    return null;
  } catch {
    return ART_MESSAGES.imageUnreadable;
  }
}
