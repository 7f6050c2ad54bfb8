/**
 * Likes and follows between users (docs/product.md, Who may do what): the path's first token, the acting user, must be
 * the viewer; nobody likes or follows themselves. Liking twice, or unliking someone not liked, changes nothing; a
 * second follow, or unfollowing someone not followed, is refused (already_following, not_following). Counts stay >= 0.
 */
import { and, count, desc, eq, isNull } from 'drizzle-orm';
import { follows, userLikes, users } from '#drizzle/tables.ts';
import { ErrorCode } from '#shared/errors.ts';
import type { FollowedUser, FollowStatus, UserLikeStatus } from '#shared/profile-api.ts';
import { write } from '../../db.ts';
import { AppError } from '../../errors.ts';
import { mayActAs, mayFollow, mayLikeUser, type Viewer } from '../../permissions.ts';
import type { ServiceContext } from '../context.ts';
import { ERROR_TEXT } from '#shared/error-text.ts';

/** An active (not disabled) member by token, or user_not_found. */
export async function memberByToken(ctx: ServiceContext, token: string): Promise<typeof users.$inferSelect> {
  const found = (
    await ctx.db
      .select()
      .from(users)
      .where(and(eq(users.token, token), isNull(users.disabledAt)))
  )[0];
  if (!found) throw new AppError(ErrorCode.UserNotFound, ERROR_TEXT.user_not_found);
  return found;
}

function actor(viewer: Viewer, userToken: string): NonNullable<Viewer> {
  if (!mayActAs(viewer, userToken))
    throw new AppError(ErrorCode.Forbidden, 'You can only like and follow as yourself.');
  return viewer;
}

/** The acting viewer and the other member, checked with `allowed` (never oneself). */
async function pair(
  ctx: ServiceContext,
  viewer: Viewer,
  userToken: string,
  otherToken: string,
  allowed: (v: Viewer, o: { token: string }) => boolean,
) {
  const me = actor(viewer, userToken);
  if (!allowed(me, { token: otherToken })) throw new AppError(ErrorCode.OwnProfile, ERROR_TEXT.own_profile);
  return { me, other: await memberByToken(ctx, otherToken) };
}

export async function likesOfUser(ctx: ServiceContext, userId: number): Promise<number> {
  return (await ctx.db.select({ n: count() }).from(userLikes).where(eq(userLikes.likedUserId, userId)))[0]?.n ?? 0;
}

export async function followersOf(ctx: ServiceContext, userId: number): Promise<number> {
  return (await ctx.db.select({ n: count() }).from(follows).where(eq(follows.followedId, userId)))[0]?.n ?? 0;
}

async function likeStatusOf(ctx: ServiceContext, userId: number, otherId: number): Promise<UserLikeStatus> {
  const row = (
    await ctx.db
      .select({ id: userLikes.likedUserId })
      .from(userLikes)
      .where(and(eq(userLikes.userId, userId), eq(userLikes.likedUserId, otherId)))
  )[0];
  return { liked: row ? 1 : 0, likes: await likesOfUser(ctx, otherId) };
}

async function isFollowing(ctx: ServiceContext, userId: number, otherId: number): Promise<boolean> {
  return (
    (
      await ctx.db
        .select({ id: follows.followedId })
        .from(follows)
        .where(and(eq(follows.followerId, userId), eq(follows.followedId, otherId)))
    )[0] !== undefined
  );
}

async function followStatusOf(ctx: ServiceContext, userId: number, otherId: number): Promise<FollowStatus> {
  return { following: (await isFollowing(ctx, userId, otherId)) ? 1 : 0, followers: await followersOf(ctx, otherId) };
}

/** GET /api/user/{userToken}/like/{otherToken} */
export async function userLikeStatus(
  ctx: ServiceContext,
  viewer: Viewer,
  userToken: string,
  otherToken: string,
): Promise<UserLikeStatus> {
  const { me, other } = await pair(ctx, viewer, userToken, otherToken, mayLikeUser);
  return likeStatusOf(ctx, me.id, other.id);
}

