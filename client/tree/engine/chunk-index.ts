/**
 * Chunks: the tree's positions grouped in fixed squares of CHUNK_SPAN × CHUNK_SPAN, built once after the snapshot
 * is decoded. Culling asks which chunk keys a view rectangle covers and looks them up here, so its cost follows the
 * screen's size, never the tree's.
 */
import { positionKey } from '#shared/tree/geometry.ts';
import { CELL_PITCH, type Rect } from '#shared/tree/camera.ts';

/** Positions per chunk side: 16 × 16 squares, 1,760 world pixels across. */
export const CHUNK_SPAN = 16;
export const CHUNK_WORLD = CHUNK_SPAN * CELL_PITCH;

export interface ChunkEntry {
  key: number;
  chunkRow: number;
  chunkColumn: number;
  /** Indices into the decoded snapshot's arrays. */
  cells: number[];
  /** Indices into the branch-slot list. */
  slots: number[];
}

export interface ChunkIndex {
  chunks: Map<number, ChunkEntry>;
}

export interface ChunkRange {
  rowFrom: number;
  rowTo: number;
  columnFrom: number;
  columnTo: number;
}

export function chunkCoordinate(position: number): number {
  return Math.floor(position / CHUNK_SPAN);
}

export function chunkKey(chunkRow: number, chunkColumn: number): number {
  return positionKey(chunkRow, chunkColumn);
}

/** What the index needs of the decoded snapshot (TreeCells satisfies it). */
export interface CellPositions {
  count: number;
  row: ArrayLike<number>;
  col: ArrayLike<number>;
}

export function buildChunkIndex(
  cells: CellPositions,
  slots: readonly { row: number; column: number }[] = [],
): ChunkIndex {
  const chunks = new Map<number, ChunkEntry>();
  // Cells come row by row: the run of a row inside one chunk reuses the last entry without a lookup.
  let last: ChunkEntry | null = null;
  const entryFor = (row: number, column: number): ChunkEntry => {
    const chunkRow = chunkCoordinate(row);
    const chunkColumn = chunkCoordinate(column);
    if (last && last.chunkRow === chunkRow && last.chunkColumn === chunkColumn) return last;
    const key = chunkKey(chunkRow, chunkColumn);
    let entry = chunks.get(key);
    if (!entry) {
      entry = { key, chunkRow, chunkColumn, cells: [], slots: [] };
      chunks.set(key, entry);
    }
    last = entry;
    return entry;
  };
  for (let i = 0; i < cells.count; i++) entryFor(cells.row[i]!, cells.col[i]!).cells.push(i);
  for (let i = 0; i < slots.length; i++) entryFor(slots[i]!.row, slots[i]!.column).slots.push(i);
  return { chunks };
}

/** The chunks a world rectangle touches, widened by `margin` world pixels on every side. */
export function chunkRangeOf(rect: Rect, margin = 0): ChunkRange {
  return {
    rowFrom: Math.floor((rect.y - margin) / CHUNK_WORLD),
    rowTo: Math.floor((rect.y + rect.height + margin) / CHUNK_WORLD),
    columnFrom: Math.floor((rect.x - margin) / CHUNK_WORLD),
    columnTo: Math.floor((rect.x + rect.width + margin) / CHUNK_WORLD),
  };
}

export function inRange(range: ChunkRange, chunkRow: number, chunkColumn: number): boolean {
  return (
    chunkRow >= range.rowFrom &&
    chunkRow <= range.rowTo &&
    chunkColumn >= range.columnFrom &&
    chunkColumn <= range.columnTo
  );
}

/** World rectangle of a chunk. */
export function chunkBounds(chunkRow: number, chunkColumn: number): Rect {
  return { x: chunkColumn * CHUNK_WORLD, y: chunkRow * CHUNK_WORLD, width: CHUNK_WORLD, height: CHUNK_WORLD };
}

/** Existing chunks of a range, nearest to the range's centre first (the order they are built in). */
export function chunksInRange(index: ChunkIndex, range: ChunkRange): ChunkEntry[] {
  const found: ChunkEntry[] = [];
  for (let r = range.rowFrom; r <= range.rowTo; r++) {
    for (let c = range.columnFrom; c <= range.columnTo; c++) {
      const entry = index.chunks.get(chunkKey(r, c));
      if (entry) found.push(entry);
    }
  }
  const midRow = (range.rowFrom + range.rowTo) / 2;
  const midColumn = (range.columnFrom + range.columnTo) / 2;
  const distance = (e: ChunkEntry) => (e.chunkRow - midRow) ** 2 + (e.chunkColumn - midColumn) ** 2;
  return found.sort((a, b) => distance(a) - distance(b));
}

/** The chunk key holding a position. */
export function chunkKeyOf(row: number, column: number): number {
  return chunkKey(chunkCoordinate(row), chunkCoordinate(column));
}

/** The entry of the chunk holding a position, made (empty) if the chunk had none; `made` tells which. */
export function entryAt(index: ChunkIndex, row: number, column: number): { entry: ChunkEntry; made: boolean } {
  const chunkRow = chunkCoordinate(row);
  const chunkColumn = chunkCoordinate(column);
  const key = chunkKey(chunkRow, chunkColumn);
  const found = index.chunks.get(key);
  if (found) return { entry: found, made: false };
  const entry: ChunkEntry = { key, chunkRow, chunkColumn, cells: [], slots: [] };
  index.chunks.set(key, entry);
  return { entry, made: true };
}
