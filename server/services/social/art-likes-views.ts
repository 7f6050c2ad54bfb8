/**
 * Likes and views of art (docs/product.md, Who may do what). A like is one a user and piece (liking twice changes
 * nothing); one's own art cannot be liked. A view ("review") counts once per viewer per day (viewerKeyOf).
 */
import { createHash } from 'node:crypto';
import { and, count, eq } from 'drizzle-orm';
import { art, artLikes, artViews } from '#drizzle/tables.ts';
import type { LikeStatus } from '#shared/art-api.ts';
import { ArtStatus } from '#shared/domain.ts';
import { ErrorCode } from '#shared/errors.ts';
import { write } from '../../db.ts';
import { AppError } from '../../errors.ts';
import { isAdmin, mayLikeArt, type Viewer } from '../../permissions.ts';
import { TOKEN_PATTERN } from '../../tokens.ts';
import type { ServiceContext } from '../context.ts';
import { networkOf } from '../network.ts';

/** A piece by token that the viewer may see: published, or their own, or any for an admin. */
async function visibleArt(ctx: ServiceContext, viewer: Viewer, artToken: string) {
  if (!TOKEN_PATTERN.test(artToken)) throw new AppError(ErrorCode.BadRequest, 'Malformed art token.');
  const piece = (
    await ctx.db
      .select({ id: art.id, authorId: art.authorId, status: art.status })
      .from(art)
      .where(eq(art.token, artToken))
  )[0];
  const visible =
    piece &&
    (piece.status === ArtStatus.Published ||
      (piece.status !== ArtStatus.Removed && (piece.authorId === viewer?.id || isAdmin(viewer))));
  if (!piece || !visible) throw new AppError(ErrorCode.ArtNotFound, 'No published art has this token.');
  return piece;
}

async function likesOf(ctx: ServiceContext, artId: number): Promise<number> {
  return (await ctx.db.select({ n: count() }).from(artLikes).where(eq(artLikes.artId, artId)))[0]?.n ?? 0;
}

async function statusOf(ctx: ServiceContext, userId: number, artId: number): Promise<LikeStatus> {
  const liked = (
    await ctx.db
      .select({ a: artLikes.artId })
      .from(artLikes)
      .where(and(eq(artLikes.userId, userId), eq(artLikes.artId, artId)))
  )[0];
  return { liked: liked ? 1 : 0, likes: await likesOf(ctx, artId) };
}

function member(viewer: Viewer): NonNullable<Viewer> {
  if (!viewer) throw new AppError(ErrorCode.Unauthenticated, 'Log in to like art.');
  return viewer;
}

/** GET /api/art/{artToken}/like */
export async function getArtLikeStatus(ctx: ServiceContext, viewer: Viewer, artToken: string): Promise<LikeStatus> {
  const user = member(viewer);
  return statusOf(ctx, user.id, (await visibleArt(ctx, viewer, artToken)).id);
}

async function likeable(ctx: ServiceContext, viewer: Viewer, artToken: string) {
  const user = member(viewer);
  const piece = await visibleArt(ctx, viewer, artToken);
  if (!mayLikeArt(user, piece)) throw new AppError(ErrorCode.OwnArt, 'You cannot like your own art.');
  if (piece.status !== ArtStatus.Published)
    throw new AppError(ErrorCode.ArtNotFound, 'Only published art can be liked.');
  return { user, piece };
}

/** PUT /api/art/{artToken}/like: idempotent. */
export async function likeArt(ctx: ServiceContext, viewer: Viewer, artToken: string): Promise<LikeStatus> {
  const { user, piece } = await likeable(ctx, viewer, artToken);
  await write(
    ctx.db,
    async (tx) =>
      await tx
        .insert(artLikes)
        .values({ userId: user.id, artId: piece.id, createdAt: ctx.clock.now() })
        .onConflictDoNothing(),
  );
  return statusOf(ctx, user.id, piece.id);
}

/** DELETE /api/art/{artToken}/like: idempotent. */
export async function unlikeArt(ctx: ServiceContext, viewer: Viewer, artToken: string): Promise<LikeStatus> {
  const { user, piece } = await likeable(ctx, viewer, artToken);
  await write(
    ctx.db,
    async (tx) => await tx.delete(artLikes).where(and(eq(artLikes.userId, user.id), eq(artLikes.artId, piece.id))),
  );
  return statusOf(ctx, user.id, piece.id);
}

export interface Visitor {
  ip: string;
}

/**
 * The key a view is counted under, with the UTC day: a signed-in visitor's account, a guest's network address
 * (hashed). Not the User-Agent, which a client sets to whatever it likes: 50 of them from one address are one view.
 */
export function viewerKeyOf(viewer: Viewer, visitor: Visitor, now: number): string {
  const day = new Date(now).toISOString().slice(0, 10);
  if (viewer) return `u:${viewer.id}:${day}`;
  const hash = createHash('sha256').update(networkOf(visitor.ip)).digest('base64url').slice(0, 32);
  return `g:${hash}:${day}`;
}

/** PUT /api/art/{artToken}/review: registers the view (once per viewer per day) and answers the count. */
export async function registerArtView(
  ctx: ServiceContext,
  viewer: Viewer,
  artToken: string,
  visitor: Visitor,
): Promise<{ reviews: number }> {
  const piece = await visibleArt(ctx, viewer, artToken);
  const now = ctx.clock.now();
  // The author (or staff) looking at a piece under review is not a visitor's view.
  if (piece.status === ArtStatus.Published) {
    const viewerKey = viewerKeyOf(viewer, visitor, now);
    await write(
      ctx.db,
      async (tx) =>
        await tx.insert(artViews).values({ artId: piece.id, viewerKey, createdAt: now }).onConflictDoNothing(),
    );
  }
  return {
    reviews: (await ctx.db.select({ n: count() }).from(artViews).where(eq(artViews.artId, piece.id)))[0]?.n ?? 0,
  };
}
