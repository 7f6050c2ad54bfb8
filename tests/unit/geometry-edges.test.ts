/**
 * The tree's geometry at its edges (docs/product.md, Growth of the tree): the first and last row of every band, the
 * lowest branch row, the branch area's corners, and branch slots on a grid that also holds squares reserved,
 * pending or available, which are occupied but connect nothing.
 */
import { describe, expect, it } from 'vitest';
import { CellStatus } from '#shared/domain.ts';
import {
  DEFAULT_TREE_SETTINGS as S,
  bandOfRow,
  branchSlotRefusal,
  centreColumn,
  computeBranchSlots,
  countPublishedNeighbours,
  dividerRows,
  gridOfCells,
  inBranchArea,
  isTrunkColumn,
  positionKey,
  positionOfKey,
  totalRows,
  type TreeSettings,
} from '#shared/tree/geometry.ts';

const at = (row: number, column: number, status: number) => ({ row, column, status });
const published = (row: number, column: number) => at(row, column, CellStatus.Published);

describe('bands, first and last rows', () => {
  it('classifies the first and last row of every band', () => {
    const rows = [-1, 0, 2, 3, 32, 33, 34, 35, 44, 45].map((row) => [row, bandOfRow(S, row)]);
    expect(rows).toEqual([
      [-1, null],
      [0, 'crown'],
      [2, 'crown'],
      [3, 'trunk'],
      [32, 'trunk'],
      [33, 'seed'],
      [34, 'seed'],
      [35, 'roots'],
      [44, 'roots'],
      [45, null],
    ]);
    expect(totalRows(S)).toBe(45);
  });

  it('follows the settings', () => {
    const small: TreeSettings = {
      trunk: { columns: 3, seed_rows: 1, root_rows: 2, trunk_rows: 4 },
      crown: { rows: 2 },
      branch: { min_row: 1, max_row: 5, min_column: -4, max_column: 6, start_row: 4 },
    };
    expect([0, 1, 2, 5, 6, 7, 8, 9].map((row) => bandOfRow(small, row))).toEqual([
      'crown',
      'crown',
      'trunk',
      'trunk',
      'seed',
      'roots',
      'roots',
      null,
    ]);
    expect(totalRows(small)).toBe(9);
    expect(dividerRows(small)).toEqual([
      { name: 'trunk', row: 2 },
      { name: 'branch', row: 4 },
      { name: 'seed', row: 6 },
      { name: 'roots', row: 7 },
    ]);
    expect(centreColumn(small)).toBe(1);
    // The branch rows reach into the crown (row 1): those rows are still not branch area.
    expect(inBranchArea(small, 1, -1)).toBe(false);
    expect(inBranchArea(small, 2, -1)).toBe(true);
    expect(inBranchArea(small, 5, 6)).toBe(true);
    expect(inBranchArea(small, 5, 3)).toBe(true);
    expect(inBranchArea(small, 5, 2)).toBe(false);
  });

  it('keeps the centre column out of the branch area even without trunk columns', () => {
    const noTrunk: TreeSettings = { ...S, trunk: { ...S.trunk, columns: 0 } };
    expect(centreColumn(noTrunk)).toBe(0);
    expect(isTrunkColumn(noTrunk, 0)).toBe(false);
    expect(inBranchArea(noTrunk, 10, 0)).toBe(false);
    expect(inBranchArea(noTrunk, 10, 1)).toBe(true);
  });
});

describe('the branch area at its edges', () => {
  it('includes the lowest and highest branch rows and the outermost columns, and nothing past them', () => {
    expect(inBranchArea(S, S.branch.max_row, -1)).toBe(true); // row 26, the lowest branch row
    expect(inBranchArea(S, S.branch.max_row + 1, -1)).toBe(false);
    expect(inBranchArea(S, S.branch.min_row, -1)).toBe(true); // row 3, the first trunk row
    expect(inBranchArea(S, S.branch.min_row - 1, -1)).toBe(false);
    // Above the tree altogether.
    expect(inBranchArea(S, -1, -1)).toBe(false);
    // Branches that start lower than the crown's end: the trunk rows above them are not branch area.
    const lower: TreeSettings = { ...S, branch: { ...S.branch, min_row: 6 } };
    expect(inBranchArea(lower, 5, -1)).toBe(false);
    expect(inBranchArea(lower, 6, -1)).toBe(true);
    expect(inBranchArea(S, 10, S.branch.min_column)).toBe(true);
    expect(inBranchArea(S, 10, S.branch.min_column - 1)).toBe(false);
    expect(inBranchArea(S, 10, S.branch.max_column)).toBe(true);
    expect(inBranchArea(S, 10, S.branch.max_column + 1)).toBe(false);
  });

  it('leaves out each trunk column, and only those', () => {
    expect([-1, 0, 1, 2, 3, 4, 5].map((column) => isTrunkColumn(S, column))).toEqual([
      false,
      true,
      true,
      true,
      true,
      true,
      false,
    ]);
    expect([-1, 0, 1, 2, 3, 4, 5].map((column) => inBranchArea(S, 20, column))).toEqual([
      true,
      false,
      false,
      false,
      false,
      false,
      true,
    ]);
    expect(centreColumn(S)).toBe(2);
  });

  it('offers slots on the lowest branch row and none below it', () => {
    const grid = gridOfCells([published(26, 0), published(27, 0)]);
    expect(branchSlotRefusal(S, grid, 26, -1)).toBe('too_connected');
    const lone = gridOfCells([published(27, 0)]);
    expect(branchSlotRefusal(S, lone, 26, -1)).toBeNull();
    expect(branchSlotRefusal(S, lone, 27, -1)).toBe('outside_branch_area');
    expect(branchSlotRefusal(S, lone, 28, -1)).toBe('outside_branch_area');
    expect(computeBranchSlots(S, lone)).toEqual([{ row: 26, column: -1 }]);
    expect(computeBranchSlots(S, gridOfCells([published(27, 0), published(27, 4)]))).toEqual([
      { row: 26, column: -1 },
      { row: 26, column: 5 },
    ]);
  });
});

