/** cell: one square of the tree. */
import * as v from 'valibot';
import { tokenSchema } from '#shared/validation/common.ts';
import { searchSchema } from '#shared/validation/search.ts';
import { getCellSummary, listViewerCells } from '../services/tree/index.ts';
import { searchForVisitor } from '../services/search/index.ts';
import * as examples from './examples/cell.ts';
import { publicProcedure, router, userProcedure } from '../trpc.ts';
import { cellReservationProcedures } from './reservations.ts';

export const cellRouter = router({
  get: publicProcedure
    .input(v.object({ token: tokenSchema }))
    .query(({ ctx, input }) => getCellSummary(ctx.db, input.token)),
  /** Published pieces matching a term, for the search popup; limited per IP. */
  search: publicProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/cells/search',
        who: 'everyone',
        does: 'the cells of the published pieces matching `?search=` (3 to 100 characters), each with its piece; rate-limited',
        shape: 'searchCells',
        example: examples.search,
      },
    })
    .input(searchSchema)
    .query(({ ctx, input }) => searchForVisitor(ctx, ctx.ip, input.search)),
  /** The viewer's own squares: their reservation and their pieces (find-my-slots). */
  mine: userProcedure.query(({ ctx }) => listViewerCells(ctx.db, ctx.user.id)),
  /** reserve, reserveBranch, reservation, extendReservation, subscribe, subscribeAny. */
  ...cellReservationProcedures,
});
