/**
 * Chunks: the tree's positions grouped in fixed squares of CHUNK_SPAN × CHUNK_SPAN. The snapshot's worker lists them
 * once (buildChunkLists: where each chunk's cells lie in the row-ordered cells, and its branch slots, in typed arrays
 * handed over without copying), so the page never walks a large tree's cells for them. Culling asks which chunk keys a
 * view rectangle covers and looks them up (ChunkIndex), so its cost follows the screen's size, never the tree's.
 */
import { bisect } from '#shared/bisect.ts';
import { positionKey, positionOfKey } from '#shared/tree/geometry.ts';
import { CELL_PITCH, type Rect } from '#shared/tree/camera.ts';

const CHUNK_SHIFT = 4;
/** Positions per chunk side: 16 × 16 squares, 1,760 world pixels across. */
export const CHUNK_SPAN = 1 << CHUNK_SHIFT;
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

/**
 * Every chunk holding a cell or a branch slot, as the worker hands it over: chunk k has the key keys[k]. Its cells are
 * among those of its chunk row, which the walk in row order meets together: the walk's positions cellsFrom[k] up to
 * (not including) cellsTo[k], of which those in chunk k's column are its own. The walk is the cells' own order (the
 * snapshot's, row by row) when cellOrder is null, else cellOrder[p] is the index met p-th. So the lists take a few
 * numbers a chunk, not one a cell (40 MB at ten million cells). A chunk's slots are slots[slotStart[k]] up to
 * slots[slotStart[k + 1]]. Keys ascend, and so do the indices within a chunk.
 */
export interface ChunkLists {
  keys: Float64Array;
  cellsFrom: Uint32Array;
  cellsTo: Uint32Array;
  /** Indices into the decoded snapshot's arrays in chunk-row order; null when they come in it already. */
  cellOrder: Uint32Array | null;
  slotStart: Uint32Array;
  /** Indices into the branch-slot list, grouped by chunk. */
  slots: Uint32Array;
}

export interface ChunkRange {
  rowFrom: number;
  rowTo: number;
  columnFrom: number;
  columnTo: number;
}

/** The chunk row or column of a row or column (whole numbers: a shift rounds down, negative ones too). */
export function chunkCoordinate(position: number): number {
  return position >> CHUNK_SHIFT;
}

export function chunkKey(chunkRow: number, chunkColumn: number): number {
  return positionKey(chunkRow, chunkColumn);
}

/** The chunk key holding a position. */
export function chunkKeyOf(row: number, column: number): number {
  return chunkKey(chunkCoordinate(row), chunkCoordinate(column));
}

/** Positions to file: the decoded snapshot's cells (TreeCells satisfies it), or the branch slots. */
export interface CellPositions {
  count: number;
  row: ArrayLike<number>;
  col: ArrayLike<number>;
}

/** Row and column arrays of a list of positions. */
export function positionsOf(list: readonly { row: number; column: number }[]): CellPositions {
  return { count: list.length, row: list.map((p) => p.row), col: list.map((p) => p.column) };
}

/** Row and column arrays of (row, column) pairs, as the snapshot carries its branch slots. */
export function positionsOfPairs(pairs: Int32Array): CellPositions {
  const count = pairs.length / 2;
  const row = new Int32Array(count);
  const col = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    row[i] = pairs[2 * i]!;
    col[i] = pairs[2 * i + 1]!;
  }
  return { count, row, col };
}

/**
 * Groups the cells and slots by chunk: chunk row by chunk row, each row's positions counted and placed by chunk
 * column, so the chunks come out in key order without a map. Linear in the tree, and the worker's to run on a large
 * tree: listing ten million cells one by one was about half a second of the page's main thread.
 */
