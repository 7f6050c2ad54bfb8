/**
 * Changes applied to a tree on the canvas in place, without PixiJS: the branch slots found round the
 * changed cells equal the slots of the whole tree found afresh, the chunk index equals one built afresh, and the
 * chunks marked for drawing again are exactly those holding a changed cell or a slot that came or went.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CellStatus, CellType } from '#shared/domain.ts';
import { encodeChanges } from '#shared/tree/changes.ts';
import { DEFAULT_TREE_SETTINGS as S, computeBranchSlots, isTrunkColumn, positionKey } from '#shared/tree/geometry.ts';
import { decodeSnapshot, encodeSnapshot, type SnapshotCell, type TreeCells } from '#shared/tree/snapshot.ts';
import { BranchSlots } from '#client/tree/engine/branch-slots.ts';
import { buildChunkIndex, chunkKeyOf } from '#client/tree/engine/chunk-index.ts';
import { ABSENT_STATUS, engineGrid } from '#client/tree/engine/tree-grid.ts';
import { updateTree, type TreeState } from '#client/tree/engine/tree-update.ts';

const header = { token: 'tree-token-0123456789', version: 1, settings: S };

function snapshotCell(row: number, column: number, status: number): SnapshotCell {
  const type = isTrunkColumn(S, column) ? CellType.Trunk : CellType.Branch;
  return {
    row,
    column,
    status,
    type,
    color: status === CellStatus.Published ? 0x336699 : null,
    token: `t${row}_${column}`,
    thumb: null,
  };
}

/** A small tree: the trunk's columns over every row, half of them published, and a few branch pieces. */
function startingTree(): TreeCells {
  const cells: SnapshotCell[] = [];
  for (let row = 0; row < 42; row++) {
    for (let column = 0; column < S.trunk.columns; column++)
      cells.push(snapshotCell(row, column, row > 20 ? CellStatus.Published : CellStatus.Pending));
    if (row > 22 && row < 26) cells.push(snapshotCell(row, -1, CellStatus.Published));
  }
  cells.sort((a, b) => a.row - b.row || a.column - b.column);
  return decodeSnapshot(encodeSnapshot(header, cells));
}

function stateOf(cells: TreeCells): TreeState {
  const slots = new BranchSlots(computeBranchSlots(S, engineGrid(cells)));
  return { cells, settings: S, slots, index: buildChunkIndex(cells, slots.positions) };
}

const slotKeys = (list: readonly { row: number; column: number }[]) =>
  new Set(list.map((s) => positionKey(s.row, s.column)));

/** A change: a position near the tree (new cells included) and a status (ABSENT hides a cell, as the replay does). */
const changeArbitrary = fc.record({
  row: fc.integer({ min: 0, max: 41 }),
  column: fc.integer({ min: -8, max: 10 }),
  status: fc.constantFrom(
    CellStatus.Pending,
    CellStatus.Reserved,
    CellStatus.Published,
    CellStatus.Available,
    ABSENT_STATUS,
  ),
});

function batchOf(list: { row: number; column: number; status: number }[]) {
  // One change a position per batch, as the server's log answers.
  const unique = new Map(list.map((c) => [positionKey(c.row, c.column), c]));
  return encodeChanges(
    1,
    2,
    [...unique.values()].map((c) => snapshotCell(c.row, c.column, c.status)),
  );
}

describe('changes applied in place', () => {
  it('keeps the branch slots equal to the whole tree’s after random changes', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(changeArbitrary, { minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 8 }),
        (batches) => {
          const state = stateOf(startingTree());
          for (const batch of batches) {
            updateTree(state, batchOf(batch));
            const fresh = computeBranchSlots(S, engineGrid(state.cells));
            expect(state.slots.list()).toEqual(fresh);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('keeps the chunk index equal to one built afresh', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(changeArbitrary, { minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 6 }),
        (batches) => {
          const state = stateOf(startingTree());
          for (const batch of batches) updateTree(state, batchOf(batch));
          const fresh = buildChunkIndex(state.cells, state.slots.list());
          // Every chunk either index can hold: those of the cells and of every position that was ever a slot.
          const keys = new Set(state.slots.positions.map((s) => chunkKeyOf(s.row, s.column)));
          for (let i = 0; i < state.cells.count; i++) keys.add(chunkKeyOf(state.cells.row[i]!, state.cells.col[i]!));
          for (const key of keys) {
            const kept = state.index.get(key);
            const entry = fresh.get(key);
            expect([...(kept?.cells ?? [])].sort((a, b) => a - b)).toEqual(entry?.cells ?? []);
            expect(slotKeys((kept?.slots ?? []).map((s) => state.slots.positions[s]!))).toEqual(
              slotKeys((entry?.slots ?? []).map((s) => state.slots.list()[s]!)),
            );
          }
        },
      ),
      { numRuns: 100 },
    );
  });

  it('marks exactly the chunks holding a changed cell or a slot that came or went', () => {
    fc.assert(
      fc.property(fc.array(changeArbitrary, { minLength: 1, maxLength: 30 }), (batch) => {
        const state = stateOf(startingTree());
        const before = slotKeys(state.slots.list());
        const changes = batchOf(batch);
        const { dirty } = updateTree(state, changes);
        const after = slotKeys(state.slots.list());
        const expected = new Set<number>();
        for (let k = 0; k < changes.count; k++) expected.add(chunkKeyOf(changes.row[k]!, changes.col[k]!));
        for (const key of [...before].filter((k) => !after.has(k)).concat([...after].filter((k) => !before.has(k)))) {
          const row = Math.floor(key / 65536);
          expected.add(chunkKeyOf(row, key - row * 65536 - 32768));
        }
        expect([...dirty].sort()).toEqual([...expected].sort());
      }),
      { numRuns: 200 },
    );
  });

  it('grows the tree with cells it did not have, and finds them by position', () => {
    const state = stateOf(startingTree());
    const count = state.cells.count;
    const { added } = updateTree(state, batchOf([{ row: 30, column: -6, status: CellStatus.Published }]));
    expect(added).toEqual([count]);
    expect(state.cells.indexOf.at(30, -6)).toBe(count);
    expect(state.index.get(chunkKeyOf(30, -6))?.cells).toContain(count);
  });
});
