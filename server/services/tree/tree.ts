/**
 * Trees (docs/product.md, Growth of the tree): creating a tree with its trunk, and reading one by token. Their snapshot
 * is built by snapshot-build.ts and kept by snapshot-store.ts; their changes are logged by tree-changes.ts.
 */
import { asc, eq } from 'drizzle-orm';
import { cells, trees } from '#drizzle/tables.ts';
import { CellStatus, CellType } from '#shared/domain.ts';
import { ErrorCode } from '#shared/errors.ts';
import { DEFAULT_TREE_SETTINGS, bandOfRow, totalRows, type TreeSettings } from '#shared/tree/geometry.ts';
import { write, type Db, type Queryable } from '../../db.ts';
import { AppError } from '../../errors.ts';
import { newToken, TOKEN_PATTERN } from '../../tokens.ts';
import { recordBulkChange } from './tree-changes.ts';

export type TreeRow = typeof trees.$inferSelect;

/** Creates a tree and every trunk cell (all rows, trunk columns): seed rows AVAILABLE, the rest PENDING. */
export async function createTree(
  db: Db,
  now: number,
  name: string,
  settings: TreeSettings = DEFAULT_TREE_SETTINGS,
): Promise<TreeRow> {
  return write(db, (tx) => createTreeInTx(tx, now, name, settings));
}

/** As createTree, inside the caller's transaction (the demo seed plants its tree in the transaction that fills it). */
export async function createTreeInTx(
  tx: Queryable,
  now: number,
  name: string,
  settings: TreeSettings = DEFAULT_TREE_SETTINGS,
): Promise<TreeRow> {
  const tree = (
    await tx.insert(trees).values({ token: newToken(), name, settings, version: 1, createdAt: now }).returning()
  )[0]!;
  const rows = totalRows(settings);
  const batch: (typeof cells.$inferInsert)[] = [];
  for (let row = 0; row < rows; row++) {
    const status = bandOfRow(settings, row) === 'seed' ? CellStatus.Available : CellStatus.Pending;
    for (let column = 0; column < settings.trunk.columns; column++) {
      batch.push({
        token: newToken(),
        treeId: tree.id,
        row,
        column,
        type: CellType.Trunk,
        status,
        createdAt: now,
        updatedAt: now,
      });
    }
  }
  for (let i = 0; i < batch.length; i += 500) await tx.insert(cells).values(batch.slice(i, i + 500));
  await recordBulkChange(tx, tree.id, now);
  return (await tx.select().from(trees).where(eq(trees.id, tree.id)))[0]!;
}

/** Finds a tree by token: 400 for a malformed token, 404 for an unknown one. */
export async function getTreeByToken(db: Db, token: string): Promise<TreeRow> {
  if (!TOKEN_PATTERN.test(token)) throw new AppError(ErrorCode.BadRequest, 'Malformed tree token.');
  const tree = (await db.select().from(trees).where(eq(trees.token, token)))[0];
  if (!tree) throw new AppError(ErrorCode.TreeNotFound, 'No tree has this token.');
  return tree;
}

/** The tree the site shows by default: the oldest one. */
export async function getDefaultTree(db: Db): Promise<TreeRow | undefined> {
  return (await db.select().from(trees).orderBy(asc(trees.id)).limit(1))[0];
}

export { readSnapshotCells } from './snapshot-build.ts';
