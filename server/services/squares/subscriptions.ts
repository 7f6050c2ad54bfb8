/**
 * Availability subscriptions (docs/product.md, Reservations): "tell me when this square, or any square, becomes
 * available". notifyAvailable runs inside the transaction that opened the squares (growth after a publish, an expiry, a
 * removal), so the e-mails exist exactly when the change does; each subscription is used up once told.
 */
import { and, asc, eq, inArray, isNull, notExists, sql } from 'drizzle-orm';
import { cells, reservations, subscriptions, users } from '#drizzle/tables.ts';
import type { Subscription } from '#shared/api-types.ts';
import { CellStatus } from '#shared/domain.ts';
import { ErrorCode } from '#shared/errors.ts';
import { write, type Queryable } from '../../db.ts';
import { AppError } from '../../errors.ts';
import { maySubscribe, type Viewer } from '../../permissions.ts';
import type { ServiceContext } from '../context.ts';
import { enqueueMail } from '../mail/index.ts';
import { isActiveReservationOf } from './holds.ts';
import { ERROR_TEXT } from '#shared/error-text.ts';
import { treeLinkOf, slotLinkOf } from '../display/index.ts';

/**
 * Subscribes the user to one square (cellToken) or to any square (null). One open subscription a user and square
 * (and one open "any"); a square that is AVAILABLE now is refused (already_available): it can be reserved instead.
 */
export async function subscribe(ctx: ServiceContext, user: Viewer, cellToken: string | null): Promise<Subscription> {
  if (!maySubscribe(user))
    throw new AppError(ErrorCode.Unauthenticated, 'Log in to be told when a square becomes available.');
  const now = ctx.clock.now();
  return write(ctx.db, async (tx) => {
    let cellId: number | null = null;
    if (cellToken !== null) {
      const cell = (
        await tx.select({ id: cells.id, status: cells.status }).from(cells).where(eq(cells.token, cellToken))
      )[0];
      if (!cell) throw new AppError(ErrorCode.CellNotFound, 'No cell has this token.');
      if (cell.status === CellStatus.Available) {
        throw new AppError(ErrorCode.AlreadyAvailable, ERROR_TEXT.already_available);
      }
      cellId = cell.id;
    }
    const open = (
      await tx
        .select({ id: subscriptions.id })
        .from(subscriptions)
        .where(
          and(
            eq(subscriptions.userId, user.id),
            cellId === null ? isNull(subscriptions.cellId) : eq(subscriptions.cellId, cellId),
            isNull(subscriptions.notifiedAt),
          ),
        )
        .limit(1)
    )[0];
    if (open) {
      throw new AppError(
        ErrorCode.AlreadySubscribed,
        cellId === null
          ? 'You will already be told when any square becomes available.'
          : 'You will already be told when this square becomes available.',
      );
    }
    await tx.insert(subscriptions).values({ userId: user.id, cellId, createdAt: now });
    return { cellToken, createdAt: now };
  });
}

interface Recipient {
  email: string;
  firstname: string;
  disabled: boolean;
  subscriptionIds: number[];
  links: string[];
}

/**
 * Tells the subscribers of squares that have just become AVAILABLE, inside the caller's transaction: everyone with an
 * open subscription to one of them, and everyone with an open "any" subscription (told of the first). New branch
 * slots a publish opened (`slots`, positions without a cell yet) count for "any" subscriptions too. One e-mail a
 * person per call, whatever number of their subscriptions it uses up; the dedupe key is a used-up subscription's id,
 * so a retried call queues nothing twice. Squares not AVAILABLE any more are skipped. A member who holds a square now
 * is left out, subscriptions untouched: they could not reserve another, and their alert waits for a time they can.
 * Returns the e-mails queued.
 */
export async function notifyAvailable(
  tx: Queryable,
  now: number,
  cellIds: readonly number[],
  siteUrl: string,
  slots: readonly { row: number; column: number }[] = [],
): Promise<number> {
  const opened =
    cellIds.length === 0
      ? []
      : await tx
          .select({ id: cells.id, token: cells.token })
          .from(cells)
          .where(and(inArray(cells.id, [...cellIds]), eq(cells.status, CellStatus.Available)))
          .orderBy(asc(cells.row), asc(cells.column));
  const anyLinks = [
    ...opened.map((cell) => treeLinkOf(siteUrl, cell.token)),
    ...slots.map((slot) => slotLinkOf(siteUrl, slot)),
  ];
  if (anyLinks.length === 0) return 0;
  const linkOfCell = new Map(opened.map((cell) => [cell.id, treeLinkOf(siteUrl, cell.token)]));
  const holdsNoSquare = notExists(
    tx
      .select({ one: sql`1` })
      .from(reservations)
      .where(isActiveReservationOf(subscriptions.userId)),
  );
  const columns = {
    id: subscriptions.id,
    userId: subscriptions.userId,
    cellId: subscriptions.cellId,
    email: users.email,
    firstname: users.firstname,
    disabledAt: users.disabledAt,
  };
  const forCells =
    linkOfCell.size === 0
      ? []
      : await tx
          .select(columns)
          .from(subscriptions)
          .innerJoin(users, eq(users.id, subscriptions.userId))
          .where(
            and(inArray(subscriptions.cellId, [...linkOfCell.keys()]), isNull(subscriptions.notifiedAt), holdsNoSquare),
          )
          .orderBy(asc(subscriptions.id));
  const forAny = await tx
    .select(columns)
    .from(subscriptions)
    .innerJoin(users, eq(users.id, subscriptions.userId))
    .where(and(isNull(subscriptions.cellId), isNull(subscriptions.notifiedAt), holdsNoSquare))
    .orderBy(asc(subscriptions.id));

  const recipients = new Map<number, Recipient>();
  for (const sub of [...forCells, ...forAny]) {
    let recipient = recipients.get(sub.userId);
    if (!recipient) {
      recipient = {
        email: sub.email,
        firstname: sub.firstname,
        disabled: sub.disabledAt !== null,
        subscriptionIds: [],
        links: [],
      };
      recipients.set(sub.userId, recipient);
    }
    recipient.subscriptionIds.push(sub.id);
    const link = sub.cellId === null ? (recipient.links[0] ?? anyLinks[0]!) : linkOfCell.get(sub.cellId)!;
    if (!recipient.links.includes(link)) recipient.links.push(link);
  }

  let queued = 0;
  for (const recipient of recipients.values()) {
    await tx.update(subscriptions).set({ notifiedAt: now }).where(inArray(subscriptions.id, recipient.subscriptionIds));
    if (recipient.disabled) continue;
    const many = recipient.links.length > 1;
    await enqueueMail(tx, now, {
      to: recipient.email,
      kind: 'cell-available',
      dedupeKey: `cell-available:${Math.min(...recipient.subscriptionIds)}`,
      subject: many ? 'Squares are available on the Gallery Tree' : 'A square is available on the Gallery Tree',
      text: [
        `Hello ${recipient.firstname},`,
        '',
        many
          ? 'You asked to be told when a square becomes available. These are free now; the first to reserve one holds it:'
          : 'You asked to be told when a square becomes available. This one is free now; the first to reserve it holds it:',
        '',
        ...recipient.links,
        '',
        'This was a one-time alert. Ask again from the tree if you would like to hear about the next one.',
      ].join('\n'),
    });
    queued++;
  }
  return queued;
}
