/**
 * user.* social procedures (docs/product.md, Who may do what): liking a user and following one. The path's first token
 * must be the viewer; nobody likes or follows themselves.
 */
import * as v from 'valibot';
import { tokenSchema } from '#shared/validation/common.ts';
import {
  follow,
  followStatus,
  listFollowing,
  likeUser,
  unfollow,
  unlikeUser,
  userLikeStatus,
} from '../services/social/index.ts';
import { userProcedure } from '../trpc.ts';

const likePair = v.object({ userToken: tokenSchema, otherToken: tokenSchema });
const followPair = v.object({ token: tokenSchema, otherToken: tokenSchema });

export const userSocialProcedures = {
  likeStatus: userProcedure
    .input(likePair)
    .query(({ ctx, input }) => userLikeStatus(ctx, ctx.user, input.userToken, input.otherToken)),
  /** Idempotent: liking again changes nothing. */
  like: userProcedure
    .input(likePair)
    .mutation(({ ctx, input }) => likeUser(ctx, ctx.user, input.userToken, input.otherToken)),
  /** Idempotent: unliking someone not liked changes nothing. */
  unlike: userProcedure
    .input(likePair)
    .mutation(({ ctx, input }) => unlikeUser(ctx, ctx.user, input.userToken, input.otherToken)),
  /** FOLLOWING: whom the viewer follows, most recent first. */
  following: userProcedure
    .input(v.object({ token: tokenSchema }))
    .query(({ ctx, input }) => listFollowing(ctx, ctx.user, input.token)),
  followStatus: userProcedure
    .input(followPair)
    .query(({ ctx, input }) => followStatus(ctx, ctx.user, input.token, input.otherToken)),
  /** Following twice is refused (already_following). */
  follow: userProcedure
    .input(followPair)
    .mutation(({ ctx, input }) => follow(ctx, ctx.user, input.token, input.otherToken)),
  /** Unfollowing someone not followed is refused (not_following). */
  unfollow: userProcedure
    .input(followPair)
    .mutation(({ ctx, input }) => unfollow(ctx, ctx.user, input.token, input.otherToken)),
};
