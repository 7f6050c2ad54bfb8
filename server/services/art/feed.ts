/** The pieces published last, newest first, with what the feed shows of each (server/http/feed.ts writes it). */
import { and, desc, eq, sql } from 'drizzle-orm';
import { art, cells, pictures, users } from '#drizzle/tables.ts';
import { ArtStatus } from '#shared/domain.ts';
import type { Queryable } from '../../db.ts';
import { mainPictureOf } from '../display/index.ts';

export async function newestPublished(db: Queryable, limit: number) {
  return await db
    .select({
      artToken: art.token,
      title: art.title,
      description: art.description,
      publishedAt: art.publishedAt,
      updatedAt: art.updatedAt,
      cellToken: cells.token,
      mediaKey: pictures.mediaKey,
      pictureDescription: pictures.description,
      authorToken: users.token,
      firstname: users.firstname,
      lastname: users.lastname,
    })
    .from(art)
    .innerJoin(cells, and(eq(cells.id, art.cellId), eq(cells.artId, art.id)))
    .innerJoin(users, eq(users.id, art.authorId))
    .leftJoin(pictures, mainPictureOf(art.id))
    .where(eq(art.status, ArtStatus.Published))
    .orderBy(desc(sql`coalesce(${art.publishedAt}, ${art.updatedAt})`), desc(art.id))
    .limit(limit);
}
