/** Reading cells by token. */
import { eq } from 'drizzle-orm';
import { cells, trees } from '#drizzle/schema.ts';
import type { CellSummary } from '#shared/api-types.ts';
import { ErrorCode } from '#shared/errors.ts';
import type { Db } from '../db.ts';
import { AppError } from '../errors.ts';
import { TOKEN_PATTERN } from '../tokens.ts';

export function getCellSummary(db: Db, token: string): CellSummary {
  if (!TOKEN_PATTERN.test(token)) throw new AppError(ErrorCode.BadRequest, 'Malformed cell token.');
  const found = db
    .select({
      token: cells.token,
      row: cells.row,
      column: cells.column,
      type: cells.type,
      status: cells.status,
      treeToken: trees.token,
    })
    .from(cells)
    .innerJoin(trees, eq(trees.id, cells.treeId))
    .where(eq(cells.token, token))
    .get();
  if (!found) throw new AppError(ErrorCode.CellNotFound, 'No cell has this token.');
  return found;
}
