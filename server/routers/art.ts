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
import { publicProcedure, router, userProcedure } from '../trpc.ts';

const byCell = v.object({ cellToken: tokenSchema });
const byArt = v.object({ artToken: tokenSchema });

export const artRouter = router({
  /** The wizard's data; mayEdit false (docs/product.md, Who may do what) sends the viewer to /forbidden. */
  forEdit: userProcedure.input(byCell).query(({ ctx, input }) => getArtForEdit(ctx, ctx.user, input.cellToken)),
  /** The details page: public for published art; the author and admins also see it under review. */
  details: publicProcedure.input(byCell).query(({ ctx, input }) => getArtDetails(ctx, ctx.user, input.cellToken)),
  /** Every possible connection for the edit form (only those who may edit). */
  connections: userProcedure
    .input(byCell)
    .query(({ ctx, input }) => listPossibleConnections(ctx, ctx.user, input.cellToken)),
  /** The saved connections shown on details. */
  activeConnections: publicProcedure
    .input(byCell)
    .query(({ ctx, input }) => getActiveConnections(ctx, ctx.user, input.cellToken)),
  saveConnections: userProcedure
    .input(v.object({ cellToken: tokenSchema, ...connectionsSchema.entries }))
    .mutation(({ ctx, input }) => saveConnections(ctx, ctx.user, input.cellToken, input)),
  likeStatus: userProcedure.input(byArt).query(({ ctx, input }) => getArtLikeStatus(ctx, ctx.user, input.artToken)),
  like: userProcedure.input(byArt).mutation(({ ctx, input }) => likeArt(ctx, ctx.user, input.artToken)),
  unlike: userProcedure.input(byArt).mutation(({ ctx, input }) => unlikeArt(ctx, ctx.user, input.artToken)),
  /** The author asks staff to take the piece down (from the details page). */
  requestRemoval: userProcedure
    .input(v.object({ cellToken: tokenSchema, ...removalRequestSchema.entries }))
    .mutation(({ ctx, input }) => requestRemoval(ctx, ctx.user, input.cellToken, input.reason)),
  /** Registers a view (once per viewer per day) and answers the count. */
  view: publicProcedure
    .input(byArt)
    .mutation(({ ctx, input }) => registerArtView(ctx, ctx.user, input.artToken, { ip: ctx.ip })),
});
