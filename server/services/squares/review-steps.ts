/**
 * A piece's way onto the tree (docs/product.md, Review and removal): its artist submits it, then staff publish it or
 * send it back for changes. Each step runs inside the caller's IMMEDIATE transaction and does together everything
 * the step means: the piece and its square, the reservation's clock, the tree's growth and change log, the search
 * index, the e-mails and the staff log. A staff decision's conditional UPDATE (WHERE status = SUBMITTED) is the last
 * word: of two staff deciding at once, one wins and the other is told.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { art, cells, connections, reservations, users } from '#drizzle/tables.ts';
import { StaffAction } from '#shared/admin-api.ts';
import { ArtStatus, CellStatus, Role } from '#shared/domain.ts';
import { ErrorCode } from '#shared/errors.ts';
import { formatDeadline } from '#shared/time-zone.ts';
import type { TreeSettings } from '#shared/tree/geometry.ts';
import type { Queryable } from '../../db.ts';
import { AppError } from '../../errors.ts';
import { detailsLinkOf, editLinkOf } from '../display/index.ts';
import { enqueueMail } from '../mail/index.ts';
import { reindexArt } from '../search/index.ts';
import { recordStaffAction, type Staff } from '../staff/index.ts';
import { branchSlotsOpenedBy, openNeighboursAfterPublish, recordCellChanges } from '../tree/index.ts';
import { openChangesWindow } from './changes-window.ts';
import { notifyAvailable } from './subscriptions.ts';

/** An observer whose piece is submitted (or published by staff) becomes an artist (docs/product.md, Roles). */
async function promoteToArtist(tx: Queryable, userId: number, now: number): Promise<void> {
  await tx
    .update(users)
    .set({ role: Role.Artist, updatedAt: now })
    .where(and(eq(users.id, userId), eq(users.role, Role.Observer)));
}

/**
 * The artist sends a draft, or a piece sent back for changes, to review: it is SUBMITTED, its artist is an artist,
 * and the square's reservation stops its clock (a submitted piece is never released by the timer: it waits for
 * review). The piece's text and pictures are the caller's, saved in the same transaction.
 */
export async function submitPiece(
  tx: Queryable,
  now: number,
  piece: { id: number; authorId: number },
  square: { id: number },
): Promise<void> {
  const changed = (
    await tx
      .update(art)
      .set({ status: ArtStatus.Submitted, submittedAt: now, updatedAt: now })
      .where(and(eq(art.id, piece.id), inArray(art.status, [ArtStatus.Draft, ArtStatus.ChangesRequested])))
      .returning({ id: art.id })
  ).length;
  if (changed !== 1) throw new AppError(ErrorCode.Forbidden, 'This piece cannot be submitted now.');
  await promoteToArtist(tx, piece.authorId, now);
  await tx
    .update(reservations)
    .set({ state: 'submitted', updatedAt: now })
    .where(
      and(
        eq(reservations.cellId, square.id),
        eq(reservations.userId, piece.authorId),
        eq(reservations.state, 'active'),
      ),
    );
}

/** A SUBMITTED piece as staff decide on it. */
export interface PieceInReview {
  piece: { id: number; token: string; title: string | null };
  cell: { id: number; token: string; treeId: number; row: number; column: number; status: number };
  treeSettings: unknown;
  author: { id: number; email: string; firstname: string };
}

/** Moves a SUBMITTED piece on, or says it is not waiting any more (another staff member decided first). */
async function leaveSubmitted(tx: Queryable, artId: number, set: Partial<typeof art.$inferInsert>): Promise<void> {
  const changed = (
    await tx
      .update(art)
      .set(set)
      .where(and(eq(art.id, artId), eq(art.status, ArtStatus.Submitted)))
      .returning({ id: art.id })
  ).length;
  if (changed !== 1) throw new AppError(ErrorCode.ArtNotSubmitted, 'This piece is not waiting for review.');
}

/**
 * Staff publish: the piece and its square become PUBLISHED, its connections to published neighbours active (the
 * others inactive), the trunk grows around it, search finds it, the tree's version moves, the author is an artist,
 * the author hears that it is live, subscribers of the squares that opened (new branch slots included, for "any
 * square") are told, and the staff log keeps it. Answers the tokens of the squares that opened.
 */
