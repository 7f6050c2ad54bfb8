/** tree: the tree snapshot (compact form of DESIGN.md §6). */
import * as v from 'valibot';
import { tokenSchema } from '#shared/validation/common.ts';
import { getTreeByToken } from '../services/tree.ts';
import { publicProcedure, router } from '../trpc.ts';

export const treeRouter = router({
  get: publicProcedure
    .input(v.object({ token: tokenSchema }))
    .query(({ ctx, input }) => ctx.snapshots.get(getTreeByToken(ctx.db, input.token)).wire),
});
