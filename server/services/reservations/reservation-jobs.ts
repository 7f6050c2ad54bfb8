/**
 * The reservation timers (docs/product.md, Reservations) on ctx.clock: reminders as a deadline nears, and the release
 * of squares whose deadline passed with the piece a draft or awaiting changes. Each step is its own transaction that
 * re-reads what it acts on, so a rerun, a second process or a crash still does every step once.
 */
import { and, asc, eq, gt, inArray, isNull, lte, or } from 'drizzle-orm';
import { art, cells, pictures, reservations, users } from '#drizzle/schema.ts';
import { ART_IN_PROGRESS, ArtStatus, CellStatus } from '#shared/domain.ts';
import { IMMEDIATE, type Queryable } from '../../db.ts';
import { keepPieceInTx } from '../review/changes-window.ts';
import type { ServiceContext } from '../context.ts';
import type { Job } from '../jobs.ts';
import { enqueueMail } from '../mail/mail.ts';
import { formatDeadline } from '#shared/time-zone.ts';
import { DAY_MS, REMINDER_STEPS, extensionDeadline, latestDueReminder } from './reservation-time.ts';
import { extensionRefusal } from './reservations.ts';
import { notifyAvailable } from './subscriptions.ts';
import { recordCellChanges } from '../tree/tree-changes.ts';
import { cellPath, extendPath } from '#shared/paths.ts';

/** The extend page's link (docs/product.md, Screens and routes), in each reminder that may still lead to extending. */
export function extendLinkOf(siteUrl: string, cellToken: string, reminderToken: string): string {
  return siteUrl + extendPath(cellToken, reminderToken);
}

/**
 * The reservations whose clock runs: an active hold whose piece is a draft (or none at all) or was sent back for
 * changes, and a piece sent back for changes whose reservation stayed 'submitted' because its artist held another
 * square meanwhile (decision 019). A submitted piece waits for review; a published one is no longer held.
 */
export const onTheClock = and(
  // Up front, so the (state, expires_at) index narrows the rows before the piece is looked at.
  inArray(reservations.state, ['active', 'submitted']),
  or(
    and(eq(reservations.state, 'active'), or(isNull(art.id), inArray(art.status, ART_IN_PROGRESS))),
    and(eq(reservations.state, 'submitted'), eq(art.status, ArtStatus.ChangesRequested)),
  ),
);

/** The piece on a reservation's square, when it is the holder's. */
export const holdersPiece = and(eq(art.id, cells.artId), eq(art.authorId, reservations.userId));

/** A reservation by id, with what the timers and a release need, while its clock runs; else undefined. */
export function clockedReservation(q: Queryable, id: number) {
  return q
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
    .leftJoin(art, holdersPiece)
    .where(and(eq(reservations.id, id), onTheClock))
    .get();
}

/** What the holder is told becomes of the piece when the square is released. */
export function fateOfPiece(artStatus: number | null): string {
  return artStatus === ArtStatus.ChangesRequested ? 'your piece stays in your atelier' : 'your draft is discarded';
}

/**
 * Sends the reminder steps that are due: 7, 3 and 1 days before the deadline and on its last day. A step is due when
 * its time has come and the reservation's updated_at is older than it (a reminder or an extension sets updated_at);
 * when several are overdue (the server was down) only the latest is sent. Each sent step raises reminder_count and
 * queues one e-mail keyed by the reservation's token and the reminder's number.
 */
export function sendReservationReminders(ctx: ServiceContext): number {
  const now = ctx.clock.now();
  const zone = ctx.config.siteTimezone;
  const candidates = ctx.db
    .select({ id: reservations.id })
    .from(reservations)
    .innerJoin(cells, eq(cells.id, reservations.cellId))
    .leftJoin(art, holdersPiece)
    .where(and(gt(reservations.expiresAt, now), lte(reservations.expiresAt, now + 7 * DAY_MS), onTheClock))
    .orderBy(asc(reservations.id))
    .all();
  let sent = 0;
  for (const { id } of candidates) {
    const done = ctx.db.transaction((tx) => {
      const row = clockedReservation(tx, id);
      const due = row && latestDueReminder(row.expiresAt, now, zone);
      if (!row || !due || row.updatedAt >= due.dueAt) return false;
      const reminderCount = row.reminderCount + 1;
      tx.update(reservations).set({ reminderCount, updatedAt: now }).where(eq(reservations.id, id)).run();
      const canExtend = extensionRefusal({ ...row, reminderCount }, now) === null;
      enqueueMail(tx, now, {
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
    }, IMMEDIATE);
    if (done) sent++;
  }
  return sent;
}

/**
 * The release path, the one place that decides what becomes of the piece, inside the caller's transaction: the
 * reservation ends in `state`; a draft and its picture rows are deleted (their files are left to the media orphan
 * sweep), while a piece sent back for changes is kept, REMOVED and off the square (decision 019); the square is
 * AVAILABLE again with no art, the tree's version moves and the square's subscribers are told.
 */
export function releaseInTx(
  tx: Queryable,
  now: number,
  siteUrl: string,
  row: { id: number; cellId: number; treeId: number; artId: number | null; artStatus: number | null },
  state: 'expired' | 'released',
): void {
  tx.update(reservations).set({ state, updatedAt: now }).where(eq(reservations.id, row.id)).run();
  if (row.artId !== null && row.artStatus === ArtStatus.ChangesRequested) {
    keepPieceInTx(tx, now, row.artId, row.cellId);
  } else if (row.artId !== null) {
    tx.delete(pictures).where(eq(pictures.artId, row.artId)).run();
    tx.delete(art).where(eq(art.id, row.artId)).run();
  }
  tx.update(cells)
    .set({ status: CellStatus.Available, artId: null, updatedAt: now })
    .where(eq(cells.id, row.cellId))
    .run();
  recordCellChanges(tx, row.treeId, [row.cellId], now);
  notifyAvailable(tx, now, [row.cellId], siteUrl);
}

/**
 * Releases every reservation whose deadline has passed while its clock runs (a draft, or a piece still waiting for
 * the changes staff asked for): the reservation becomes 'expired' and releaseInTx frees the square. A draft is
 * discarded silently as the reminders said; the artist of a kept piece is told where it is. A submitted piece is
 * never released.
 */
export function expireReservations(ctx: ServiceContext): number {
  const now = ctx.clock.now();
  const candidates = ctx.db
    .select({ id: reservations.id })
    .from(reservations)
    .innerJoin(cells, eq(cells.id, reservations.cellId))
    .leftJoin(art, holdersPiece)
    .where(and(lte(reservations.expiresAt, now), onTheClock))
    .orderBy(asc(reservations.id))
    .all();
  let released = 0;
  for (const { id } of candidates) {
    const done = ctx.db.transaction((tx) => {
      const row = clockedReservation(tx, id);
      if (!row || row.expiresAt > now) return false;
      releaseInTx(tx, now, ctx.config.siteUrl, row, 'expired');
      if (row.artStatus === ArtStatus.ChangesRequested) {
        enqueueMail(tx, now, {
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
    }, IMMEDIATE);
    if (done) released++;
  }
  return released;
}

/** The reservation timers for the job runner of server/app.ts. */
export const RESERVATION_JOBS: readonly Job[] = [
  { name: 'reservation-expiry', everyMs: 60_000, run: expireReservations },
  { name: 'reservation-reminders', everyMs: 5 * 60_000, run: sendReservationReminders },
];