describe('branch slots among squares that are not published', () => {
  it('counts only published neighbours, in all eight directions', () => {
    const around = [
      [-1, -1],
      [-1, 0],
      [-1, 1],
      [0, -1],
      [0, 1],
      [1, -1],
      [1, 0],
      [1, 1],
    ];
    for (const [dr, dc] of around) {
      expect(countPublishedNeighbours(gridOfCells([published(10 + dr!, -5 + dc!)]), 10, -5)).toBe(1);
    }
    expect(countPublishedNeighbours(gridOfCells(around.map(([dr, dc]) => published(10 + dr!, -5 + dc!))), 10, -5)).toBe(
      8,
    );
    const others = [CellStatus.Pending, CellStatus.Reserved, CellStatus.Available];
    expect(countPublishedNeighbours(gridOfCells(others.map((s, k) => at(9, -6 + k, s))), 10, -5)).toBe(0);
    // Not itself, and nothing two squares away.
    expect(
      countPublishedNeighbours(gridOfCells([published(10, -5), published(12, -5), published(10, -3)]), 10, -5),
    ).toBe(0);
  });

  it('treats a square of any status as occupied, and only published ones as connecting', () => {
    const cells = [
      published(10, -3),
      at(10, -2, CellStatus.Reserved),
      at(11, -2, CellStatus.Pending),
      at(9, -2, CellStatus.Available),
      at(12, -4, CellStatus.Reserved),
    ];
    const grid = gridOfCells(cells);
    for (const c of cells) expect(branchSlotRefusal(S, grid, c.row, c.column)).toBe('occupied');
    // Beside the reserved square and the published one: one published neighbour, a slot.
    expect(branchSlotRefusal(S, grid, 11, -3)).toBeNull();
    // Beside only the reserved one: not connected.
    expect(branchSlotRefusal(S, grid, 13, -4)).toBe('not_connected');
    expect(computeBranchSlots(S, grid)).toEqual([
      { row: 9, column: -4 },
      { row: 9, column: -3 },
      { row: 10, column: -4 },
      { row: 11, column: -4 },
      { row: 11, column: -3 },
    ]);
  });

  it('lists each slot once, in row then column order, with two published pieces side by side', () => {
    const grid = gridOfCells([published(15, -8), published(15, -7), at(16, -9, CellStatus.Reserved)]);
    const slots = computeBranchSlots(S, grid);
    expect(slots).toEqual([
      { row: 14, column: -9 },
      { row: 14, column: -6 },
      { row: 15, column: -9 },
      { row: 15, column: -6 },
      { row: 16, column: -6 },
    ]);
    for (const slot of slots) expect(branchSlotRefusal(S, grid, slot.row, slot.column)).toBeNull();
    expect(branchSlotRefusal(S, grid, 14, -8)).toBe('too_connected');
    expect(branchSlotRefusal(S, grid, 16, -7)).toBe('too_connected');
  });

  it('has no slots without published squares', () => {
    expect(computeBranchSlots(S, gridOfCells([]))).toEqual([]);
    expect(computeBranchSlots(S, gridOfCells([at(10, -3, CellStatus.Reserved)]))).toEqual([]);
  });
});

describe('positions as single numbers', () => {
  it('gives each position its own key, far columns either side included', () => {
    const positions = [
      [0, 0],
      [0, -1],
      [-1, 0],
      [1, -32768],
      [0, 32767],
      [1_000_000, -5],
      [7, 1],
    ] as const;
    const keys = new Set(positions.map(([row, column]) => positionKey(row, column)));
    expect(keys.size).toBe(positions.length);
    for (const [row, column] of positions) expect(positionOfKey(positionKey(row, column))).toEqual({ row, column });
    expect(positionKey(0, 1) - positionKey(0, 0)).toBe(1);
    expect(positionKey(1, 0)).toBeGreaterThan(positionKey(0, 32767));
  });

  it('answers nothing for an empty position, and visits only the published squares', () => {
    const grid = gridOfCells([published(3, -2), at(3, -1, CellStatus.Reserved), published(4, 7)]);
    expect(grid.statusAt(3, -1)).toBe(CellStatus.Reserved);
    expect(grid.statusAt(3, 0)).toBeUndefined();
    const visited: [number, number][] = [];
    grid.forEachPublished((row, column) => visited.push([row, column]));
    expect(visited).toEqual([
      [3, -2],
      [4, 7],
    ]);
  });
});
