/**
 * Reservations for staff: those whose clock runs (a draft's hold, or a piece sent back for changes, decision 019), and
 * releasing one through the expiry's own release path (docs/product.md, Reservations, Expiry); the holder is told.
 */
import { asc, eq } from 'drizzle-orm';
import { art, cells, reservations, trees, users } from '#drizzle/tables.ts';
import { StaffAction, type AdminOk, type AdminReservation } from '#shared/admin-api.ts';
import { ErrorCode } from '#shared/errors.ts';
import { AppError } from '../../errors.ts';
import type { Viewer } from '../../permissions.ts';
import type { ServiceContext } from '../context.ts';
import { enqueueMail } from '../mail/index.ts';
import { clockedReservation, fateOfPiece, holdersPiece, onTheClock, releaseInTx } from '../squares/index.ts';
import { treeLinkOf, personRef } from '../display/index.ts';
import { recordStaffAction, requireStaff } from '../staff/index.ts';
import { write } from '../../db.ts';

/** admin.reservations: every reservation whose clock runs, the nearest deadline first. */
export async function listActiveReservations(ctx: ServiceContext): Promise<AdminReservation[]> {
  return (
    await ctx.db
      .select({
        id: reservations.id,
        createdAt: reservations.createdAt,
        expiresAt: reservations.expiresAt,
        extended: reservations.extended,
        artStatus: art.status,
        cell: { token: cells.token, treeToken: trees.token, row: cells.row, column: cells.column, type: cells.type },
        user: { token: users.token, firstname: users.firstname, lastname: users.lastname, email: users.email },
      })
      .from(reservations)
      .innerJoin(cells, eq(cells.id, reservations.cellId))
      .innerJoin(trees, eq(trees.id, cells.treeId))
      .innerJoin(users, eq(users.id, reservations.userId))
      .leftJoin(art, holdersPiece())
      .where(onTheClock())
      .orderBy(asc(reservations.expiresAt), asc(reservations.id))
  ).map(({ user, ...row }) => ({ ...row, user: { ...personRef(user), email: user.email } }));
}

/** admin.releaseReservation: a reservation whose clock runs ends now; a draft is discarded, a piece sent back kept. */
export async function releaseReservationByStaff(
  ctx: ServiceContext,
  viewer: Viewer,
  reservationId: number,
): Promise<AdminOk> {
  const staff = requireStaff(viewer);
  const now = ctx.clock.now();
  return write(ctx.db, async (tx) => {
    const row = await clockedReservation(tx, reservationId);
    if (!row) throw new AppError(ErrorCode.ReservationNotFound, 'No active reservation has this id.');
    await releaseInTx(tx, now, ctx.config.siteUrl, row, 'released');
    const actionId = await recordStaffAction(tx, staff, now, {
      action: StaffAction.ReleaseReservation,
      subjectType: 'reservation',
      subjectToken: row.cellToken,
    });
    await enqueueMail(tx, now, {
      to: row.email,
      kind: 'reservation-released',
      dedupeKey: `staff-action:${actionId}`,
      subject: 'Your reserved square has been released',
      text: [
        `Hello ${row.firstname},`,
        '',
        `Our team has released the square you had reserved on the Gallery Tree, and ${fateOfPiece(row.artStatus)}.`,
        'It is open to the community again; if it is still free you are welcome to reserve it once more:',
        '',
        treeLinkOf(ctx.config.siteUrl, row.cellToken),
      ].join('\n'),
    });
    return { ok: true };
  });
}
