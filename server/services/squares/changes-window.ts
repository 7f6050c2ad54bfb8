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
export async function openChangesWindow(tx: Queryable, now: number, authorId: number, cellId: number): Promise<number> {
  const expiresAt = reservationDeadline(now);
  const holdsAnother = (
    await tx
      .select({ id: reservations.id })
      .from(reservations)
      .where(and(eq(reservations.userId, authorId), eq(reservations.state, 'active'), ne(reservations.cellId, cellId)))
      .limit(1)
  )[0];
  const state: ReservationState = holdsAnother ? 'submitted' : 'active';
  const window = {
    token: newToken(),
    state,
    expiresAt,
    reminderCount: 0,
    extended: false,
    updatedAt: now,
  };
  const reopened = (
    await tx
      .update(reservations)
      .set(window)
      .where(
        and(
          eq(reservations.cellId, cellId),
          eq(reservations.userId, authorId),
          inArray(reservations.state, ['active', 'submitted']),
        ),
      )
      .returning({ id: reservations.id })
  ).length;
  if (reopened === 0) await tx.insert(reservations).values({ ...window, userId: authorId, cellId, createdAt: now });
  return expiresAt;
}
