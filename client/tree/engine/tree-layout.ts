/**
 * Pure facts about a decoded tree that the engine needs once per snapshot: a CellGrid over the typed arrays (for the
 * shared branch-slot rule), the world rectangle the camera may roam, and where the first view looks.
 */
import { CellStatus } from '#shared/domain.ts';
import { bandStarts, totalRows, type CellGrid, type TreeSettings } from '#shared/tree/geometry.ts';
import type { TreeCells } from '#shared/tree/snapshot.ts';
import { CELL_PITCH, CELL_SIZE, type Point, type Rect } from './camera.ts';

export function gridOfTreeCells(cells: TreeCells): CellGrid {
  return {
    statusAt(row, column) {
      const i = cells.indexOf.at(row, column);
      return i < 0 ? undefined : cells.status[i];
    },
    forEachPublished(visit) {
      for (let i = 0; i < cells.count; i++) {
        if (cells.status[i] === CellStatus.Published) visit(cells.row[i]!, cells.col[i]!);
      }
    },
  };
}

/** The world rectangle holding every row of the tree and every column of its branch area and cells. */
export function worldBoundsOf(settings: TreeSettings, cells: Pick<TreeCells, 'count' | 'row' | 'col'>): Rect {
  let minColumn = Math.min(0, settings.branch.min_column);
  let maxColumn = Math.max(settings.trunk.columns - 1, settings.branch.max_column);
  let maxRow = totalRows(settings) - 1;
  let minRow = 0;
  for (let i = 0; i < cells.count; i++) {
    const c = cells.col[i]!;
    const r = cells.row[i]!;
    if (c < minColumn) minColumn = c;
    if (c > maxColumn) maxColumn = c;
    if (r > maxRow) maxRow = r;
    if (r < minRow) minRow = r;
  }
  return {
    x: minColumn * CELL_PITCH,
    y: minRow * CELL_PITCH,
    width: (maxColumn - minColumn) * CELL_PITCH + CELL_SIZE,
    height: (maxRow - minRow) * CELL_PITCH + CELL_SIZE,
  };
}

/** The first view's centre: the trunk's middle, across; the seed band's middle, down (the pieces grow from there). */
export function seedViewTarget(settings: TreeSettings): Point {
  const seedTop = bandStarts(settings).seed * CELL_PITCH;
  const seedHeight = settings.trunk.seed_rows * CELL_PITCH - (CELL_PITCH - CELL_SIZE);
  const trunkWidth = settings.trunk.columns * CELL_PITCH - (CELL_PITCH - CELL_SIZE);
  return { x: trunkWidth / 2, y: seedTop + seedHeight / 2 };
}

/** Available squares, cells and branch slots together, in row-then-column order (find-free walks them). */
export function availableSquares(cells: Pick<TreeCells, 'count' | 'row' | 'col' | 'status'>, slots: readonly { row: number; column: number }[]): { row: number; column: number }[] {
  const found: { row: number; column: number }[] = [];
  for (let i = 0; i < cells.count; i++) {
    if (cells.status[i] === CellStatus.Available) found.push({ row: cells.row[i]!, column: cells.col[i]! });
  }
  for (const slot of slots) found.push(slot);
  return found.sort((a, b) => a.row - b.row || a.column - b.column);
}
