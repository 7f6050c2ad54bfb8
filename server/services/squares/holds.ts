/**
 * Who holds a square, and whether the hold's clock runs: the conditions the reservation timers, a staff release and
 * the subscriptions (a member holding a square is not told of others) read alike.
 */
import { and, inArray, or, eq, isNull, type SQLWrapper } from 'drizzle-orm';
import { reservations, art, cells, users } from '#drizzle/tables.ts';
import { ART_IN_PROGRESS, ArtStatus } from '#shared/domain.ts';
import type { Queryable } from '../../db.ts';

/**
 * The reservations whose clock runs: an active hold whose piece is a draft (or none at all) or was sent back for
 * changes, and a piece sent back for changes whose reservation stayed 'submitted' because its artist held another
 * square meanwhile (decision 019). A submitted piece waits for review; a published one is no longer held. Made for
 * each query, as every condition on the tables (drizzle/tables.ts): one made at import would keep SQLite's.
 */
export const onTheClock = () =>
  and(
    // Up front, so the (state, expires_at) index narrows the rows before the piece is looked at.
    inArray(reservations.state, ['active', 'submitted']),
    or(
      and(eq(reservations.state, 'active'), or(isNull(art.id), inArray(art.status, ART_IN_PROGRESS))),
      and(eq(reservations.state, 'submitted'), eq(art.status, ArtStatus.ChangesRequested)),
    ),
  );

/** The piece on a reservation's square, when it is the holder's. */
export const holdersPiece = () => and(eq(art.id, cells.artId), eq(art.authorId, reservations.userId));

/** A reservation by id, with what the timers and a release need, while its clock runs; else undefined. */
export async function clockedReservation(q: Queryable, id: number) {
  return (
    await q
      .select({
        id: reservations.id,
        token: reservations.token,
        cellId: reservations.cellId,
        treeId: cells.treeId,
        cellToken: cells.token,
        artId: art.id,
        artStatus: art.status,
        state: reservations.state,
        expiresAt: reservations.expiresAt,
        reminderCount: reservations.reminderCount,
        updatedAt: reservations.updatedAt,
        extended: reservations.extended,
        email: users.email,
        firstname: users.firstname,
      })
      .from(reservations)
      .innerJoin(cells, eq(cells.id, reservations.cellId))
      .innerJoin(users, eq(users.id, reservations.userId))
      .leftJoin(art, holdersPiece())
      .where(and(eq(reservations.id, id), onTheClock()))
      .limit(1)
  )[0];
}

/** The member's current hold (a draft not yet submitted): while it exists, they may not reserve another square. */
export const isActiveReservationOf = (userId: number | SQLWrapper) =>
  and(eq(reservations.userId, userId), eq(reservations.state, 'active'));
