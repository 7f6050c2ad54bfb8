/**
 * A user's pieces: ATELIER (their squares with a piece, at any stage, and the pieces kept when a change window ran out,
 * decision 019) and the public profile's ART cards (published only), newest first. Otherwise only pieces still on
 * their square count: a released draft or a piece removed at its artist's request is gone.
 */
import { and, count, desc, eq, inArray, isNotNull, ne, or, sql } from 'drizzle-orm';
import { art, artLikes, artViews, cells, pictures, removalRequests, reservations, trees } from '#drizzle/tables.ts';
import { ArtStatus } from '#shared/domain.ts';
import { ErrorCode } from '#shared/errors.ts';
import type { AtelierItem, PublishedArtCard } from '#shared/profile-api.ts';
import { AppError } from '../../errors.ts';
import { mayReadPrivateProfile, type Viewer } from '../../permissions.ts';
import { pictureUrls } from '../display/index.ts';
import { listActiveConnections } from './connections.ts';
import type { ServiceContext } from '../context.ts';
import { memberByToken } from '../social/index.ts';

/** Counts of `column` grouped by art id, for the given pieces. */
async function countsByArt(
  ctx: ServiceContext,
  table: typeof artLikes | typeof artViews,
  artIds: number[],
): Promise<Map<number, number>> {
  if (artIds.length === 0) return new Map();
  const rows = await ctx.db
    .select({ artId: table.artId, n: count() })
    .from(table)
    .where(inArray(table.artId, artIds))
    .groupBy(table.artId);
  return new Map(rows.map((r) => [r.artId, r.n]));
}

/** The first picture's thumbnail URL of each piece. */
async function thumbsByArt(ctx: ServiceContext, artIds: number[]): Promise<Map<number, string>> {
  if (artIds.length === 0) return new Map();
  const rows = await ctx.db
    .select({ artId: pictures.artId, key: pictures.mediaKey })
    .from(pictures)
    .where(and(inArray(pictures.artId, artIds), eq(pictures.position, 0)));
  return new Map(rows.map((r) => [r.artId, pictureUrls(r.key, ctx.media.urlOf).thumb]));
}

async function activities(ctx: ServiceContext, artIds: number[]) {
  const likes = await countsByArt(ctx, artLikes, artIds);
  const views = await countsByArt(ctx, artViews, artIds);
  return (artId: number) => ({ likes: likes.get(artId) ?? 0, reviews: views.get(artId) ?? 0 });
}

/** The columns of a piece's card, made for each query: an object made at import would keep SQLite's tables. */
const pieceColumns = () => ({
  artId: art.id,
  artToken: art.token,
  status: art.status,
  title: art.title,
  year: art.year,
  category: art.category,
  width: art.width,
  height: art.height,
  depth: art.depth,
  units: art.units,
  no_size: art.noSize,
  created_at: art.createdAt,
  updated_at: art.updatedAt,
  cellId: cells.id,
  treeId: cells.treeId,
  cellToken: cells.token,
  cellStatus: cells.status,
  cellType: cells.type,
  row: cells.row,
  column: cells.column,
  treeToken: trees.token,
});

const onItsSquare = () => eq(cells.artId, art.id);

/**
 * A piece sent back for changes whose window ran out: REMOVED off its square but kept for its artist. Staff's
 * reason is still on it (publishing clears it), and it was not taken down at the artist's own request.
 */
const keptAfterChangesWindow = () =>
  and(
    eq(art.status, ArtStatus.Removed),
    isNotNull(art.reviewNote),
    sql`not exists (select 1 from ${removalRequests} where ${removalRequests.artId} = ${art.id} and ${removalRequests.state} = 'accepted')`,
  );

/** The pieces of `authorId`, newest first: the atelier's, or with `published` only the published ones. */
async function piecesOf(ctx: ServiceContext, authorId: number, published: boolean) {
  return await ctx.db
    .select(pieceColumns())
    .from(art)
    .innerJoin(cells, eq(cells.id, art.cellId))
    .innerJoin(trees, eq(trees.id, cells.treeId))
    .where(
      and(
        eq(art.authorId, authorId),
        published
          ? and(onItsSquare(), eq(art.status, ArtStatus.Published))
          : or(and(onItsSquare(), ne(art.status, ArtStatus.Removed)), keptAfterChangesWindow()),
      ),
    )
    .orderBy(desc(art.createdAt), desc(art.id));
}

/** GET /api/user/{token}/art: ATELIER, for the owner or an admin. */
export async function listAtelier(ctx: ServiceContext, viewer: Viewer, token: string): Promise<AtelierItem[]> {
  if (!mayReadPrivateProfile(viewer, token))
    throw new AppError(ErrorCode.Forbidden, 'You can only see your own atelier.');
  const owner = await memberByToken(ctx, token);
  const rows = await piecesOf(ctx, owner.id, false);
  const ids = rows.map((r) => r.artId);
  const thumbs = await thumbsByArt(ctx, ids);
  const activityOf = await activities(ctx, ids);
  const holds = new Map(
    (
      await ctx.db
        .select({ cellId: reservations.cellId, expiresAt: reservations.expiresAt })
        .from(reservations)
        .where(and(eq(reservations.userId, owner.id), eq(reservations.state, 'active')))
    ).map((r) => [r.cellId, r.expiresAt]),
  );
  return rows.map(({ artId, cellId, treeId: _treeId, year: _year, ...row }) => ({
    ...row,
    thumb: thumbs.get(artId) ?? null,
    reservedUntil: row.status === ArtStatus.Draft ? (holds.get(cellId) ?? null) : null,
    activity: activityOf(artId),
  }));
}

/** GET /api/user/{token}/art/published: the public profile's ART cards. */
export async function listPublishedArt(ctx: ServiceContext, token: string): Promise<PublishedArtCard[]> {
  const owner = await memberByToken(ctx, token);
  const rows = await piecesOf(ctx, owner.id, true);
  const ids = rows.map((r) => r.artId);
  const thumbs = await thumbsByArt(ctx, ids);
  const activityOf = await activities(ctx, ids);
  return Promise.all(
    rows.map(async (row) => ({
      cellToken: row.cellToken,
      cellStatus: row.cellStatus,
      cellType: row.cellType,
      row: row.row,
      column: row.column,
      artToken: row.artToken,
      title: row.title,
      year: row.year,
      category: row.category,
      width: row.width,
      height: row.height,
      depth: row.depth,
      units: row.units,
      no_size: row.no_size,
      thumb: thumbs.get(row.artId) ?? null,
      created_at: row.created_at,
      activity: activityOf(row.artId),
      connections: (
        await listActiveConnections(
          ctx.db,
          { id: row.cellId, treeId: row.treeId, row: row.row, column: row.column },
          row.artId,
          ctx.media.urlOf,
        )
      ).map((c) => ({
        cellToken: c.next_cell.token,
        thumb: c.next_cell.art.picture?.thumb ?? null,
      })),
    })),
  );
}
