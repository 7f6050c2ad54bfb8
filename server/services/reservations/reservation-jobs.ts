/**
 * The reservation timers (docs/product.md, Reservations) on ctx.clock: reminders as a deadline nears, and the release
 * of squares whose deadline passed with the piece a draft or awaiting changes. Each step is its own transaction that
 * re-reads what it acts on, so a rerun, a second process or a crash still does every step once.
 */
import { and, asc, eq, gt, lte } from 'drizzle-orm';
import { art, cells, reservations } from '#drizzle/tables.ts';
import { ArtStatus } from '#shared/domain.ts';
import { write } from '../../db.ts';
import type { ServiceContext } from '../context.ts';
import type { Job } from '../jobs.ts';
import { enqueueMail } from '../mail/index.ts';
import { DAY_MS } from '#shared/durations.ts';
import { formatDeadline } from '#shared/time-zone.ts';
import {
  REMINDER_STEPS,
  extensionDeadline,
  latestDueReminder,
  holdersPiece,
  onTheClock,
  clockedReservation,
  fateOfPiece,
  releaseInTx,
  extensionRefusal,
} from '../squares/index.ts';
import { cellPath } from '#shared/paths.ts';
import { extendLinkOf } from '../display/index.ts';

/**
 * Sends the reminder steps that are due: 7, 3 and 1 days before the deadline and on its last day. A step is due when
 * its time has come and the reservation's updated_at is older than it (a reminder or an extension sets updated_at);
 * when several are overdue (the server was down) only the latest is sent. Each sent step raises reminder_count and
 * queues one e-mail keyed by the reservation's token and the reminder's number.
 */
export async function sendReservationReminders(ctx: ServiceContext): Promise<number> {
  const now = ctx.clock.now();
  const zone = ctx.config.siteTimezone;
  const candidates = await ctx.db
    .select({ id: reservations.id })
    .from(reservations)
    .innerJoin(cells, eq(cells.id, reservations.cellId))
    .leftJoin(art, holdersPiece())
    .where(and(gt(reservations.expiresAt, now), lte(reservations.expiresAt, now + 7 * DAY_MS), onTheClock()))
    .orderBy(asc(reservations.id));
  let sent = 0;
  for (const { id } of candidates) {
    const done = await write(ctx.db, async (tx) => {
      const row = await clockedReservation(tx, id);
      const due = row && latestDueReminder(row.expiresAt, now, zone);
      if (!row || !due || row.updatedAt >= due.dueAt) return false;
      const reminderCount = row.reminderCount + 1;
      await tx.update(reservations).set({ reminderCount, updatedAt: now }).where(eq(reservations.id, id));
      const canExtend = extensionRefusal({ ...row, reminderCount }, now) === null;
      await enqueueMail(tx, now, {
        to: row.email,
        kind: 'reservation-reminder',
        dedupeKey: `reservation-reminder:${row.token}:${reminderCount}`,
        subject:
          due.step === REMINDER_STEPS.length - 1
            ? 'Last day for your reserved square'
            : `Your reserved square: ${REMINDER_STEPS[due.step]} left`,
        text: [
          `Hello ${row.firstname},`,
          '',
          `Your square on the Gallery Tree is reserved for you until ${formatDeadline(row.expiresAt, zone)}.`,
          `${row.artStatus === ArtStatus.ChangesRequested ? 'Submit your changes' : 'Upload your piece'} before then; otherwise the square is released to the community and ${fateOfPiece(row.artStatus)}.`,
          '',
          `Your square: ${ctx.config.siteUrl}${cellPath(row.cellToken, 'edit')}`,
          ...(canExtend
            ? [
                '',
                `Need more time? You can extend the reservation once, by a week: until ${formatDeadline(extensionDeadline(row.expiresAt, zone), zone)}.`,
                extendLinkOf(ctx.config.siteUrl, row.cellToken, row.token),
              ]
            : []),
        ].join('\n'),
      });
      return true;
    });
    if (done) sent++;
  }
  return sent;
}

/**
 * Releases every reservation whose deadline has passed while its clock runs (a draft, or a piece still waiting for
 * the changes staff asked for): the reservation becomes 'expired' and releaseInTx frees the square. A draft is
 * discarded silently as the reminders said; the artist of a kept piece is told where it is. A submitted piece is
 * never released.
 */
export async function expireReservations(ctx: ServiceContext): Promise<number> {
  const now = ctx.clock.now();
  const candidates = await ctx.db
    .select({ id: reservations.id })
    .from(reservations)
    .innerJoin(cells, eq(cells.id, reservations.cellId))
    .leftJoin(art, holdersPiece())
    .where(and(lte(reservations.expiresAt, now), onTheClock()))
    .orderBy(asc(reservations.id));
  let released = 0;
  for (const { id } of candidates) {
    const done = await write(ctx.db, async (tx) => {
      const row = await clockedReservation(tx, id);
      if (!row || row.expiresAt > now) return false;
      await releaseInTx(tx, now, ctx.config.siteUrl, row, 'expired');
      if (row.artStatus === ArtStatus.ChangesRequested) {
        await enqueueMail(tx, now, {
          to: row.email,
          kind: 'reservation-expired-kept',
          dedupeKey: `reservation-expired:${row.token}`,
          subject: 'Your square has been released; your piece is kept',
          text: [
            `Hello ${row.firstname},`,
            '',
            'The time to submit the changes our team asked for has run out, so the square you held on the Gallery Tree',
            'is open to the community again. Your piece and its pictures are kept in your atelier: nothing you made is lost.',
            '',
            `Your atelier: ${ctx.config.siteUrl}/profile?tab=atelier`,
            '',
            'You are welcome to reserve a square again whenever you are ready.',
          ].join('\n'),
        });
      }
      return true;
    });
    if (done) released++;
  }
  return released;
}

/** The reservation timers for the job runner of server/app.ts. */
export const RESERVATION_JOBS: readonly Job[] = [
  { name: 'reservation-expiry', everyMs: 60_000, run: expireReservations },
  { name: 'reservation-reminders', everyMs: 5 * 60_000, run: sendReservationReminders },
];
