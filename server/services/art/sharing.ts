/**
 * A published piece as other sites see it (decision 046): its title, artist and main picture, and the squares around
 * it on the tree, for the social card, the oEmbed answer and the embeddable view. Only a published piece is
 * described, and around it only published pieces lend their colour, picture and title: a piece under review, sent
 * back or removed shows as its square's status, as on the tree.
 */
import { and, eq } from 'drizzle-orm';
import { pictures, trees, users } from '#drizzle/tables.ts';
import { ArtStatus, CellStatus } from '#shared/domain.ts';
import { personName } from '#shared/people.ts';
import { CELL_PITCH } from '#shared/tree/camera.ts';
import { drawBranchSlot, drawCell, type Pen } from '#shared/tree/cell-look.ts';
import { computeBranchSlots, gridOfCells, type TreeSettings } from '#shared/tree/geometry.ts';
import { colorAsSent } from '#shared/tree/snapshot.ts';
import { titleOrUntitled } from '#shared/words.ts';
import { readTransaction, type Queryable } from '../../db.ts';
import type { ServiceContext } from '../context.ts';
import { loadCellWithArt } from '../display/index.ts';
import { cellsWithin } from '../tree/index.ts';

/** Squares shown on each side of the piece: a 5 × 5 neighbourhood, the piece in the middle. */
export const SURROUNDINGS_RADIUS = 2;

/** One square of the neighbourhood, as the tree shows it. */
export interface SurroundingSquare {
  /** Offsets from the piece's square: -RADIUS to RADIUS. */
  dRow: number;
  dColumn: number;
  token: string;
  /** The CellStatus. */
  status: number;
  /** The published piece's colour as the tree draws it (0xRRGGBB, -1 when it has none), or null: no piece shown. */
  color: number | null;
  /** Its published piece's main picture (media key), title and artist; null and '' when none is shown. */
  mediaKey: string | null;
  title: string;
  artist: string;
}

export interface SharedPiece {
  cellToken: string;
  treeToken: string;
  /**
   * The tree's version this was read at: the live view follows the tree's changes from it, so a copy of the view
   * kept by a cache catches up when it opens.
   */
  treeVersion: number;
  /** Where the square is on the tree (the live view asks the tree's changes about its neighbourhood). */
  row: number;
  column: number;
  title: string;
  year: number | null;
  description: string;
  artist: { token: string; name: string } | null;
  /** The main picture: its media key and size in pixels, what it shows (alt text), its narrower widths (decision 047). */
  main: { mediaKey: string; width: number; height: number; description: string; sizes: string } | null;
  /** The squares of the neighbourhood that exist (the tree has no square at every position), the piece's own too. */
  around: SurroundingSquare[];
  /** The branch slots among the free positions of the neighbourhood (offsets), which the tree draws dashed. */
  slots: { dRow: number; dColumn: number }[];
}

/** The published piece on the square `cellToken` names, with its neighbourhood; null for anything else. */
export async function sharedPieceWithSurroundings(
  ctx: Pick<ServiceContext, 'db'>,
  cellToken: string,
): Promise<SharedPiece | null> {
  return readTransaction(ctx.db, async (tx) => {
    let found;
    try {
      found = await loadCellWithArt(tx, cellToken);
    } catch {
      return null;
    }
    const piece = found.art;
    if (!piece || piece.status !== ArtStatus.Published || found.cell.status !== CellStatus.Published) return null;
    const [author] = await tx
      .select({ token: users.token, firstname: users.firstname, lastname: users.lastname })
      .from(users)
      .where(eq(users.id, piece.authorId));
    const [main] = await tx
      .select({
        mediaKey: pictures.mediaKey,
        width: pictures.width,
        height: pictures.height,
        description: pictures.description,
        sizes: pictures.sizes,
      })
      .from(pictures)
      .where(and(eq(pictures.artId, piece.id), eq(pictures.position, 0)));
    const [tree] = await tx
      .select({ version: trees.version, settings: trees.settings })
      .from(trees)
      .where(eq(trees.id, found.cell.treeId));
    return {
      cellToken: found.cell.token,
      treeToken: found.cell.treeToken,
      treeVersion: tree!.version,
      row: found.cell.row,
      column: found.cell.column,
      title: titleOrUntitled(piece.title),
      year: piece.year,
      description: piece.description,
      artist: author ? { token: author.token, name: personName(author) } : null,
      main: main ?? null,
      ...(await readSurroundings(tx, found.cell, tree!.settings as TreeSettings)),
    };
  });
}

/**
 * The squares within SURROUNDINGS_RADIUS of the piece's, and the branch slots among the free positions there. One
 * square more is read on every side: a slot is a free position touched by exactly one published square, which may
 * lie just outside (the first sketch reads the same margin, decision 022).
 */
async function readSurroundings(
  q: Queryable,
  cell: { treeId: number; row: number; column: number },
  settings: TreeSettings,
): Promise<Pick<SharedPiece, 'around' | 'slots'>> {
  const r = SURROUNDINGS_RADIUS + 1;
  const rows = await cellsWithin(q, cell.treeId, {
    row0: cell.row - r,
    row1: cell.row + r,
    col0: cell.column - r,
    col1: cell.column + r,
  });
  const within = (row: number, column: number) =>
    Math.abs(row - cell.row) <= SURROUNDINGS_RADIUS && Math.abs(column - cell.column) <= SURROUNDINGS_RADIUS;
  const slots = computeBranchSlots(settings, gridOfCells(rows))
    .filter((slot) => within(slot.row, slot.column))
    .map((slot) => ({ dRow: slot.row - cell.row, dColumn: slot.column - cell.column }));
  const around = rows
    .filter((square) => within(square.row, square.column))
    .map((square) => {
      const shown = square.status === CellStatus.Published && square.title !== null;
      return {
        dRow: square.row - cell.row,
        dColumn: square.column - cell.column,
        token: square.token,
        status: square.status,
        color: shown ? colorAsSent(square.color) : null,
        mediaKey: shown ? square.mediaKey : null,
        title: shown ? titleOrUntitled(square.title!) : '',
        artist:
          shown && square.firstname !== null
            ? personName({ firstname: square.firstname, lastname: square.lastname! })
            : '',
      };
    });
  return { around, slots };
}

/**
 * Draws the neighbourhood as the tree does (shared/tree/cell-look.ts) through `pen`, in world pixels from the
 * top-left square's corner: each square by its status and colour, the branch slots dashed.
 */
export function drawSurroundings(pen: Pen, shared: Pick<SharedPiece, 'around' | 'slots'>): void {
  const at = (d: number) => (d + SURROUNDINGS_RADIUS) * CELL_PITCH;
  for (const square of shared.around)
    drawCell(pen, at(square.dColumn), at(square.dRow), square.status, square.color ?? -1);
  for (const slot of shared.slots) drawBranchSlot(pen, at(slot.dColumn), at(slot.dRow));
}
