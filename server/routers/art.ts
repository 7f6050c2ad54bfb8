/**
 * art: a square's piece. The editor's data, the details page, connections, likes and views. Saving the
 * piece itself is multipart (images), so it lives at POST /api/cell/{cellToken} (server/rest/art-routes.ts), which
 * calls the same service.
 */
import * as v from 'valibot';
import { tokenSchema } from '#shared/validation/common.ts';
import { connectionsSchema, removalRequestSchema } from '#shared/validation/art.ts';
import {
  getArtDetails,
  getArtForEdit,
  getActiveConnections,
  listPossibleConnections,
  saveConnections,
  requestRemoval,
} from '../services/art/index.ts';
import { getArtLikeStatus, likeArt, registerArtView, unlikeArt } from '../services/social/index.ts';
import * as examples from './examples/art.ts';
import { publicProcedure, router, userProcedure } from '../trpc.ts';

const byCell = v.object({ cellToken: tokenSchema });
const byArt = v.object({ artToken: tokenSchema });

export const artRouter = router({
  /** The wizard's data; mayEdit false (docs/product.md, Who may do what) sends the viewer to /forbidden. */
  forEdit: userProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/cell/:cellToken/art/edit',
        who: 'signed-in',
        does: "the wizard's data; `may_edit: false` sends the viewer to /forbidden",
        example: examples.forEdit,
      },
    })
    .input(byCell)
    .query(({ ctx, input }) => getArtForEdit(ctx, ctx.user, input.cellToken)),
  /** The details page: public for published art; the author and admins also see it under review. */
  details: publicProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/cell/:cellToken/art',
        who: 'everyone',
        does: "the details page's piece (published; the author and admins also see it under review)",
        example: examples.details,
      },
    })
    .input(byCell)
    .query(({ ctx, input }) => getArtDetails(ctx, ctx.user, input.cellToken)),
  /** Every possible connection for the edit form (only those who may edit). */
  connections: userProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/cell/:cellToken/connections',
        who: 'owner or admin',
        does: 'every possible connection, for the edit form',
        example: examples.connections,
      },
    })
    .input(byCell)
    .query(({ ctx, input }) => listPossibleConnections(ctx, ctx.user, input.cellToken)),
  /** The saved connections shown on details. */
  activeConnections: publicProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/cell/:cellToken/connections/active',
        who: 'everyone',
        does: 'the saved connections, for the details page',
        example: examples.activeConnections,
      },
    })
    .input(byCell)
    .query(({ ctx, input }) => getActiveConnections(ctx, ctx.user, input.cellToken)),
  saveConnections: userProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/cell/:cellToken/connections',
        who: 'owner or admin',
        does: 'saves the chosen connections',
        example: examples.saveConnections,
      },
    })
    .input(v.object({ cellToken: tokenSchema, ...connectionsSchema.entries }))
    .mutation(({ ctx, input }) => saveConnections(ctx, ctx.user, input.cellToken, input)),
  likeStatus: userProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/art/:artToken/like',
        who: 'signed-in',
        does: 'whether I like the piece, and its like count',
        example: examples.likeStatus,
      },
    })
    .input(byArt)
    .query(({ ctx, input }) => getArtLikeStatus(ctx, ctx.user, input.artToken)),
  like: userProcedure
    .meta({
      rest: {
        method: 'PUT',
        path: '/api/art/:artToken/like',
        who: 'signed-in, not the author',
        does: 'likes it',
        example: examples.like,
      },
    })
    .input(byArt)
    .mutation(({ ctx, input }) => likeArt(ctx, ctx.user, input.artToken)),
  unlike: userProcedure
    .meta({
      rest: {
        method: 'DELETE',
        path: '/api/art/:artToken/like',
        who: 'signed-in, not the author',
        does: 'unlikes it',
        example: examples.unlike,
      },
    })
    .input(byArt)
    .mutation(({ ctx, input }) => unlikeArt(ctx, ctx.user, input.artToken)),
  /** The author asks staff to take the piece down (from the details page). */
  requestRemoval: userProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/cell/:cellToken/removal',
        who: 'owner',
        does: 'the author asks staff to take the piece down',
        example: examples.requestRemoval,
      },
    })
    .input(v.object({ cellToken: tokenSchema, ...removalRequestSchema.entries }))
    .mutation(({ ctx, input }) => requestRemoval(ctx, ctx.user, input.cellToken, input.reason)),
  /** Registers a view (once per viewer per day) and answers the count. */
  view: publicProcedure
    .meta({
      rest: {
        method: 'PUT',
        path: '/api/art/:artToken/review',
        who: 'everyone',
        does: 'counts a view (once per viewer per day)',
        example: examples.view,
      },
    })
    .input(byArt)
    .mutation(({ ctx, input }) => registerArtView(ctx, ctx.user, input.artToken, { ip: ctx.ip })),
});
