/** A piece's pictures as the pages show them: their URLs, the ordered list, and the main picture's thumbnail. */
import { serverMediaUrlOf, type MediaUrlOf } from '../../storage/index.ts';
import {
  mediaNameOf,
  parsePictureSizes,
  pyramidDescriptorNameOf,
  sizedMediaNameOf,
  type PyramidState,
} from './media-names.ts';
import type { Queryable } from '../../db.ts';
import type { ArtPicture, PictureVariantUrl } from '#shared/art-api.ts';
import { pictures } from '#drizzle/tables.ts';
import { eq, asc, type AnyColumn, and } from 'drizzle-orm';

/**
 * Both addresses of a picture, made by the media storage (`ctx.media.urlOf`). Without it, the server's own /media/
 * address, which answers on every adapter (a caller with no storage at hand).
 */
export const pictureUrls = (key: string, urlOf: MediaUrlOf = serverMediaUrlOf) => ({
  thumb: urlOf(mediaNameOf(key, 'thumb')),
  image: urlOf(mediaNameOf(key, 'large')),
});

/**
 * Every stored width of a picture (decision 047): the `sizes` column's widths and the large size, narrowest first,
 * WebP before AVIF at one width.
 */
export function pictureVariants(
  key: string,
  width: number,
  sizes: string,
  urlOf: MediaUrlOf = serverMediaUrlOf,
): PictureVariantUrl[] {
  const variants: PictureVariantUrl[] = parsePictureSizes(sizes).map((size) => ({
    width: size.width,
    type: size.format === 'avif' ? 'image/avif' : 'image/webp',
    url: urlOf(sizedMediaNameOf(key, size)),
  }));
  variants.push({ width, type: 'image/webp', url: urlOf(mediaNameOf(key, 'large')) });
  return variants.sort((a, b) => a.width - b.width || (a.type === b.type ? 0 : a.type === 'image/webp' ? -1 : 1));
}

const PYRAMID_STATES = new Set<string>(['none', 'building', 'ready', 'failed']);

/** A picture's deep zoom as the answers carry it: its state, and the descriptor's address once it is ready. */
export function deepZoomOf(key: string, state: string, urlOf: MediaUrlOf = serverMediaUrlOf): ArtPicture['deepZoom'] {
  const known = (PYRAMID_STATES.has(state) ? state : 'none') as PyramidState;
  return { state: known, descriptor: known === 'ready' ? urlOf(pyramidDescriptorNameOf(key)) : null };
}

export async function readPictures(q: Queryable, artId: number, urlOf: MediaUrlOf): Promise<ArtPicture[]> {
  return (
    await q
      .select({
        token: pictures.token,
        key: pictures.mediaKey,
        width: pictures.width,
        height: pictures.height,
        description: pictures.description,
        sizes: pictures.sizes,
        pyramid: pictures.pyramid,
      })
      .from(pictures)
      .where(eq(pictures.artId, artId))
      .orderBy(asc(pictures.position))
  ).map(({ key, sizes, pyramid, ...rest }) => ({
    ...rest,
    ...pictureUrls(key, urlOf),
    variants: pictureVariants(key, rest.width, sizes, urlOf),
    deepZoom: deepZoomOf(key, pyramid, urlOf),
  }));
}

/** The main picture's thumbnail URL of a piece, from a left join on its position-0 picture. */
export const thumbOf = (mediaKey: string | null, urlOf: MediaUrlOf): string | null =>
  mediaKey ? pictureUrls(mediaKey, urlOf).thumb : null;

/** Joins a piece's main picture (position 0), for thumbOf. */
export const mainPictureOf = (artId: AnyColumn) => and(eq(pictures.artId, artId), eq(pictures.position, 0));
