import { describe, expect, it } from 'vitest';
import { CellStatus } from '#shared/domain.ts';
import { DEFAULT_TREE_SETTINGS as S } from '#shared/tree/geometry.ts';
import { decodeSnapshot, encodeSnapshot, type SnapshotCell } from '#shared/tree/snapshot.ts';
import {
  CHUNK_SPAN,
  CHUNK_WORLD,
  buildChunkIndex,
  buildChunkLists,
  chunkBounds,
  chunkCoordinate,
  chunkKey,
  chunkKeyOf,
  chunkRangeOf,
  chunksInRange,
  ChunkIndex,
  inRange,
  positionsOf,
  positionsOfPairs,
  type CellPositions,
} from '#client/tree/engine/chunk-index.ts';
import { BranchSlots } from '#client/tree/engine/branch-slots.ts';
import { updateTree } from '#client/tree/engine/tree-update.ts';
import { computeBranchSlots } from '#shared/tree/geometry.ts';
import { encodeChanges } from '#shared/tree/changes.ts';
import { gridOfTreeCells, seedViewTarget, worldBoundsOf } from '#shared/tree/layout.ts';

function positions(list: [number, number][]) {
  return { count: list.length, row: list.map((p) => p[0]), col: list.map((p) => p[1]) };
}

describe('chunk index', () => {
  it('groups cells by 16 × 16 squares of positions, negative columns included', () => {
    const index = buildChunkIndex(
      positions([
        [0, 0],
        [15, 15],
        [16, 0],
        [0, -1],
        [3, -16],
        [3, -17],
      ]),
    );
    expect(index.get(chunkKey(0, 0))?.cells).toEqual([0, 1]);
    expect(index.get(chunkKey(1, 0))?.cells).toEqual([2]);
    expect(index.get(chunkKey(0, -1))?.cells).toEqual([3, 4]);
    expect(index.get(chunkKey(0, -2))?.cells).toEqual([5]);
    expect(index.size).toBe(4);
  });

  it('files branch slots with the cells of their chunk', () => {
    const index = buildChunkIndex(positions([[0, 0]]), [
      { row: 1, column: -1 },
      { row: 2, column: 3 },
    ]);
    expect(index.get(chunkKey(0, 0))).toMatchObject({ cells: [0], slots: [1] });
    expect(index.get(chunkKey(0, -1))).toMatchObject({ cells: [], slots: [0] });
  });

  it('finds the chunks a view touches without looking at the others', () => {
    const index = buildChunkIndex(
      positions([
        [0, 0],
        [40, 0],
        [0, 40],
        [200, 200],
      ]),
    );
    const view = { x: 10, y: 10, width: CHUNK_WORLD, height: 100 };
    const range = chunkRangeOf(view);
    expect(range).toEqual({ rowFrom: 0, rowTo: 0, columnFrom: 0, columnTo: 1 });
    expect(chunksInRange(index, range).map((c) => c.key)).toEqual([chunkKey(0, 0)]);
    const wide = chunkRangeOf(view, CHUNK_WORLD * 3);
    expect(
      chunksInRange(index, wide)
        .map((c) => c.key)
        .sort(),
    ).toEqual([chunkKey(0, 0), chunkKey(2, 0), chunkKey(0, 2)].sort());
  });

  it('lists the nearest chunks first so the middle of the screen is built first', () => {
    const list: [number, number][] = [];
    for (let r = 0; r < 5; r++) for (let c = 0; c < 5; c++) list.push([r * CHUNK_SPAN, c * CHUNK_SPAN]);
    const index = buildChunkIndex(positions(list));
    const ordered = chunksInRange(index, { rowFrom: 0, rowTo: 4, columnFrom: 0, columnTo: 4 });
    expect(ordered[0]).toMatchObject({ chunkRow: 2, chunkColumn: 2 });
    expect(ordered).toHaveLength(25);
  });

  it('knows where a chunk lies and whether it is in a range', () => {
    expect(chunkBounds(1, -1)).toEqual({ x: -CHUNK_WORLD, y: CHUNK_WORLD, width: CHUNK_WORLD, height: CHUNK_WORLD });
    expect(inRange({ rowFrom: 0, rowTo: 1, columnFrom: -1, columnTo: 0 }, 1, -1)).toBe(true);
    expect(inRange({ rowFrom: 0, rowTo: 1, columnFrom: -1, columnTo: 0 }, 2, -1)).toBe(false);
  });
});

const cell = (row: number, column: number, status: number): SnapshotCell => ({
  row,
  column,
  status,
  type: 1,
  color: status === CellStatus.Published ? 0x336699 : null,
  token: `t${row}x${column}`,
  thumb: null,
});

interface Grouped {
  cells: number[];
  slots: number[];
}

/** The chunks as the page used to list them: every cell and slot filed in a map, one by one. */
function listedOneByOne(cells: CellPositions, slots: CellPositions): Map<number, Grouped> {
  const chunks = new Map<number, Grouped>();
  const file = (row: number, column: number): Grouped => {
    const key = chunkKey(chunkCoordinate(row), chunkCoordinate(column));
    if (!chunks.has(key)) chunks.set(key, { cells: [], slots: [] });
    return chunks.get(key)!;
  };
  for (let i = 0; i < cells.count; i++) file(cells.row[i]!, cells.col[i]!).cells.push(i);
  for (let i = 0; i < slots.count; i++) file(slots.row[i]!, slots.col[i]!).slots.push(i);
  return chunks;
}

/** Asks the index for every chunk the map has, and checks it has no others. */
function expectSameChunks(index: ChunkIndex, expected: Map<number, Grouped>): void {
  expect(index.size).toBe(expected.size);
  for (const [key, grouped] of expected) expect(index.get(key)).toMatchObject(grouped);
}

