/**
 * Staff review (docs/product.md, Review and removal): the queue of SUBMITTED pieces, one piece with everything staff
 * need to decide, publishing it and requesting changes. Each decision is one IMMEDIATE transaction around the step of
 * the piece's life that squares/review-steps.ts writes.
 */
import { and, asc, desc, eq, ne } from 'drizzle-orm';
import { art, cells, connections, pictures, trees, users, tableAlias } from '#drizzle/tables.ts';
import type {
  ArtistPiece,
  PublishResult,
  QueueItem,
  RequestChangesResult,
  ReviewConnection,
  ReviewItem,
} from '#shared/admin-api.ts';
import { ArtStatus } from '#shared/domain.ts';
import { ErrorCode } from '#shared/errors.ts';
import { write, type Queryable } from '../../db.ts';
import { AppError } from '../../errors.ts';
import type { Viewer } from '../../permissions.ts';
import type { MediaUrlOf } from '../../storage/index.ts';
import { personRef, fieldsOf, readPictures, mainPictureOf, thumbOf } from '../display/index.ts';
import { requireStaff } from '../staff/index.ts';
import { publishPiece, sendBackForChanges } from '../squares/index.ts';
import type { ServiceContext } from '../context.ts';

/** admin.queue: every SUBMITTED piece, the longest waiting first. */
export async function listReviewQueue(ctx: ServiceContext): Promise<QueueItem[]> {
  return (
    await ctx.db
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
  ).map((row) => ({
    artToken: row.artToken,
    cellToken: row.cellToken,
    title: row.title,
    author: personRef(row),
    submittedAt: row.submittedAt ?? row.createdAt,
    thumb: thumbOf(row.mediaKey, ctx.media.urlOf),
  }));
}

/** The piece a token names with its square and author, or art_not_found. */
async function loadPiece(q: Queryable, artToken: string) {
  const found = (
    await q
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
  )[0];
  if (!found) throw new AppError(ErrorCode.ArtNotFound, 'No piece has this token.');
  return found;
}

async function reviewConnections(q: Queryable, artId: number, urlOf: MediaUrlOf): Promise<ReviewConnection[]> {
  const nextArt = tableAlias(art, 'next_art');
  const nextAuthor = tableAlias(users, 'next_author');
  return (
    await q
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
  ).map((row) => ({
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
            thumb: thumbOf(row.mediaKey, urlOf),
            author: personRef({
              token: row.authorToken,
              firstname: row.firstname ?? '',
              lastname: row.lastname ?? '',
            }),
          },
  }));
}

async function otherPiecesOf(q: Queryable, authorId: number, artId: number, urlOf: MediaUrlOf): Promise<ArtistPiece[]> {
  return (
    await q
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
  ).map(({ mediaKey, ...piece }) => ({ ...piece, thumb: thumbOf(mediaKey, urlOf) }));
}

/** admin.reviewItem: one piece (any status) with its images, fields, connections, square and artist. */
export async function getReviewItem(ctx: ServiceContext, artToken: string): Promise<ReviewItem> {
  const { piece, cell, treeToken, author } = await loadPiece(ctx.db, artToken);
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
    pictures: await readPictures(ctx.db, piece.id, ctx.media.urlOf),
    connections: await reviewConnections(ctx.db, piece.id, ctx.media.urlOf),
    cell: { token: cell.token, treeToken, row: cell.row, column: cell.column, type: cell.type, status: cell.status },
    artist: {
      ...personRef(author),
      firstname: author.firstname,
      lastname: author.lastname,
      email: author.email,
      role: author.role,
    },
    otherPieces: await otherPiecesOf(ctx.db, author.id, piece.id, ctx.media.urlOf),
  };
}

/** admin.publish, in one transaction: the piece goes live (squares' publishPiece says all that means). */
export async function publishArt(ctx: ServiceContext, viewer: Viewer, artToken: string): Promise<PublishResult> {
  const staff = requireStaff(viewer);
  const now = ctx.clock.now();
  return write(ctx.db, async (tx) => {
    const found = await loadPiece(tx, artToken);
    const openedCellTokens = await publishPiece(tx, now, ctx.config.siteUrl, staff, found);
    return { artToken: found.piece.token, cellToken: found.cell.token, openedCellTokens };
  });
}

/** admin.requestChanges, in one transaction: the piece goes back to its artist (squares' sendBackForChanges). */
export async function requestChanges(
  ctx: ServiceContext,
  viewer: Viewer,
  artToken: string,
  reason: string,
): Promise<RequestChangesResult> {
  const staff = requireStaff(viewer);
  const now = ctx.clock.now();
  return write(ctx.db, async (tx) => {
    const found = await loadPiece(tx, artToken);
    await sendBackForChanges(tx, now, ctx.config, staff, found, reason);
    return { artToken: found.piece.token, status: ArtStatus.ChangesRequested, reviewNote: reason };
  });
}
