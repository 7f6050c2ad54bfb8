/**
 * The engine's view of a decoded tree as a CellGrid (shared/tree/geometry.ts), with one status of its own: ABSENT, a
 * cell kept in the arrays but not drawn and not there for the slot rule (the growth replay hides branch pieces
 * published later that way, since cells cannot be removed from the arrays in place).
 */
import { CellStatus } from '#shared/domain.ts';
import type { CellGrid } from '#shared/tree/geometry.ts';
import type { TreeCells } from '#shared/tree/snapshot.ts';

/** A status digit no server sends: the cell is not there (yet). */
export const ABSENT_STATUS = 9;

/** The cell index at a position, or -1 when there is none or it is absent. */
export function presentIndexAt(cells: TreeCells, row: number, column: number): number {
  const i = cells.indexOf.at(row, column);
  return i >= 0 && cells.status[i] !== ABSENT_STATUS ? i : -1;
}

export function engineGrid(cells: TreeCells): CellGrid {
  return {
    statusAt(row, column) {
      const i = presentIndexAt(cells, row, column);
      return i < 0 ? undefined : cells.status[i];
    },
    forEachPublished(visit) {
      for (let i = 0; i < cells.count; i++) {
        if (cells.status[i] === CellStatus.Published) visit(cells.row[i]!, cells.col[i]!);
      }
    },
  };
}
