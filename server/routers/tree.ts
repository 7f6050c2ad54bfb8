/**
 * tree: the tree snapshot (the compact form of decision 002) and what changed since a version (decision 023). The
 * snapshot may be a few versions behind the tree; `changes` since its version brings it up to date.
 */
import * as v from 'valibot';
import { tokenSchema } from '#shared/validation/common.ts';
import { getTreeByToken, readChanges } from '../services/tree/index.ts';
import { publicProcedure, router } from '../trpc.ts';

export const treeRouter = router({
  get: publicProcedure
    .input(v.object({ token: tokenSchema }))
    .query(async ({ ctx, input }) => (await ctx.snapshots.get(await getTreeByToken(ctx.db, input.token))).wireAway()),
  changes: publicProcedure
    .input(
      v.object({
        token: tokenSchema,
        since: v.pipe(
          v.number('since must be a tree version.'),
          v.integer('since must be a whole number.'),
          v.minValue(0, 'since must be 0 or more.'),
          v.maxValue(Number.MAX_SAFE_INTEGER),
        ),
      }),
    )
    .query(
      async ({ ctx, input }) =>
        await readChanges(ctx.db, (await getTreeByToken(ctx.db, input.token)).id, input.since, ctx.media.urlOf),
    ),
  /** The growth history for the replay: published pieces in publish order (shared/tree/history.ts). */
  history: publicProcedure
    .input(v.object({ token: tokenSchema }))
    .query(async ({ ctx, input }) => (await ctx.histories.get(await getTreeByToken(ctx.db, input.token))).wire()),
});
