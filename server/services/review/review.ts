/**
 * Staff review (docs/product.md, Review and removal): the queue of SUBMITTED pieces, one piece with everything staff
 * need to decide, publishing it and requesting changes. Each decision is one IMMEDIATE transaction whose conditional
 * UPDATE (WHERE status = SUBMITTED) is the last word: of two staff deciding at once, one wins and the other is told.
 */
import { and, asc, desc, eq, ne, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import { art, cells, connections, pictures, trees, users } from '#drizzle/schema.ts';
import {
  StaffAction,
  type ArtistPiece,
  type PublishResult,
  type QueueItem,
  type RequestChangesResult,
  type ReviewConnection,
  type ReviewItem,
} from '#shared/admin-api.ts';
import { ArtStatus, CellStatus } from '#shared/domain.ts';
import { ErrorCode } from '#shared/errors.ts';
import { formatDeadline } from '#shared/time-zone.ts';
import type { TreeSettings } from '#shared/tree/geometry.ts';
import { IMMEDIATE, type Queryable } from '../../db.ts';
import { AppError } from '../../errors.ts';
import type { Viewer } from '../../permissions.ts';
import {
  personRef,
  fieldsOf,
  readPictures,
  mainPictureOf,
  thumbOf,
  detailsLinkOf,
  editLinkOf,
} from '../display/index.ts';
import { recordStaffAction, requireStaff } from '../staff/index.ts';
import { openChangesWindow, notifyAvailable } from '../squares/index.ts';
import type { ServiceContext } from '../context.ts';
import { branchSlotsOpenedBy, openNeighboursAfterPublish, recordCellChanges } from '../tree/index.ts';
import { enqueueMail } from '../mail/index.ts';
import { reindexArt } from '../search/index.ts';
import { promoteToArtist } from '../accounts/index.ts';

/** admin.queue: every SUBMITTED piece, the longest waiting first. */
export function listReviewQueue(ctx: ServiceContext): QueueItem[] {
  return ctx.db
    .select({
      artToken: art.token,
      cellToken: cells.token,
      title: art.title,
      submittedAt: art.submittedAt,
      createdAt: art.createdAt,
      mediaKey: pictures.mediaKey,
      token: users.token,
      firstname: users.firstname,
      lastname: users.lastname,
    })
    .from(art)
    .innerJoin(cells, eq(cells.id, art.cellId))
    .innerJoin(users, eq(users.id, art.authorId))
    .leftJoin(pictures, mainPictureOf(art.id))
    .where(eq(art.status, ArtStatus.Submitted))
    .orderBy(asc(art.submittedAt), asc(art.id))
    .all()
    .map((row) => ({
      artToken: row.artToken,
      cellToken: row.cellToken,
      title: row.title,
      author: personRef(row),
      submittedAt: row.submittedAt ?? row.createdAt,
      thumb: thumbOf(row.mediaKey),
    }));
}

/** The piece a token names with its square and author, or art_not_found. */
function loadPiece(q: Queryable, artToken: string) {
  const found = q
    .select({
      piece: art,
      cell: {
        id: cells.id,
        token: cells.token,
        treeId: cells.treeId,
        row: cells.row,
        column: cells.column,
        type: cells.type,
        status: cells.status,
      },
      treeToken: trees.token,
      treeSettings: trees.settings,
      author: {
        id: users.id,
        token: users.token,
        firstname: users.firstname,
        lastname: users.lastname,
        email: users.email,
        role: users.role,
      },
    })
    .from(art)
    .innerJoin(cells, eq(cells.id, art.cellId))
    .innerJoin(trees, eq(trees.id, cells.treeId))
    .innerJoin(users, eq(users.id, art.authorId))
    .where(eq(art.token, artToken))
    .get();
  if (!found) throw new AppError(ErrorCode.ArtNotFound, 'No piece has this token.');
  return found;
}

function reviewConnections(q: Queryable, artId: number): ReviewConnection[] {
  const nextArt = alias(art, 'next_art');
  const nextAuthor = alias(users, 'next_author');
  return q
    .select({
      cellToken: cells.token,
      row: cells.row,
      column: cells.column,
      description: connections.description,
      status: connections.status,
      artToken: nextArt.token,
      title: nextArt.title,
      mediaKey: pictures.mediaKey,
      authorToken: nextAuthor.token,
      firstname: nextAuthor.firstname,
      lastname: nextAuthor.lastname,
    })
    .from(connections)
    .innerJoin(cells, eq(cells.id, connections.nextCellId))
    .leftJoin(nextArt, and(eq(nextArt.id, cells.artId), ne(nextArt.status, ArtStatus.Removed)))
    .leftJoin(nextAuthor, eq(nextAuthor.id, nextArt.authorId))
    .leftJoin(pictures, mainPictureOf(nextArt.id))
    .where(eq(connections.artId, artId))
    .orderBy(asc(cells.row), asc(cells.column))
    .all()
    .map((row) => ({
      cellToken: row.cellToken,
      row: row.row,
      column: row.column,
      description: row.description,
      status: row.status,
      neighbour:
        row.artToken === null || row.title === null || row.authorToken === null
          ? null
          : {
              artToken: row.artToken,
              title: row.title,
              thumb: thumbOf(row.mediaKey),
              author: personRef({
                token: row.authorToken,
                firstname: row.firstname ?? '',
                lastname: row.lastname ?? '',
              }),
            },
    }));
}

function otherPiecesOf(q: Queryable, authorId: number, artId: number): ArtistPiece[] {
  return q
    .select({
      artToken: art.token,
      cellToken: cells.token,
      title: art.title,
      status: art.status,
      mediaKey: pictures.mediaKey,
    })
    .from(art)
    .innerJoin(cells, eq(cells.id, art.cellId))
    .leftJoin(pictures, mainPictureOf(art.id))
    .where(and(eq(art.authorId, authorId), ne(art.id, artId)))
    .orderBy(desc(art.createdAt), desc(art.id))
    .all()
    .map(({ mediaKey, ...piece }) => ({ ...piece, thumb: thumbOf(mediaKey) }));
}

/** admin.reviewItem: one piece (any status) with its images, fields, connections, square and artist. */
export function getReviewItem(ctx: ServiceContext, artToken: string): ReviewItem {
  const { piece, cell, treeToken, author } = loadPiece(ctx.db, artToken);
  return {
    art: {
      token: piece.token,
      status: piece.status,
      reviewNote: piece.reviewNote,
      submittedAt: piece.submittedAt,
      publishedAt: piece.publishedAt,
      createdAt: piece.createdAt,
      updatedAt: piece.updatedAt,
      ...fieldsOf(piece),
    },
    pictures: readPictures(ctx.db, piece.id),
    connections: reviewConnections(ctx.db, piece.id),
    cell: { token: cell.token, treeToken, row: cell.row, column: cell.column, type: cell.type, status: cell.status },
    artist: {
      ...personRef(author),
      firstname: author.firstname,
      lastname: author.lastname,
      email: author.email,
      role: author.role,
    },
    otherPieces: otherPiecesOf(ctx.db, author.id, piece.id),
  };
}

/** Moves a SUBMITTED piece on, or says it is not waiting any more (another staff member decided first). */
function leaveSubmitted(tx: Queryable, artId: number, set: Partial<typeof art.$inferInsert>): void {
  const changed = tx
    .update(art)
    .set(set)
    .where(and(eq(art.id, artId), eq(art.status, ArtStatus.Submitted)))
    .run().changes;
  if (changed !== 1) throw new AppError(ErrorCode.ArtNotSubmitted, 'This piece is not waiting for review.');
}

/**
 * admin.publish, in one transaction: the piece and its square become PUBLISHED, its connections to published
 * neighbours active (the others inactive), the trunk grows around it, search finds it, the tree's version moves,
 * the author is an artist, the author hears that it is live and subscribers of the squares that opened (new branch
 * slots included, for "any square") are told.
 */
export function publishArt(ctx: ServiceContext, viewer: Viewer, artToken: string): PublishResult {
  const staff = requireStaff(viewer);
  const now = ctx.clock.now();
  const { siteUrl } = ctx.config;
  return ctx.db.transaction((tx) => {
    const { piece, cell, author, treeSettings } = loadPiece(tx, artToken);
    leaveSubmitted(tx, piece.id, { status: ArtStatus.Published, publishedAt: now, reviewNote: null, updatedAt: now });
    tx.update(cells)
      .set({ status: CellStatus.Published, artId: piece.id, updatedAt: now })
      .where(eq(cells.id, cell.id))
      .run();
    tx.update(connections)
      .set({
        status: sql`case when exists (select 1 from cells c inner join art a on a.id = c.art_id
          where c.id = ${connections.nextCellId} and a.status = ${ArtStatus.Published}) then 1 else 0 end`,
        updatedAt: now,
      })
      .where(eq(connections.artId, piece.id))
      .run();
    const opened = openNeighboursAfterPublish(tx, cell.treeId, cell.row, cell.column, now);
    // A square already published (an edit reviewed again) opens no new branch slot.
    const openedSlots =
      cell.status === CellStatus.Published
        ? []
        : branchSlotsOpenedBy(tx, cell.treeId, treeSettings as TreeSettings, cell.row, cell.column);
    reindexArt(tx, piece.id);
    recordCellChanges(tx, cell.treeId, [cell.id, ...opened], now);
    promoteToArtist(tx, author.id, now);
    enqueueMail(tx, now, {
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
    notifyAvailable(tx, now, opened, siteUrl, openedSlots);
    recordStaffAction(tx, staff, now, { action: StaffAction.Publish, subjectType: 'art', subjectToken: piece.token });
    const openedCellTokens = opened.map(
      (id) => tx.select({ token: cells.token }).from(cells).where(eq(cells.id, id)).get()!.token,
    );
    return { artToken: piece.token, cellToken: cell.token, openedCellTokens };
  }, IMMEDIATE);
}

/**
 * admin.requestChanges: the piece goes back to its artist with staff's reason and a fresh reservation window for
 * the square (decision 019), the deadline in the e-mail; resubmitting puts it in the queue again and stops the clock.
 */
export function requestChanges(
  ctx: ServiceContext,
  viewer: Viewer,
  artToken: string,
  reason: string,
): RequestChangesResult {
  const staff = requireStaff(viewer);
  const now = ctx.clock.now();
  return ctx.db.transaction((tx) => {
    const { piece, cell, author } = loadPiece(tx, artToken);
    leaveSubmitted(tx, piece.id, { status: ArtStatus.ChangesRequested, reviewNote: reason, updatedAt: now });
    const deadline = openChangesWindow(tx, now, author.id, cell.id);
    const actionId = recordStaffAction(tx, staff, now, {
      action: StaffAction.RequestChanges,
      subjectType: 'art',
      subjectToken: piece.token,
      note: reason,
    });
    enqueueMail(tx, now, {
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
        `Edit your piece and submit it again: ${editLinkOf(ctx.config.siteUrl, cell.token)}`,
        '',
        `Your square stays reserved for you until ${formatDeadline(deadline, ctx.config.siteTimezone)}. If the changes are not submitted by then,`,
        'the square is released to the community; your piece is kept in your atelier.',
      ].join('\n'),
    });
    return { artToken: piece.token, status: ArtStatus.ChangesRequested, reviewNote: reason };
  }, IMMEDIATE);
}
