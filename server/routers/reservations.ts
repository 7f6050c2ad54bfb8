/**
 * The reservation procedures (docs/api.md: reserve, branch, reservation, subscribe), mounted into the cell and user
 * routers. Thin: the schema validates, userProcedure and the services ask server/permissions.ts, the services hold the
 * rules.
 */
import * as v from 'valibot';
import { ErrorCode } from '#shared/errors.ts';
import { tokenSchema } from '#shared/validation/common.ts';
import { reminderSchema, reserveBranchSchema, reserveCellSchema } from '#shared/validation/reservation.ts';
import { AppError } from '../errors.ts';
import { mayReadReservationOf } from '../permissions.ts';
import {
  extendReservation,
  getMyReservation,
  getReservation,
  reserveBranchSlot,
  reserveCell,
} from '../services/reservations/index.ts';
import { subscribe } from '../services/squares/index.ts';
import { userProcedure } from '../trpc.ts';
import * as cellExamples from './examples/cell.ts';
import * as userExamples from './examples/user.ts';

/** cell.*: reserve a square or a branch slot, read and extend a reservation, subscribe to availability. */
export const cellReservationProcedures = {
  reserve: userProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/cell/:cellToken/reserve',
        who: 'signed-in',
        does: 'reserves an AVAILABLE square (one at a time)',
        params: { cellToken: 'token' },
        shape: 'reservation',
        example: cellExamples.reserve,
      },
    })
    .input(reserveCellSchema)
    .mutation(({ ctx, input }) => reserveCell(ctx, ctx.user, input.token)),

  /** Creates the branch square at (row, column) and reserves it; answers the new square with its token. */
  reserveBranch: userProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/branch/reserve',
        who: 'signed-in',
        does: 'creates and reserves a branch square at `{row, column}`; answers its token',
        shape: 'reservation',
        example: cellExamples.reserveBranch,
      },
    })
    .input(reserveBranchSchema)
    .mutation(({ ctx, input }) => reserveBranchSlot(ctx, ctx.user, input)),

  reservation: userProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/cell/:cellToken/reserve/:reserveId',
        who: 'owner or admin',
        does: 'the reservation named by its reminder token, for the extend page',
        params: { reserveId: 'reminderToken' },
        shape: 'reservation',
        example: cellExamples.reservation,
      },
    })
    .input(reminderSchema)
    .query(({ ctx, input }) => getReservation(ctx, ctx.user, input.cellToken, input.reminderToken)),

  extendReservation: userProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/cell/:cellToken/reserve/:reserveId',
        who: 'owner or admin',
        does: 'extends it once, by 7 days',
        params: { reserveId: 'reminderToken' },
        shape: 'reservation',
        example: cellExamples.extendReservation,
      },
    })
    .input(reminderSchema)
    .mutation(({ ctx, input }) => extendReservation(ctx, ctx.user, input.cellToken, input.reminderToken)),

  subscribe: userProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/cell/:cellToken/subscribe/available',
        who: 'signed-in',
        does: 'e-mail me when this square becomes available',
        params: { cellToken: 'token' },
        example: cellExamples.subscribe,
      },
    })
    .input(v.object({ token: tokenSchema }))
    .mutation(({ ctx, input }) => subscribe(ctx, ctx.user, input.token)),

  subscribeAny: userProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/cell/subscribe/available',
        who: 'signed-in',
        does: 'e-mail me when any square becomes available',
        example: cellExamples.subscribeAny,
      },
    })
    .mutation(({ ctx }) => subscribe(ctx, ctx.user, null)),
};

/** user.*: the viewer's held square. A token, when given (the REST path names one), must be the viewer's own. */
export const userReservationProcedures = {
  reservedCell: userProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/user/:token/reserve',
        who: 'owner',
        does: 'the square the account holds, or null',
        shape: 'heldReservation',
        example: userExamples.reservedCell,
      },
    })
    .input(v.optional(v.object({ token: v.optional(tokenSchema) })))
    .query(async ({ ctx, input }) => {
      if (input?.token !== undefined && !mayReadReservationOf(ctx.user, input.token)) {
        throw new AppError(ErrorCode.Forbidden, 'You can only see your own reserved square.');
      }
      return await getMyReservation(ctx, ctx.user);
    }),
};
