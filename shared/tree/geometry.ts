/**
 * Tree geometry (docs/product.md, Growth of the tree): bands, the branch area and the branch-slot rule. One module
 * used by the canvas to draw slots and by the server to check a branch reservation, so both always agree.
 */
import { CellStatus } from '../domain.ts';

export interface TreeSettings {
  trunk: { columns: number; seed_rows: number; root_rows: number; trunk_rows: number };
  crown: { rows: number };
  branch: { min_row: number; max_row: number; min_column: number; max_column: number; start_row: number };
}

export const DEFAULT_TREE_SETTINGS: TreeSettings = {
  trunk: { columns: 5, seed_rows: 2, root_rows: 10, trunk_rows: 30 },
  crown: { rows: 3 },
  branch: { min_row: 3, max_row: 26, min_column: -15, max_column: 19, start_row: 26 },
};

export type Band = 'crown' | 'trunk' | 'seed' | 'roots';

/** First row of each band, top to bottom, and the row after the last band. */
export function bandStarts(settings: TreeSettings) {
  const crown = 0;
  const trunk = crown + settings.crown.rows;
  const seed = trunk + settings.trunk.trunk_rows;
  const roots = seed + settings.trunk.seed_rows;
  const end = roots + settings.trunk.root_rows;
  return { crown, trunk, seed, roots, end };
}

export function totalRows(settings: TreeSettings): number {
  return bandStarts(settings).end;
}

export function bandOfRow(settings: TreeSettings, row: number): Band | null {
  const b = bandStarts(settings);
  if (row < b.crown || row >= b.end) return null;
  if (row < b.trunk) return 'crown';
  if (row < b.seed) return 'trunk';
  if (row < b.roots) return 'seed';
  return 'roots';
}

/** Rows at which the canvas draws its four divider bands: seed, root and trunk starts, and branch.start_row. */
export function dividerRows(settings: TreeSettings): { name: 'seed' | 'roots' | 'trunk' | 'branch'; row: number }[] {
  const b = bandStarts(settings);
  return [
    { name: 'trunk', row: b.trunk },
    { name: 'branch', row: settings.branch.start_row },
    { name: 'seed', row: b.seed },
    { name: 'roots', row: b.roots },
  ];
}

export function isTrunkColumn(settings: TreeSettings, column: number): boolean {
  return column >= 0 && column < settings.trunk.columns;
}

export function centreColumn(settings: TreeSettings): number {
  return Math.floor(settings.trunk.columns / 2);
}

/** The branch area: branch rows and columns, minus the trunk columns, the centre column and the crown band. */
export function inBranchArea(settings: TreeSettings, row: number, column: number): boolean {
  const { branch } = settings;
  if (row < branch.min_row || row > branch.max_row) return false;
  if (column < branch.min_column || column > branch.max_column) return false;
  if (isTrunkColumn(settings, column) || column === centreColumn(settings)) return false;
  // Outside the crown band (rows 0 to crown.rows - 1), asked without bandOfRow's object: the branch slots of a
  // ten-million-cell tree ask this 70 million times (decision 045).
  return row < 0 || row >= settings.crown.rows;
}

/** Grid of existing cells, as both the client's decoded snapshot and the server's query can offer it. */
export interface CellGrid {
  statusAt: (row: number, column: number) => number | undefined;
  /** Every published cell, for the slot scan. */
  forEachPublished: (visit: (row: number, column: number) => void) => void;
}

const NEIGHBOURS: readonly (readonly [number, number])[] = [
  [-1, -1],
  [-1, 0],
  [-1, 1],
  [0, -1],
  [0, 1],
  [1, -1],
  [1, 0],
  [1, 1],
];

export function countPublishedNeighbours(grid: CellGrid, row: number, column: number): number {
  let count = 0;
  for (const [dr, dc] of NEIGHBOURS) {
    // Stryker disable next-line ArithmeticOperator: NEIGHBOURS is symmetric: minus visits the same squares
    if (grid.statusAt(row + dr, column + dc) === CellStatus.Published) count++;
  }
  return count;
}

export type BranchSlotRefusal = 'outside_branch_area' | 'occupied' | 'not_connected' | 'too_connected';

/** Why (row, column) is not a branch slot, or null when it is one. */
export function branchSlotRefusal(
  settings: TreeSettings,
  grid: CellGrid,
  row: number,
  column: number,
): BranchSlotRefusal | null {
  if (!inBranchArea(settings, row, column)) return 'outside_branch_area';
  if (grid.statusAt(row, column) !== undefined) return 'occupied';
  const touching = countPublishedNeighbours(grid, row, column);
  if (touching === 0) return 'not_connected';
  if (touching > 1) return 'too_connected';
  return null;
}

/**
 * Every branch slot: free positions in the branch area touching exactly one published cell. Costs
 * O(published cells × 8), never a scan of the whole area.
 */
export function computeBranchSlots(settings: TreeSettings, grid: CellGrid): { row: number; column: number }[] {
  const touches = new Map<number, number>();
  grid.forEachPublished((row, column) => {
    for (const [dr, dc] of NEIGHBOURS) {
      // Stryker disable next-line ArithmeticOperator: NEIGHBOURS is symmetric: row - dr visits the same squares
      const r = row + dr;
      // Stryker disable next-line ArithmeticOperator: as above, for columns
      const c = column + dc;
      if (!inBranchArea(settings, r, c) || grid.statusAt(r, c) !== undefined) continue;
      const key = positionKey(r, c);
      touches.set(key, (touches.get(key) ?? 0) + 1);
    }
  });
  const slots: { row: number; column: number }[] = [];
  for (const [key, count] of touches) {
    if (count === 1) slots.push(positionOfKey(key));
  }
  slots.sort((a, b) => a.row - b.row || a.column - b.column);
  return slots;
}

const COLUMN_OFFSET = 1 << 15;
const ROW_FACTOR = 1 << 16;

/** A single number for a (row, column) pair; columns may be negative. */
export function positionKey(row: number, column: number): number {
  return row * ROW_FACTOR + (column + COLUMN_OFFSET);
}

export function positionOfKey(key: number): { row: number; column: number } {
  const row = Math.floor(key / ROW_FACTOR);
  return { row, column: key - row * ROW_FACTOR - COLUMN_OFFSET };
}

/** A CellGrid over a plain list of cells, for the server and for tests. */
export function gridOfCells(cells: Iterable<{ row: number; column: number; status: number }>): CellGrid {
  const statusByKey = new Map<number, number>();
  const published: number[] = [];
  for (const cell of cells) {
    const key = positionKey(cell.row, cell.column);
    statusByKey.set(key, cell.status);
    if (cell.status === CellStatus.Published) published.push(key);
  }
  return {
    statusAt: (row, column) => statusByKey.get(positionKey(row, column)),
    forEachPublished(visit) {
      for (const key of published) {
        const p = positionOfKey(key);
        visit(p.row, p.column);
      }
    },
  };
}
