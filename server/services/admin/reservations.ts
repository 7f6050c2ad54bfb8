/**
 * Reservations for staff (issue 8): the active ones with their square, holder and deadline, and releasing one
 * through the reservation timers' own release path (the square AVAILABLE again, the tree's version moved, the
 * square's subscribers told); the holder hears of it.
 */
import { asc, eq } from 'drizzle-orm';
import { cells, reservations, trees, users } from '#drizzle/schema.ts';
import { StaffAction, type AdminOk, type AdminReservation } from '#shared/admin-api.ts';
import { ErrorCode } from '#shared/errors.ts';
import { AppError } from '../../errors.ts';
import type { Viewer } from '../../permissions.ts';
import type { ServiceContext } from '../context.ts';
import { enqueueMail } from '../mail.ts';
import { activeDraftReservation, releaseInTx } from '../reservation-jobs.ts';
import { IMMEDIATE } from '../reservations.ts';
import { treeLinkOf } from '../subscriptions.ts';
import { personRef, recordStaffAction, requireStaff } from './staff-log.ts';

/** admin.reservations: every active reservation, the nearest deadline first. */
export function listActiveReservations(ctx: ServiceContext): AdminReservation[] {
  return ctx.db
    .select({
      id: reservations.id,
      createdAt: reservations.createdAt,
      expiresAt: reservations.expiresAt,
      extended: reservations.extended,
      cell: { token: cells.token, treeToken: trees.token, row: cells.row, column: cells.column, type: cells.type },
      user: { token: users.token, firstname: users.firstname, lastname: users.lastname, email: users.email },
    })
    .from(reservations)
    .innerJoin(cells, eq(cells.id, reservations.cellId))
    .innerJoin(trees, eq(trees.id, cells.treeId))
    .innerJoin(users, eq(users.id, reservations.userId))
    .where(eq(reservations.state, 'active'))
    .orderBy(asc(reservations.expiresAt), asc(reservations.id))
    .all()
    .map(({ user, ...row }) => ({ ...row, user: { ...personRef(user), email: user.email } }));
}

/** admin.releaseReservation: an active reservation (its piece still a draft) ends now; its draft is discarded. */
export function releaseReservationByStaff(ctx: ServiceContext, viewer: Viewer, reservationId: number): AdminOk {
  const staff = requireStaff(viewer);
  const now = ctx.clock.now();
  return ctx.db.transaction((tx) => {
    const row = activeDraftReservation(tx, reservationId);
    if (!row) throw new AppError(ErrorCode.ReservationNotFound, 'No active reservation has this id.');
    releaseInTx(tx, now, ctx.config.siteUrl, row, 'released');
    const actionId = recordStaffAction(tx, staff, now, { action: StaffAction.ReleaseReservation, subjectType: 'reservation', subjectToken: row.cellToken });
    enqueueMail(tx, now, {
      to: row.email,
      kind: 'reservation-released',
      dedupeKey: `staff-action:${actionId}`,
      subject: 'Your reserved square has been released',
      text: [
        `Hello ${row.firstname},`,
        '',
        'Our team has released the square you had reserved on the Gallery Tree, and its draft has been discarded.',
        'It is open to the community again; if it is still free you are welcome to reserve it once more:',
        '',
        treeLinkOf(ctx.config.siteUrl, row.cellToken),
      ].join('\n'),
    });
    return { ok: true };
  }, IMMEDIATE);
}