/** PUT /api/user/{userToken}/like/{otherToken}: idempotent. */
export async function likeUser(
  ctx: ServiceContext,
  viewer: Viewer,
  userToken: string,
  otherToken: string,
): Promise<UserLikeStatus> {
  const { me, other } = await pair(ctx, viewer, userToken, otherToken, mayLikeUser);
  await write(
    ctx.db,
    async (tx) =>
      await tx
        .insert(userLikes)
        .values({ userId: me.id, likedUserId: other.id, createdAt: ctx.clock.now() })
        .onConflictDoNothing(),
  );
  return likeStatusOf(ctx, me.id, other.id);
}

/** DELETE /api/user/{userToken}/like/{otherToken}: idempotent. */
export async function unlikeUser(
  ctx: ServiceContext,
  viewer: Viewer,
  userToken: string,
  otherToken: string,
): Promise<UserLikeStatus> {
  const { me, other } = await pair(ctx, viewer, userToken, otherToken, mayLikeUser);
  await write(
    ctx.db,
    async (tx) =>
      await tx.delete(userLikes).where(and(eq(userLikes.userId, me.id), eq(userLikes.likedUserId, other.id))),
  );
  return likeStatusOf(ctx, me.id, other.id);
}

/** GET /api/user/{token}/follow: FOLLOWING, most recently followed first (disabled accounts left out). */
export async function listFollowing(ctx: ServiceContext, viewer: Viewer, token: string): Promise<FollowedUser[]> {
  const me = actor(viewer, token);
  return (
    await ctx.db
      .select({
        token: users.token,
        firstname: users.firstname,
        lastname: users.lastname,
        image: users.image,
        city: users.city,
        country: users.country,
        created_at: follows.createdAt,
      })
      .from(follows)
      .innerJoin(users, eq(users.id, follows.followedId))
      .where(and(eq(follows.followerId, me.id), isNull(users.disabledAt)))
      .orderBy(desc(follows.createdAt), desc(users.id))
  ).map((row) => ({ ...row, image: row.image ? ctx.media.urlOf(row.image) : null }));
}

/** GET /api/user/{token}/follow/{otherToken} */
export async function followStatus(
  ctx: ServiceContext,
  viewer: Viewer,
  token: string,
  otherToken: string,
): Promise<FollowStatus> {
  const { me, other } = await pair(ctx, viewer, token, otherToken, mayFollow);
  return followStatusOf(ctx, me.id, other.id);
}

/** PUT /api/user/{token}/follow/{otherToken}: refused with already_following when already followed. */
export async function follow(
  ctx: ServiceContext,
  viewer: Viewer,
  token: string,
  otherToken: string,
): Promise<FollowStatus> {
  const { me, other } = await pair(ctx, viewer, token, otherToken, mayFollow);
  const inserted = await write(
    ctx.db,
    async (tx) =>
      await tx
        .insert(follows)
        .values({ followerId: me.id, followedId: other.id, createdAt: ctx.clock.now() })
        .onConflictDoNothing()
        .returning({ followedId: follows.followedId }),
  );
  // Rows returned, not a driver's count of changes: better-sqlite3 has one, node-postgres does not.
  if (inserted.length === 0) throw new AppError(ErrorCode.AlreadyFollowing, ERROR_TEXT.already_following);
  return followStatusOf(ctx, me.id, other.id);
}

/** DELETE /api/user/{token}/follow/{otherToken}: refused with not_following when not followed. */
export async function unfollow(
  ctx: ServiceContext,
  viewer: Viewer,
  token: string,
  otherToken: string,
): Promise<FollowStatus> {
  const { me, other } = await pair(ctx, viewer, token, otherToken, mayFollow);
  const deleted = await write(
    ctx.db,
    async (tx) =>
      await tx
        .delete(follows)
        .where(and(eq(follows.followerId, me.id), eq(follows.followedId, other.id)))
        .returning({ followedId: follows.followedId }),
  );
  if (deleted.length === 0) throw new AppError(ErrorCode.NotFollowing, ERROR_TEXT.not_following);
  return followStatusOf(ctx, me.id, other.id);
}