export async function publishPiece(
  tx: Queryable,
  now: number,
  siteUrl: string,
  staff: Staff,
  { piece, cell, author, treeSettings }: PieceInReview,
): Promise<string[]> {
  await leaveSubmitted(tx, piece.id, {
    status: ArtStatus.Published,
    publishedAt: now,
    reviewNote: null,
    updatedAt: now,
  });
  await tx
    .update(cells)
    .set({ status: CellStatus.Published, artId: piece.id, updatedAt: now })
    .where(eq(cells.id, cell.id));
  await tx
    .update(connections)
    .set({
      status: sql`case when exists (select 1 from cells c inner join art a on a.id = c.art_id
        where c.id = ${connections.nextCellId} and a.status = ${ArtStatus.Published}) then 1 else 0 end`,
      updatedAt: now,
    })
    .where(eq(connections.artId, piece.id));
  const opened = await openNeighboursAfterPublish(tx, cell.treeId, cell.row, cell.column, now);
  // A square already published (an edit reviewed again) opens no new branch slot.
  const openedSlots =
    cell.status === CellStatus.Published
      ? []
      : await branchSlotsOpenedBy(tx, cell.treeId, treeSettings as TreeSettings, cell.row, cell.column);
  await reindexArt(tx, piece.id);
  await recordCellChanges(tx, cell.treeId, [cell.id, ...opened], now);
  await promoteToArtist(tx, author.id, now);
  await enqueueMail(tx, now, {
    to: author.email,
    kind: 'art-published',
    dedupeKey: `art-published:${piece.token}`,
    subject: 'Your piece is live on the Gallery Tree',
    text: [
      `Hello ${author.firstname},`,
      '',
      `Good news: "${piece.title}" has been reviewed and is now live on the Gallery Tree for everyone to see.`,
      '',
      `Your piece: ${detailsLinkOf(siteUrl, cell.token)}`,
      '',
      'Share the link with anyone you like. Thank you for growing the tree with us.',
    ].join('\n'),
  });
  await notifyAvailable(tx, now, opened, siteUrl, openedSlots);
  await recordStaffAction(tx, staff, now, {
    action: StaffAction.Publish,
    subjectType: 'art',
    subjectToken: piece.token,
  });
  const tokens: string[] = [];
  for (const id of opened)
    tokens.push((await tx.select({ token: cells.token }).from(cells).where(eq(cells.id, id)))[0]!.token);
  return tokens;
}

/**
 * Staff send a piece back for changes: it goes back to its artist with staff's reason and a fresh reservation window
 * for the square (decision 019), the deadline in the e-mail; resubmitting puts it in the queue again and stops the
 * clock. The staff log keeps the reason.
 */
export async function sendBackForChanges(
  tx: Queryable,
  now: number,
  site: { siteUrl: string; siteTimezone: string },
  staff: Staff,
  { piece, cell, author }: PieceInReview,
  reason: string,
): Promise<void> {
  await leaveSubmitted(tx, piece.id, { status: ArtStatus.ChangesRequested, reviewNote: reason, updatedAt: now });
  const deadline = await openChangesWindow(tx, now, author.id, cell.id);
  const actionId = await recordStaffAction(tx, staff, now, {
    action: StaffAction.RequestChanges,
    subjectType: 'art',
    subjectToken: piece.token,
    note: reason,
  });
  await enqueueMail(tx, now, {
    to: author.email,
    kind: 'art-changes-requested',
    dedupeKey: `staff-action:${actionId}`,
    subject: 'Your piece needs a few changes',
    text: [
      `Hello ${author.firstname},`,
      '',
      `Thank you for submitting "${piece.title}". Before it goes live, our team asks for a few changes:`,
      '',
      reason,
      '',
      `Edit your piece and submit it again: ${editLinkOf(site.siteUrl, cell.token)}`,
      '',
      `Your square stays reserved for you until ${formatDeadline(deadline, site.siteTimezone)}. If the changes are not submitted by then,`,
      'the square is released to the community; your piece is kept in your atelier.',
    ].join('\n'),
  });
}
