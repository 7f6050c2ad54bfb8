/**
 * Removal requests for staff (docs/product.md, Review and removal): the list, accepting one (the piece is REMOVED, its
 * square AVAILABLE again with everything that implies) and declining one with a reason. Each decision is one IMMEDIATE
 * transaction whose conditional UPDATE (WHERE state = 'open') makes deciding twice an error that changes nothing.
 */
import { and, asc, desc, eq } from 'drizzle-orm';
import { art, cells, pictures, removalRequests, users, tableAlias } from '#drizzle/tables.ts';
import { StaffAction, type AdminRemovalRequest, type RemovalState } from '#shared/admin-api.ts';
import { ErrorCode } from '#shared/errors.ts';
import { write, type Queryable } from '../../db.ts';
import { AppError } from '../../errors.ts';
import type { Viewer } from '../../permissions.ts';
import type { MediaUrlOf } from '../../storage/index.ts';
import type { ServiceContext } from '../context.ts';
import { enqueueMail } from '../mail/index.ts';
import { mainPictureOf, personRef, thumbOf } from '../display/index.ts';
import { removePiece } from '../squares/index.ts';
import { recordStaffAction, requireStaff, type Staff } from '../staff/index.ts';
import { ERROR_TEXT } from '#shared/error-text.ts';

function selectRequests(q: Queryable) {
  const requester = tableAlias(users, 'requester');
  const decider = tableAlias(users, 'decider');
  return q
    .select({
      request: removalRequests,
      art: { token: art.token, title: art.title, status: art.status },
      cellToken: cells.token,
      mediaKey: pictures.mediaKey,
      requester: { token: requester.token, firstname: requester.firstname, lastname: requester.lastname },
      decider: { token: decider.token, firstname: decider.firstname, lastname: decider.lastname },
    })
    .from(removalRequests)
    .innerJoin(art, eq(art.id, removalRequests.artId))
    .innerJoin(cells, eq(cells.id, art.cellId))
    .leftJoin(pictures, mainPictureOf(art.id))
    .leftJoin(requester, eq(requester.id, removalRequests.requesterId))
    .leftJoin(decider, eq(decider.id, removalRequests.decidedBy))
    .$dynamic();
}

type RequestRow = Awaited<ReturnType<ReturnType<typeof selectRequests>['all']>>[number];

function answerOf(row: RequestRow, urlOf: MediaUrlOf): AdminRemovalRequest {
  const { request } = row;
  return {
    token: request.token,
    state: request.state as RemovalState,
    reason: request.reason,
    email: request.email,
    createdAt: request.createdAt,
    requester: row.requester && personRef(row.requester),
    art: { ...row.art, cellToken: row.cellToken, thumb: thumbOf(row.mediaKey, urlOf) },
    decidedBy: row.decider && personRef(row.decider),
    decisionNote: request.decisionNote,
    decidedAt: request.decidedAt,
  };
}

/** admin.removalRequests: open ones the longest waiting first; decided ones (or all) the newest first. */
export async function listRemovalRequests(
  ctx: ServiceContext,
  state: RemovalState | undefined,
): Promise<AdminRemovalRequest[]> {
  const order = state === 'open' ? asc(removalRequests.createdAt) : desc(removalRequests.createdAt);
  return (
    await selectRequests(ctx.db)
      .where(state ? eq(removalRequests.state, state) : undefined)
      .orderBy(order, asc(removalRequests.id))
  ).map((row) => answerOf(row, ctx.media.urlOf));
}

async function readRequest(q: Queryable, token: string, urlOf: MediaUrlOf): Promise<AdminRemovalRequest> {
  const row = (await selectRequests(q).where(eq(removalRequests.token, token)).limit(1))[0];
  if (!row) throw new AppError(ErrorCode.NotFound, 'No removal request has this token.');
  return answerOf(row, urlOf);
}

