/** cell: one square of the tree. */
import * as v from 'valibot';
import { tokenSchema } from '#shared/validation/common.ts';
import { getCellSummary } from '../services/cells.ts';
import { publicProcedure, router } from '../trpc.ts';

export const cellRouter = router({
  get: publicProcedure.input(v.object({ token: tokenSchema })).query(({ ctx, input }) => getCellSummary(ctx.db, input.token)),
});
