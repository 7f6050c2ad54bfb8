/** A piece's pictures as the pages show them: their URLs, the ordered list, and the main picture's thumbnail. */
import { MEDIA_URL_PREFIX } from '../../media-store.ts';
import { mediaNameOf } from './media-names.ts';
import type { Queryable } from '../../db.ts';
import type { ArtPicture } from '#shared/art-api.ts';
import { pictures } from '#drizzle/tables.ts';
import { eq, asc, type AnyColumn, and } from 'drizzle-orm';

export const pictureUrls = (key: string) => ({
  thumb: MEDIA_URL_PREFIX + mediaNameOf(key, 'thumb'),
  image: MEDIA_URL_PREFIX + mediaNameOf(key, 'large'),
});

export async function readPictures(q: Queryable, artId: number): Promise<ArtPicture[]> {
  return (
    await q
      .select({
        token: pictures.token,
        key: pictures.mediaKey,
        width: pictures.width,
        height: pictures.height,
        description: pictures.description,
      })
      .from(pictures)
      .where(eq(pictures.artId, artId))
      .orderBy(asc(pictures.position))
  ).map(({ key, ...rest }) => ({ ...rest, ...pictureUrls(key) }));
}

/** The main picture's thumbnail URL of a piece, from a left join on its position-0 picture. */
export const thumbOf = (mediaKey: string | null): string | null => (mediaKey ? pictureUrls(mediaKey).thumb : null);

/** Joins a piece's main picture (position 0), for thumbOf. */
export const mainPictureOf = (artId: AnyColumn) => and(eq(pictures.artId, artId), eq(pictures.position, 0));
