/**
 * Taking a piece off its square and freeing the square: the steps every path that ends a piece's time on the tree
 * shares (an expiry, a staff release, an accepted removal), each doing together what such a step must never forget:
 * the change log, the search index and the square's subscribers. Each runs inside the caller's transaction.
 */
import { and, eq, inArray, or } from 'drizzle-orm';
import { art, cells, connections, pictures, reservations } from '#drizzle/tables.ts';
import { ArtStatus, CellStatus, ConnectionStatus } from '#shared/domain.ts';
import type { Queryable } from '../../db.ts';
import { reindexArt } from '../search/index.ts';
import { recordCellChanges } from '../tree/index.ts';
import { notifyAvailable } from './subscriptions.ts';

/** A square being freed: its id and its tree's (the change log is kept per tree). */
export interface SquareRef {
  cellId: number;
  treeId: number;
}

/** What the holder is told becomes of the piece when the square is released. */
export function fateOfPiece(artStatus: number | null): string {
  return artStatus === ArtStatus.ChangesRequested ? 'your piece stays in your atelier' : 'your draft is discarded';
}

/**
 * The piece keeps its row and pictures but is REMOVED, out of search, and its connections, and any pointing at its
 * square, are inactive. Its square is the caller's to free.
 */
export async function takePieceOff(tx: Queryable, now: number, artId: number, cellId: number): Promise<void> {
  await tx.update(art).set({ status: ArtStatus.Removed, updatedAt: now }).where(eq(art.id, artId));
  await tx
    .update(connections)
    .set({ status: ConnectionStatus.Unselected, updatedAt: now })
    .where(or(eq(connections.artId, artId), eq(connections.nextCellId, cellId)));
  await reindexArt(tx, artId);
}

/** The square is AVAILABLE with no piece, the tree's version moves, and the square's subscribers are told. */
export async function freeSquare(tx: Queryable, now: number, siteUrl: string, square: SquareRef): Promise<void> {
  await tx
    .update(cells)
    .set({ status: CellStatus.Available, artId: null, updatedAt: now })
    .where(eq(cells.id, square.cellId));
  await recordCellChanges(tx, square.treeId, [square.cellId], now);
  await notifyAvailable(tx, now, [square.cellId], siteUrl);
}

/**
 * The release of a reservation, the one place that decides what becomes of its piece: the reservation ends in
 * `state`; a draft and its picture rows are deleted (their files are left to the media orphan sweep), while a piece
 * sent back for changes is kept, taken off the square (decision 019); then the square is freed.
 */
export async function releaseInTx(
  tx: Queryable,
  now: number,
  siteUrl: string,
  row: SquareRef & { id: number; artId: number | null; artStatus: number | null },
  state: 'expired' | 'released',
): Promise<void> {
  await tx.update(reservations).set({ state, updatedAt: now }).where(eq(reservations.id, row.id));
  if (row.artId !== null && row.artStatus === ArtStatus.ChangesRequested) {
    await takePieceOff(tx, now, row.artId, row.cellId);
  } else if (row.artId !== null) {
    await tx.delete(pictures).where(eq(pictures.artId, row.artId));
    await tx.delete(art).where(eq(art.id, row.artId));
  }
  await freeSquare(tx, now, siteUrl, row);
}

/**
 * A published piece taken down (an accepted removal request): the piece is taken off, and when it is still its
 * square's piece, any reservation still on the square ends and the square is freed.
 */
export async function removePiece(
  tx: Queryable,
  now: number,
  siteUrl: string,
  piece: { id: number; cellId: number },
  square: SquareRef & { artId: number | null },
): Promise<void> {
  await takePieceOff(tx, now, piece.id, piece.cellId);
  if (square.artId !== piece.id) return;
  await tx
    .update(reservations)
    .set({ state: 'released', updatedAt: now })
    .where(and(eq(reservations.cellId, piece.cellId), inArray(reservations.state, ['active', 'submitted'])));
  await freeSquare(tx, now, siteUrl, square);
}
