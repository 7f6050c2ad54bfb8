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
import * as examples from './examples/user.ts';

const likePair = v.object({ userToken: tokenSchema, otherToken: tokenSchema });
const followPair = v.object({ token: tokenSchema, otherToken: tokenSchema });

export const userSocialProcedures = {
  likeStatus: userProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/user/:userToken/like/:otherToken',
        who: 'owner',
        does: 'whether the account likes the other person',
        example: examples.likeStatus,
      },
    })
    .input(likePair)
    .query(({ ctx, input }) => userLikeStatus(ctx, ctx.user, input.userToken, input.otherToken)),
  /** Idempotent: liking again changes nothing. */
  like: userProcedure
    .meta({
      rest: {
        method: 'PUT',
        path: '/api/user/:userToken/like/:otherToken',
        who: 'owner',
        does: 'likes them (never oneself)',
        example: examples.like,
      },
    })
    .input(likePair)
    .mutation(({ ctx, input }) => likeUser(ctx, ctx.user, input.userToken, input.otherToken)),
  /** Idempotent: unliking someone not liked changes nothing. */
  unlike: userProcedure
    .meta({
      rest: {
        method: 'DELETE',
        path: '/api/user/:userToken/like/:otherToken',
        who: 'owner',
        does: 'unlikes them',
        example: examples.unlike,
      },
    })
    .input(likePair)
    .mutation(({ ctx, input }) => unlikeUser(ctx, ctx.user, input.userToken, input.otherToken)),
  /** FOLLOWING: whom the viewer follows, most recent first. */
  following: userProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/user/:token/follow',
        who: 'owner',
        does: 'FOLLOWING: whom the account follows',
        example: examples.following,
      },
    })
    .input(v.object({ token: tokenSchema }))
    .query(({ ctx, input }) => listFollowing(ctx, ctx.user, input.token)),
  followStatus: userProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/user/:token/follow/:otherToken',
        who: 'owner',
        does: 'whether the account follows the other person',
        example: examples.followStatus,
      },
    })
    .input(followPair)
    .query(({ ctx, input }) => followStatus(ctx, ctx.user, input.token, input.otherToken)),
  /** Following twice is refused (already_following). */
  follow: userProcedure
    .meta({
      rest: {
        method: 'PUT',
        path: '/api/user/:token/follow/:otherToken',
        who: 'owner',
        does: 'follows them (never oneself; twice is `already_following`)',
        example: examples.follow,
      },
    })
    .input(followPair)
    .mutation(({ ctx, input }) => follow(ctx, ctx.user, input.token, input.otherToken)),
  /** Unfollowing someone not followed is refused (not_following). */
  unfollow: userProcedure
    .meta({
      rest: {
        method: 'DELETE',
        path: '/api/user/:token/follow/:otherToken',
        who: 'owner',
        does: 'unfollows them (`not_following` if not followed)',
        example: examples.unfollow,
      },
    })
    .input(followPair)
    .mutation(({ ctx, input }) => unfollow(ctx, ctx.user, input.token, input.otherToken)),
};
