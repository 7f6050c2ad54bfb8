/**
 * A picture's stored widths as `srcset` lists (decision 047): the WebP one every browser takes, and one for browsers
 * that take AVIF, each width as AVIF where one was stored smaller, else as WebP (every browser that decodes AVIF
 * decodes WebP). A picture stored before the widths has its large size alone, which both lists then are.
 */
import type { ArtPicture } from '#shared/art-api.ts';

export interface PictureSrcsets {
  webp: string;
  /** null when no width has an AVIF: the `<source>` would repeat the WebP list. */
  avif: string | null;
}

export function pictureSrcsets(picture: Pick<ArtPicture, 'variants' | 'image' | 'width'>): PictureSrcsets {
  const variants = picture.variants.length
    ? picture.variants
    : [{ width: picture.width, type: 'image/webp' as const, url: picture.image }];
  const webp = new Map<number, string>();
  const best = new Map<number, string>();
  for (const variant of variants) {
    if (variant.type === 'image/webp') webp.set(variant.width, variant.url);
    if (variant.type === 'image/avif' || !best.has(variant.width)) best.set(variant.width, variant.url);
  }
  const list = (urls: Map<number, string>) =>
    [...urls]
      .sort(([a], [b]) => a - b)
      .map(([width, url]) => `${url} ${width}w`)
      .join(', ');
  const hasAvif = variants.some((variant) => variant.type === 'image/avif');
  return { webp: list(webp), avif: hasAvif ? list(best) : null };
}