export function buildChunkLists(cells: CellPositions, slots: CellPositions = positionsOf([])): ChunkLists {
  const cellWalk = new ChunkRowWalk(cells, false);
  const slotWalk = new ChunkRowWalk(slots, true);
  const keys: number[] = [];
  const cellsFrom: number[] = [];
  const cellsTo: number[] = [];
  while (!cellWalk.done || !slotWalk.done) {
    const chunkRow = Math.min(cellWalk.chunkRow, slotWalk.chunkRow);
    const cellColumns = cellWalk.countColumns(chunkRow);
    const slotColumns = slotWalk.countColumns(chunkRow);
    const from = Math.min(cellColumns.from, slotColumns.from);
    const to = Math.max(cellColumns.to, slotColumns.to);
    for (let chunkColumn = from; chunkColumn <= to; chunkColumn++) {
      if (cellColumns.countAt(chunkColumn) === 0 && slotColumns.countAt(chunkColumn) === 0) continue;
      keys.push(chunkKey(chunkRow, chunkColumn));
      const hasCells = cellColumns.countAt(chunkColumn) > 0;
      cellsFrom.push(hasCells ? cellWalk.rowFrom : 0);
      cellsTo.push(hasCells ? cellWalk.rowTo : 0);
      slotWalk.startChunk(slotColumns, chunkColumn);
    }
    cellWalk.place(chunkRow, cellColumns);
    slotWalk.place(chunkRow, slotColumns);
  }
  return {
    keys: Float64Array.from(keys),
    cellsFrom: Uint32Array.from(cellsFrom),
    cellsTo: Uint32Array.from(cellsTo),
    cellOrder: cellWalk.order,
    slotStart: slotWalk.starts(),
    slots: slotWalk.members,
  };
}

/**
 * How many of a chunk row's positions fall in each chunk column from `from` to `to` (none: from > to); startChunk
 * turns each count into where the column's positions go.
 */
class ColumnCounts {
  constructor(
    readonly from: number,
    readonly to: number,
    readonly counts: Uint32Array,
  ) {}

  countAt(chunkColumn: number): number {
    return chunkColumn < this.from || chunkColumn > this.to ? 0 : this.counts[chunkColumn - this.from]!;
  }
}

const NO_COLUMNS = new ColumnCounts(Infinity, -Infinity, new Uint32Array(0));

function inRowOrder(positions: CellPositions): boolean {
  for (let i = 1; i < positions.count; i++) if (positions.row[i]! < positions.row[i - 1]!) return false;
  return true;
}

/**
 * One kind of position (cells, or slots) walked chunk row by chunk row, into `members` when listed one by one. The
 * snapshot's cells come row by row already; positions that do not (cells added since, at the end) are walked through
 * a copy sorted by chunk row, then index, so a chunk's indices still ascend.
 */
class ChunkRowWalk {
  readonly members: Uint32Array;
  /** The chunk row of the positions from `begin` on; Infinity once all are placed. */
  chunkRow = Infinity;
  private readonly row: ArrayLike<number>;
  private readonly col: ArrayLike<number>;
  /** The index of the k-th position walked; null when that is k. */
  readonly order: Uint32Array | null;
  private begin = 0;
  private end = 0;
  private readonly chunkStarts: number[] = [];
  private placed = 0;

  constructor(
    private readonly positions: CellPositions,
    listed: boolean,
  ) {
    this.members = new Uint32Array(listed ? positions.count : 0);
    this.order = inRowOrder(positions)
      ? null
      : new Uint32Array(positions.count)
          .map((_, i) => i)
          .sort((a, b) => chunkCoordinate(positions.row[a]!) - chunkCoordinate(positions.row[b]!) || a - b);
    const order = this.order;
    this.row = order ? Int32Array.from(order, (i) => positions.row[i]!) : positions.row;
    this.col = order ? Int32Array.from(order, (i) => positions.col[i]!) : positions.col;
    if (positions.count > 0) this.chunkRow = chunkCoordinate(this.row[0]!);
  }

  get done(): boolean {
    return this.begin >= this.positions.count;
  }

  /** Where the chunk row countColumns counted begins and ends in the walk. */
  get rowFrom(): number {
    return this.begin;
  }

  get rowTo(): number {
    return this.end;
  }

  /** The positions of `chunkRow` counted by chunk column (none if the walk is at another chunk row). */
  countColumns(chunkRow: number): ColumnCounts {
    if (chunkRow !== this.chunkRow) return NO_COLUMNS;
    const { row, col } = this;
    const count = this.positions.count;
    let from = chunkCoordinate(col[this.begin]!);
    let to = from;
    let end = this.begin;
    for (; end < count && chunkCoordinate(row[end]!) === chunkRow; end++) {
      const chunkColumn = chunkCoordinate(col[end]!);
      if (chunkColumn < from) from = chunkColumn;
      else if (chunkColumn > to) to = chunkColumn;
    }
    this.end = end;
    const counts = new Uint32Array(to - from + 1);
    for (let at = this.begin; at < end; at++) counts[chunkCoordinate(col[at]!) - from]!++;
    return new ColumnCounts(from, to, counts);
  }

