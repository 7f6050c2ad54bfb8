import { describe, expect, it } from 'vitest';
import { CellStatus } from '#shared/domain.ts';
import {
  DEFAULT_TREE_SETTINGS as S,
  bandOfRow,
  bandStarts,
  branchSlotRefusal,
  computeBranchSlots,
  dividerRows,
  gridOfCells,
  inBranchArea,
  positionKey,
  positionOfKey,
} from '#shared/tree/geometry.ts';

const published = (row: number, column: number) => ({ row, column, status: CellStatus.Published });

describe('tree bands', () => {
  it('stacks crown, trunk, seed and roots from the top', () => {
    expect(bandStarts(S)).toEqual({ crown: 0, trunk: 3, seed: 33, roots: 35, end: 45 });
    expect(bandOfRow(S, 0)).toBe('crown');
    expect(bandOfRow(S, 3)).toBe('trunk');
    expect(bandOfRow(S, 34)).toBe('seed');
    expect(bandOfRow(S, 44)).toBe('roots');
    expect(bandOfRow(S, 45)).toBeNull();
    expect(bandOfRow(S, -1)).toBeNull();
  });

  it('puts the four dividers at the trunk, branch start, seed and roots rows', () => {
    expect(dividerRows(S).map((d) => [d.name, d.row])).toEqual([
      ['trunk', 3],
      ['branch', 26],
      ['seed', 33],
      ['roots', 35],
    ]);
  });
});

describe('branch area', () => {
  it('excludes the trunk columns, the crown band and anything outside the branch bounds', () => {
    expect(inBranchArea(S, 10, -1)).toBe(true);
    expect(inBranchArea(S, 10, 5)).toBe(true);
    expect(inBranchArea(S, 10, 0)).toBe(false);
    expect(inBranchArea(S, 10, 2)).toBe(false);
    expect(inBranchArea(S, 2, -1)).toBe(false); // crown
    expect(inBranchArea(S, 27, -1)).toBe(false); // below branch.max_row
    expect(inBranchArea(S, 10, -16)).toBe(false);
    expect(inBranchArea(S, 10, 20)).toBe(false);
    expect(inBranchArea(S, 10, 19)).toBe(true);
  });
});

describe('branch slots', () => {
  it('is a free position touching exactly one published cell', () => {
    const grid = gridOfCells([published(10, 0)]);
    expect(branchSlotRefusal(S, grid, 10, -1)).toBeNull();
    expect(branchSlotRefusal(S, grid, 11, -1)).toBeNull(); // a corner counts as a connection point
  });

  it('refuses a position touching no published cell, or two', () => {
    const grid = gridOfCells([published(10, 0), published(12, 0)]);
    expect(branchSlotRefusal(S, grid, 10, -2)).toBe('not_connected');
    expect(branchSlotRefusal(S, grid, 11, -1)).toBe('too_connected');
  });

  it('refuses an occupied position, the trunk and the crown', () => {
    const grid = gridOfCells([published(10, 0), { row: 10, column: -1, status: CellStatus.Reserved }, published(3, 0)]);
    expect(branchSlotRefusal(S, grid, 10, -1)).toBe('occupied');
    expect(branchSlotRefusal(S, grid, 9, 1)).toBe('outside_branch_area');
    expect(branchSlotRefusal(S, grid, 2, -1)).toBe('outside_branch_area');
  });

  it('ignores cells that are not published', () => {
    const grid = gridOfCells([{ row: 10, column: 0, status: CellStatus.Available }]);
    expect(branchSlotRefusal(S, grid, 10, -1)).toBe('not_connected');
  });

  it('lists the same slots the single-position check accepts', () => {
    const cells = [published(10, 0), published(11, 0), published(20, 4), published(20, 5), published(5, 4)];
    const grid = gridOfCells(cells);
    const slots = computeBranchSlots(S, grid);
    expect(slots.length).toBeGreaterThan(0);
    for (const slot of slots) expect(branchSlotRefusal(S, grid, slot.row, slot.column)).toBeNull();
    // Every accepted position near the published cells is listed.
    for (let row = 0; row < 30; row++) {
      for (let column = -3; column < 9; column++) {
        const listed = slots.some((s) => s.row === row && s.column === column);
        expect(listed).toBe(branchSlotRefusal(S, grid, row, column) === null);
      }
    }
  });

  it('round-trips positions through their keys, negative columns included', () => {
    for (const [row, column] of [
      [0, 0],
      [3, -15],
      [28_000, 19],
      [44, -1],
    ] as const) {
      expect(positionOfKey(positionKey(row, column))).toEqual({ row, column });
    }
  });
});
