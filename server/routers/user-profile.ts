/**
 * user.* profile procedures, for the public and manage-profile pages (docs/api.md): the public profile, the profile
 * form's data and its update (the avatar comes through the multipart REST route, which calls the same service), the
 * ATELIER list and the published-art cards.
 */
import * as v from 'valibot';
import { tokenSchema } from '#shared/validation/common.ts';
import { profileSchema } from '#shared/validation/profile.ts';
import { getFullProfile, getPublicProfile, updateProfile } from '../services/accounts/index.ts';
import { listAtelier, listPublishedArt } from '../services/art/index.ts';
import { publicProcedure, userProcedure } from '../trpc.ts';
import * as examples from './examples/user.ts';

const byToken = v.object({ token: tokenSchema });

export const userProfileProcedures = {
  /** Anyone: the public profile (never the e-mail unless show_email). */
  profile: publicProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/user/:token/profile',
        who: 'everyone',
        does: 'the public profile (the e-mail only with show_email)',
        example: examples.profile,
      },
    })
    .input(byToken)
    .query(({ ctx, input }) => getPublicProfile(ctx, input.token)),
  /** The owner (or an admin): every field of the profile form. */
  fullProfile: userProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/user/:token/fullprofile',
        who: 'owner or admin',
        does: 'every field of the profile form',
        example: examples.fullProfile,
      },
    })
    .input(byToken)
    .query(({ ctx, input }) => getFullProfile(ctx, ctx.user, input.token)),
  /** The owner: the profile form without the avatar (POST /api/user/{token}/profile carries the avatar). */
  updateProfile: userProcedure
    .input(v.intersect([byToken, profileSchema]))
    .mutation(({ ctx, input }) => updateProfile(ctx, ctx.user, input.token, input, null)),
  /** The owner (or an admin): ATELIER, the user's squares with a piece, drafts and submitted ones included. */
  art: userProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/user/:token/art',
        who: 'owner or admin',
        does: "ATELIER: the account's squares with a piece, drafts included",
        shape: 'atelierCells',
        example: examples.art,
      },
    })
    .input(byToken)
    .query(({ ctx, input }) => listAtelier(ctx, ctx.user, input.token)),
  /** Anyone: the ART cards of the public profile. */
  publishedArt: publicProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/user/:token/art/published',
        who: 'everyone',
        does: "the public profile's ART cards",
        shape: 'publishedCells',
        example: examples.publishedArt,
      },
    })
    .input(byToken)
    .query(({ ctx, input }) => listPublishedArt(ctx, input.token)),
};
