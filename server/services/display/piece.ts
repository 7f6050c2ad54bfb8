/** A square with its current piece, as art, connections, review and removals read it, and a piece's fields. */
import { eq } from 'drizzle-orm';
import { art, cells, trees } from '#drizzle/tables.ts';
import type { ArtCellRef, ArtFields } from '#shared/art-api.ts';
import { ArtStatus } from '#shared/domain.ts';
import { ErrorCode } from '#shared/errors.ts';
import type { Queryable } from '../../db.ts';
import { AppError } from '../../errors.ts';
import { TOKEN_PATTERN } from '../../tokens.ts';
import type { AiUse } from '#shared/constants.ts';

export type ArtRow = typeof art.$inferSelect;

export interface CellWithArt {
  cell: ArtCellRef & { id: number; treeId: number };
  /** The square's current piece; a REMOVED one reads as none. */
  art: ArtRow | null;
}

/** The square a token names with its current piece: 400 for a malformed token, 404 for an unknown one. */
export async function loadCellWithArt(q: Queryable, cellToken: string): Promise<CellWithArt> {
  if (!TOKEN_PATTERN.test(cellToken)) throw new AppError(ErrorCode.BadRequest, 'Malformed cell token.');
  const found = (
    await q
      .select({
        id: cells.id,
        treeId: cells.treeId,
        token: cells.token,
        row: cells.row,
        column: cells.column,
        status: cells.status,
        treeToken: trees.token,
        artId: cells.artId,
      })
      .from(cells)
      .innerJoin(trees, eq(trees.id, cells.treeId))
      .where(eq(cells.token, cellToken))
  )[0];
  if (!found) throw new AppError(ErrorCode.CellNotFound, 'No cell has this token.');
  const { artId, ...cell } = found;
  const piece = artId === null ? undefined : (await q.select().from(art).where(eq(art.id, artId)))[0];
  return { cell, art: piece && piece.status !== ArtStatus.Removed ? piece : null };
}

/** What the permission check of editing a square's piece needs to know. */
export const editFacts = (found: CellWithArt) => ({ status: found.cell.status, art: found.art });

/** A piece's form fields in the API's names (the editor, details and the review screen show the same). */
export function fieldsOf(row: ArtRow): ArtFields {
  return {
    title: row.title,
    year: row.year,
    category: row.category,
    subject: row.subject,
    style: row.style,
    medium: row.medium,
    materials: row.materials,
    keywords: row.keywords,
    description: row.description,
    width: row.width,
    height: row.height,
    depth: row.depth,
    units: row.units,
    no_size: row.noSize,
    ai_use: row.aiUse as AiUse,
  };
}