  /** A chunk begins: its positions are the next `countAt(chunkColumn)` members. */
  startChunk(columns: ColumnCounts, chunkColumn: number): void {
    this.chunkStarts.push(this.placed);
    if (chunkColumn < columns.from || chunkColumn > columns.to) return;
    const count = columns.counts[chunkColumn - columns.from]!;
    columns.counts[chunkColumn - columns.from] = this.placed;
    this.placed += count;
  }

  /** Places the positions of `chunkRow` where startChunk said (when listed), and moves on to the next chunk row. */
  place(chunkRow: number, columns: ColumnCounts): void {
    if (chunkRow !== this.chunkRow) return;
    const { col, order, members, end } = this;
    const { from, counts } = columns;
    if (members.length > 0)
      for (let at = this.begin; at < end; at++)
        members[counts[chunkCoordinate(col[at]!) - from]!++] = order ? order[at]! : at;
    this.begin = end;
    this.chunkRow = end < this.positions.count ? chunkCoordinate(this.row[end]!) : Infinity;
  }

  /** Where each chunk's members begin, and the end after the last. */
  starts(): Uint32Array {
    return Uint32Array.from([...this.chunkStarts, this.placed]);
  }
}

/**
 * The page's view of the chunks: an entry is made from the lists when first asked for (culling asks only for the
 * chunks round the view), then kept, and changes add to it in place; a chunk the lists lack is made when a cell or
 * slot first lands in it.
 */
export class ChunkIndex {
  private readonly entries = new Map<number, ChunkEntry>();
  private madeSince = 0;

  /** `cells`: the cells the lists were built over (their columns pick each chunk's out of its chunk row's). */
  constructor(
    private readonly lists: ChunkLists,
    private cells: CellPositions,
  ) {}

  /** The cells grew into new arrays (shared/tree/changes.ts): the old ones are let go. */
  setCells(cells: CellPositions): void {
    this.cells = cells;
  }

  /** Chunks holding (or having held) a cell or a slot. */
  get size(): number {
    return this.lists.keys.length + this.madeSince;
  }

  get(key: number): ChunkEntry | undefined {
    return this.entries.get(key) ?? this.fromLists(key);
  }

  /** The entry of the chunk holding a position, made (empty) if the chunk had none; `made` tells which. */
  entryAt(row: number, column: number): { entry: ChunkEntry; made: boolean } {
    const key = chunkKeyOf(row, column);
    const found = this.get(key);
    if (found) return { entry: found, made: false };
    const entry: ChunkEntry = {
      key,
      chunkRow: chunkCoordinate(row),
      chunkColumn: chunkCoordinate(column),
      cells: [],
      slots: [],
    };
    this.entries.set(key, entry);
    this.madeSince++;
    return { entry, made: true };
  }

  private fromLists(key: number): ChunkEntry | undefined {
    const k = bisect(this.lists.keys, key);
    if (k < 0) return undefined;
    const { cellsFrom, cellsTo, cellOrder, slotStart } = this.lists;
    const { row, column } = positionOfKey(key);
    const col = this.cells.col;
    const cells: number[] = [];
    for (let at = cellsFrom[k]!; at < cellsTo[k]!; at++) {
      const i = cellOrder ? cellOrder[at]! : at;
      if (chunkCoordinate(col[i]!) === column) cells.push(i);
    }
    const entry: ChunkEntry = {
      key,
      chunkRow: row,
      chunkColumn: column,
      cells,
      slots: Array.from(this.lists.slots.subarray(slotStart[k], slotStart[k + 1])),
    };
    this.entries.set(key, entry);
    return entry;
  }
}

/** The index built here, on the page: a tree without worker-built lists (the replay's, one whose slots changed). */
export function buildChunkIndex(
  cells: CellPositions,
  slots: readonly { row: number; column: number }[] = [],
): ChunkIndex {
  return new ChunkIndex(buildChunkLists(cells, positionsOf(slots)), cells);
}

/**
 * What the snapshot's worker works out beside the cells, so the page need not: the branch slots, and the chunk lists
 * over the cells and those very slots (a slot index in the lists numbers this slot list).
 */
export interface WorkedLayout {
  slots: { row: number; column: number }[];
  chunks: ChunkLists;
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
      const entry = index.get(chunkKey(r, c));
      if (entry) found.push(entry);
    }
  }
  const midRow = (range.rowFrom + range.rowTo) / 2;
  const midColumn = (range.columnFrom + range.columnTo) / 2;
  const distance = (e: ChunkEntry) => (e.chunkRow - midRow) ** 2 + (e.chunkColumn - midColumn) ** 2;
  return found.sort((a, b) => distance(a) - distance(b));
}
