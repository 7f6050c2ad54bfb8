/**
 * The window a piece sent back for changes gets (decision 019): staff's request puts the square's reservation on the
 * clock again, with a fresh deadline, reminders and extension; when that window runs out the square is released but
 * the artist's work is kept, REMOVED and detached from the square, in their atelier.
 */
import { and, eq, inArray, ne } from 'drizzle-orm';
import { reservations } from '#drizzle/tables.ts';
import type { ReservationState } from '#shared/domain.ts';
import type { Queryable } from '../../db.ts';
import { newToken } from '../../tokens.ts';
import { reservationDeadline } from './reservation-time.ts';

/**
 * Inside the request-changes transaction: the square's reservation starts a fresh window of the normal length from
 * `now`, with a new reminder token (the dedupe keys and extend links of the first window stay behind), no reminders
 * sent and the one extension unused. It is 'active' again, unless the artist holds another square meanwhile (one
 * active reservation a member): then it stays 'submitted' and its window runs all the same. A piece without a
 * reservation row (seeded data) gets one. Answers the new deadline.
 */
export function openChangesWindow(tx: Queryable, now: number, authorId: number, cellId: number): number {
  const expiresAt = reservationDeadline(now);
  const holdsAnother = tx
    .select({ id: reservations.id })
    .from(reservations)
    .where(and(eq(reservations.userId, authorId), eq(reservations.state, 'active'), ne(reservations.cellId, cellId)))
    .get();
  const state: ReservationState = holdsAnother ? 'submitted' : 'active';
  const window = {
    token: newToken(),
    state,
    expiresAt,
    reminderCount: 0,
    extended: false,
    updatedAt: now,
  };
  const reopened = tx
    .update(reservations)
    .set(window)
    .where(
      and(
        eq(reservations.cellId, cellId),
        eq(reservations.userId, authorId),
        inArray(reservations.state, ['active', 'submitted']),
      ),
    )
    .run().changes;
  if (reopened === 0)
    tx.insert(reservations)
      .values({ ...window, userId: authorId, cellId, createdAt: now })
      .run();
  return expiresAt;
}
