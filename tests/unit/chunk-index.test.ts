import { describe, expect, it } from 'vitest';
import { CellStatus } from '#shared/domain.ts';
import { DEFAULT_TREE_SETTINGS as S } from '#shared/tree/geometry.ts';
import { decodeSnapshot, encodeSnapshot, type SnapshotCell } from '#shared/tree/snapshot.ts';
import {
  CHUNK_SPAN,
  CHUNK_WORLD,
  buildChunkIndex,
  chunkBounds,
  chunkKey,
  chunkRangeOf,
  chunksInRange,
  inRange,
} from '#client/tree/engine/chunk-index.ts';
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
    expect(index.chunks.get(chunkKey(0, 0))?.cells).toEqual([0, 1]);
    expect(index.chunks.get(chunkKey(1, 0))?.cells).toEqual([2]);
    expect(index.chunks.get(chunkKey(0, -1))?.cells).toEqual([3, 4]);
    expect(index.chunks.get(chunkKey(0, -2))?.cells).toEqual([5]);
    expect(index.chunks.size).toBe(4);
  });

  it('files branch slots with the cells of their chunk', () => {
    const index = buildChunkIndex(positions([[0, 0]]), [
      { row: 1, column: -1 },
      { row: 2, column: 3 },
    ]);
    expect(index.chunks.get(chunkKey(0, 0))).toMatchObject({ cells: [0], slots: [1] });
    expect(index.chunks.get(chunkKey(0, -1))).toMatchObject({ cells: [], slots: [0] });
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

describe('tree layout', () => {
  const cell = (row: number, column: number, status: number): SnapshotCell => ({
    row,
    column,
    status,
    type: 1,
    color: status === CellStatus.Published ? 0x336699 : null,
    token: `t${row}x${column}`,
    thumb: null,
  });
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