/** Moves an open request to its decision, or says it was decided already. Answers the piece and its author. */
async function decide(
  tx: Queryable,
  staff: Staff,
  now: number,
  token: string,
  state: 'accepted' | 'declined',
  note: string | null,
) {
  const request = (await tx.select().from(removalRequests).where(eq(removalRequests.token, token)))[0];
  if (!request) throw new AppError(ErrorCode.NotFound, 'No removal request has this token.');
  const changed = (
    await tx
      .update(removalRequests)
      .set({ state, decidedBy: staff.id, decisionNote: note, decidedAt: now })
      .where(and(eq(removalRequests.id, request.id), eq(removalRequests.state, 'open')))
      .returning({ id: removalRequests.id })
  ).length;
  if (changed !== 1) throw new AppError(ErrorCode.RemovalAlreadyDecided, ERROR_TEXT.removal_already_decided);
  return (
    await tx
      .select({
        piece: { id: art.id, token: art.token, title: art.title, cellId: art.cellId },
        cell: { cellId: cells.id, token: cells.token, treeId: cells.treeId, artId: cells.artId },
        author: { email: users.email, firstname: users.firstname },
      })
      .from(art)
      .innerJoin(cells, eq(cells.id, art.cellId))
      .innerJoin(users, eq(users.id, art.authorId))
      .where(eq(art.id, request.artId))
  )[0]!;
}

/**
 * admin.acceptRemoval: the piece becomes REMOVED and leaves search; its square is AVAILABLE with no piece (a
 * reservation still on it ends), connections from and to it end, the tree's version moves, the square's
 * subscribers are told and so is the artist.
 */
export async function acceptRemoval(ctx: ServiceContext, viewer: Viewer, token: string): Promise<AdminRemovalRequest> {
  const staff = requireStaff(viewer);
  const now = ctx.clock.now();
  return write(ctx.db, async (tx) => {
    const { piece, cell, author } = await decide(tx, staff, now, token, 'accepted', null);
    await removePiece(tx, now, ctx.config.siteUrl, piece, cell);
    const actionId = await recordStaffAction(tx, staff, now, {
      action: StaffAction.AcceptRemoval,
      subjectType: 'removal_request',
      subjectToken: token,
    });
    await enqueueMail(tx, now, {
      to: author.email,
      kind: 'removal-accepted',
      dedupeKey: `staff-action:${actionId}`,
      subject: 'Your piece has been removed from the Gallery Tree',
      text: [
        `Hello ${author.firstname},`,
        '',
        `As you asked, "${piece.title}" has been taken down from the Gallery Tree. Its square is open to the community again.`,
        '',
        'Thank you for having been part of the tree. You are welcome back any time.',
      ].join('\n'),
    });
    return readRequest(tx, token, ctx.media.urlOf);
  });
}

/** admin.declineRemoval: the piece stays; the artist hears why. */
export async function declineRemoval(
  ctx: ServiceContext,
  viewer: Viewer,
  token: string,
  reason: string,
): Promise<AdminRemovalRequest> {
  const staff = requireStaff(viewer);
  const now = ctx.clock.now();
  return write(ctx.db, async (tx) => {
    const { piece, author } = await decide(tx, staff, now, token, 'declined', reason);
    const actionId = await recordStaffAction(tx, staff, now, {
      action: StaffAction.DeclineRemoval,
      subjectType: 'removal_request',
      subjectToken: token,
      note: reason,
    });
    await enqueueMail(tx, now, {
      to: author.email,
      kind: 'removal-declined',
      dedupeKey: `staff-action:${actionId}`,
      subject: 'About your removal request',
      text: [
        `Hello ${author.firstname},`,
        '',
        `We looked at your request to take "${piece.title}" down from the Gallery Tree and have decided to keep it for now:`,
        '',
        reason,
        '',
        'If you have questions, reply through the contact page of the site.',
      ].join('\n'),
    });
    return readRequest(tx, token, ctx.media.urlOf);
  });
}
