/** Reading cells: one by token, and the viewer's own. */
import { and, desc, eq, ne } from 'drizzle-orm';
import { art, cells, reservations, trees } from '#drizzle/tables.ts';
import type { CellSummary } from '#shared/api-types.ts';
import { ArtStatus } from '#shared/domain.ts';
import { ErrorCode } from '#shared/errors.ts';
import type { Db } from '../../db.ts';
import { AppError } from '../../errors.ts';
import { TOKEN_PATTERN } from '../../tokens.ts';
import { preparedForEngines } from '../prepared.ts';

/** One cell and its tree's token by the cell's token (prepared once: every square a visitor opens asks it). */
const cellSummaryStatement = preparedForEngines<[string], CellSummary>({
  sqlite: `
    select c.token as token, c.row as row, c."column" as "column", c.type as type, c.status as status,
           t.token as treeToken
    from cells c join trees t on t.id = c.tree_id
    where c.token = ?`,
  postgres: `
    select c.token as token, c.row as row, c."column" as "column", c.type as type, c.status as status,
           t.token as "treeToken"
    from cells c join trees t on t.id = c.tree_id
    where c.token = $1`,
});

export async function getCellSummary(db: Db, token: string): Promise<CellSummary> {
  if (!TOKEN_PATTERN.test(token)) throw new AppError(ErrorCode.BadRequest, 'Malformed cell token.');
  const found = await cellSummaryStatement.get(db, token);
  if (!found) throw new AppError(ErrorCode.CellNotFound, 'No cell has this token.');
  return found;
}

/** One of the viewer's own squares, for the tree's find-my-slots and its reserved-by-me look. */
export interface ViewerCell {
  token: string;
  row: number;
  column: number;
  status: number;
  treeToken: string;
}

/**
 * The viewer's squares (the tree toolbar's "find mine"): the square they hold a reservation on first, then the cells of
 * their pieces (drafts, under review, published), newest first. Removed pieces are not theirs to find.
 */
export async function listViewerCells(db: Db, userId: number): Promise<ViewerCell[]> {
  const columns = {
    token: cells.token,
    row: cells.row,
    column: cells.column,
    status: cells.status,
    treeToken: trees.token,
  };
  const held = await db
    .select(columns)
    .from(reservations)
    .innerJoin(cells, eq(cells.id, reservations.cellId))
    .innerJoin(trees, eq(trees.id, cells.treeId))
    .where(and(eq(reservations.userId, userId), eq(reservations.state, 'active')));
  const pieces = await db
    .select(columns)
    .from(art)
    .innerJoin(cells, and(eq(cells.id, art.cellId), eq(cells.artId, art.id)))
    .innerJoin(trees, eq(trees.id, cells.treeId))
    .where(and(eq(art.authorId, userId), ne(art.status, ArtStatus.Removed)))
    .orderBy(desc(art.createdAt), desc(art.id));
  const seen = new Set<string>();
  return [...held, ...pieces].filter((cell) => !seen.has(cell.token) && seen.add(cell.token));
}