/** A slot list as the snapshot carries it: (row, column) pairs. */
function pairsOf(list: { row: number; column: number }[]): Int32Array {
  return Int32Array.from(list.flatMap((slot) => [slot.row, slot.column]));
}

/** A tree of the trunk over 60 rows, published from row 20, and branch pieces left of it (negative columns). */
function branchingTree() {
  const list: SnapshotCell[] = [];
  for (let row = 0; row < 60; row++) {
    for (let column = 0; column < S.trunk.columns; column++)
      list.push(cell(row, column, row >= 20 ? CellStatus.Published : CellStatus.Pending));
    if (row > 22 && row < 26) list.push(cell(row, -1, CellStatus.Published));
    if (row === 20) for (let column = -15; column < 0; column++) list.push(cell(row, column, CellStatus.Published));
  }
  list.sort((a, b) => a.row - b.row || a.column - b.column);
  const cells = decodeSnapshot(encodeSnapshot({ token: 'tree', version: 1, settings: S }, list));
  return { settings: S, cells };
}

describe('chunk lists built in the worker', () => {
  const tree = branchingTree();
  const slotList = computeBranchSlots(tree.settings, gridOfTreeCells(tree.cells));
  const slots = positionsOfPairs(pairsOf(slotList));

  it('hold the same chunks as listing cell by cell, negative columns and branch slots included', () => {
    expect(slotList.some((slot) => slot.column < 0)).toBe(true);
    const lists = buildChunkLists(tree.cells, slots);
    expectSameChunks(new ChunkIndex(lists, tree.cells), listedOneByOne(tree.cells, slots));
    expect(Array.from(lists.keys)).toEqual(Array.from(lists.keys).sort((a, b) => a - b));
  });

  it('hold cells given out of row order in their chunks, in index order', () => {
    const scattered = positions([
      [40, 3],
      [0, -20],
      [17, 0],
      [0, 5],
      [40, -1],
      [1, -20],
    ]);
    expectSameChunks(new ChunkIndex(buildChunkLists(scattered), scattered), listedOneByOne(scattered, positionsOf([])));
  });

  it('are empty for an empty tree, and the index has no chunk until a cell lands', () => {
    const index = new ChunkIndex(buildChunkLists(positions([]), positionsOf([])), positions([]));
    expect(index.size).toBe(0);
    expect(index.get(chunkKey(0, 0))).toBeUndefined();
    expect(index.entryAt(3, -2)).toMatchObject({ made: true, entry: { chunkRow: 0, chunkColumn: -1, cells: [] } });
    expect(index.entryAt(15, -16)).toMatchObject({ made: false });
    expect(index.size).toBe(1);
  });

  it('cross to the page as transferable buffers', () => {
    const lists = buildChunkLists(tree.cells, slots);
    expect(lists.cellOrder).toBeNull();
    const buffers = [lists.keys, lists.cellsFrom, lists.cellsTo, lists.slotStart, lists.slots].map((a) => a.buffer);
    const crossed = structuredClone(lists, { transfer: buffers });
    expect(lists.cellsFrom.length).toBe(0);
    expectSameChunks(new ChunkIndex(crossed, tree.cells), listedOneByOne(tree.cells, slots));
  });

  it('file cells added later in the chunk that holds them, made or listed', () => {
    const cells = tree.cells;
    const state = {
      cells,
      settings: tree.settings,
      slots: new BranchSlots(slotList),
      index: new ChunkIndex(buildChunkLists(cells, slots), cells),
    };
    const listed = chunkKeyOf(cells.row[0]!, cells.col[0]!);
    const farRow = cells.row[cells.count - 1]! + 3 * CHUNK_SPAN;
    const changes = encodeChanges(1, 2, [
      cell(cells.row[0]!, tree.settings.branch.min_column - 1, CellStatus.Pending),
      cell(farRow, -40, CellStatus.Published),
    ]);
    const { added, newChunks } = updateTree(state, changes);
    expect(added).toEqual([cells.count, cells.count + 1]);
    expect(newChunks).toBe(true);
    const near = state.index.get(chunkKeyOf(cells.row[0]!, tree.settings.branch.min_column - 1))!;
    expect(near.cells).toContain(cells.count);
    expect(state.index.get(chunkKeyOf(farRow, -40))).toMatchObject({ cells: [cells.count + 1] });
    expect(state.index.get(listed)!.cells[0]).toBe(0);
  });
});

describe('tree layout', () => {
  const cells = decodeSnapshot(
    encodeSnapshot({ token: 'tree', version: 1, settings: S }, [
      cell(10, 0, CellStatus.Published),
      cell(10, 1, CellStatus.Pending),
      cell(40, 25, CellStatus.Available),
    ]),
  );

  it('answers the shared branch-slot rule over the decoded arrays', () => {
    const grid = gridOfTreeCells(cells);
    expect(grid.statusAt(10, 0)).toBe(CellStatus.Published);
    expect(grid.statusAt(10, 2)).toBeUndefined();
    const seen: [number, number][] = [];
    grid.forEachPublished((r, c) => seen.push([r, c]));
    expect(seen).toEqual([[10, 0]]);
  });

  it('bounds the world by the branch area and any cell outside it', () => {
    const bounds = worldBoundsOf(S, cells);
    expect(bounds.x).toBe(S.branch.min_column * 110);
    expect(bounds.x + bounds.width).toBe(25 * 110 + 100);
    expect(bounds.y).toBe(0);
    expect(bounds.y + bounds.height).toBe(44 * 110 + 100);
  });

  it('opens on the middle of the trunk and of the seed band', () => {
    expect(seedViewTarget(S)).toEqual({ x: 270, y: 33 * 110 + 105 });
  });
});
