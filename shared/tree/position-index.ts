/**
 * Where each cell of a decoded snapshot sits: a dense Int32Array grid of indices (-1 for none), so a lookup is two
 * subtractions and a read and a million cells cost 4 MB; a Map for a thinly spread tree, and a small Map for cells a
 * live tree adds outside the grid. Past a few million cells that come row by row, the grid gives way to one number a
 * row and one byte a cell (ByRow). Plain data, so a worker can build it and hand it over (the arrays are
 * transferable).
 */
import { bisect } from '../bisect.ts';
import { positionKey, positionOfKey } from './geometry.ts';

/** The dense grid is used while it has at most this many slots per cell (plus a floor for small trees). */
const DENSE_SLOTS_PER_CELL = 8;
const DENSE_FLOOR = 1 << 16;
/**
 * From this many cells, cells in row-then-column order within 256 columns are indexed by row: at ten million cells
 * 11 MB where the grid takes 38. Smaller trees keep the grid, whose lookup is a single read.
 */
const BY_ROW_FROM = 2_000_000;
const BY_ROW_MAX_COLUMNS = 256;

/**
 * Cells in row-then-column order, found by row: row rowMin + r holds the cells from rowStart[r] up to (not including)
 * rowStart[r + 1], and cell i's column is colMin + columns[i]. A full row (as a grown tree's are) is read straight;
 * another is searched by bisection.
 */
interface ByRow {
  rowStart: Uint32Array;
  columns: Uint8Array;
}

export interface PositionIndexParts {
  rowMin: number;
  colMin: number;
  rows: number;
  cols: number;
  /** rows × cols cell indices, row-major, -1 for none; null when the index is sparse or by row. */
  dense: Int32Array | null;
  /** The cells found by row (absent or null: not). */
  byRow?: ByRow | null;
  /** [positionKey, index] pairs: every cell when the index is sparse, else those the grid or the rows do not hold. */
  sparse: [number, number][] | null;
}

export class PositionIndex {
  private readonly rowMin: number;
  private readonly colMin: number;
  private readonly rows: number;
  private readonly cols: number;
  private readonly dense: Int32Array | null;
  private readonly byRow: ByRow | null;
  private readonly sparse: Map<number, number> | null;
  /** Cells the grid or the rows do not hold (outside the grid's bounds, or added after the rows were built). */
  private readonly outside = new Map<number, number>();

  constructor(parts: PositionIndexParts) {
    this.rowMin = parts.rowMin;
    this.colMin = parts.colMin;
    this.rows = parts.rows;
    this.cols = parts.cols;
    this.dense = parts.dense;
    this.byRow = parts.byRow ?? null;
    const listed = parts.dense !== null || this.byRow !== null;
    this.sparse = listed ? null : new Map(parts.sparse ?? []);
    if (listed) for (const [key, index] of parts.sparse ?? []) this.outside.set(key, index);
  }

  /**
   * The index of `count` cells in row-then-column order by row (ByRow), within rows rowMin..rowMax and columns
   * colMin..colMax (inclusive); null when the tree is too small for it to pay, too wide, or its cells are not in
   * that order.
   */
  static byRows(
    row: ArrayLike<number>,
    col: ArrayLike<number>,
    count: number,
    bounds: { rowMin: number; rowMax: number; colMin: number; colMax: number },
  ): PositionIndex | null {
    const { rowMin, colMin } = bounds;
    const rows = Math.max(0, bounds.rowMax - rowMin + 1);
    const cols = Math.max(0, bounds.colMax - colMin + 1);
    if (count < BY_ROW_FROM || cols > BY_ROW_MAX_COLUMNS) return null;
    const rowStart = new Uint32Array(rows + 1);
    const columns = new Uint8Array(count);
    for (let i = 0; i < count; i++) {
      const r = row[i]! - rowMin;
      const c = col[i]! - colMin;
      if (r < 0 || r >= rows || c < 0 || c >= cols) return null;
      if (i > 0 && (row[i]! < row[i - 1]! || (row[i] === row[i - 1] && col[i]! <= col[i - 1]!))) return null;
      rowStart[r + 1]!++;
      columns[i] = c;
    }
    for (let r = 0; r < rows; r++) rowStart[r + 1]! += rowStart[r]!;
    return new PositionIndex({ rowMin, colMin, rows, cols, dense: null, byRow: { rowStart, columns }, sparse: null });
  }

  /** An empty index for `count` cells within rows rowMin..rowMax and columns colMin..colMax (inclusive). */
  static forBounds(count: number, rowMin: number, rowMax: number, colMin: number, colMax: number): PositionIndex {
    const rows = Math.max(0, rowMax - rowMin + 1);
    const cols = Math.max(0, colMax - colMin + 1);
    const slots = rows * cols;
    const dense = slots <= Math.max(DENSE_FLOOR, count * DENSE_SLOTS_PER_CELL) ? new Int32Array(slots).fill(-1) : null;
    return new PositionIndex({ rowMin, colMin, rows, cols, dense, sparse: null });
  }

  set(row: number, column: number, index: number): void {
    if (this.byRow) {
      if (this.inRows(row, column) !== index) this.outside.set(positionKey(row, column), index);
      return;
    }
    if (!this.dense) return void this.sparse!.set(positionKey(row, column), index);
    const r = row - this.rowMin;
    const c = column - this.colMin;
    if (r < 0 || c < 0 || r >= this.rows || c >= this.cols) this.outside.set(positionKey(row, column), index);
    else this.dense[r * this.cols + c] = index;
  }

  /** The index of the cell at (row, column), or -1. */
  at(row: number, column: number): number {
    if (this.byRow) {
      const listed = this.outside.size === 0 ? undefined : this.outside.get(positionKey(row, column));
      return listed ?? this.inRows(row, column);
    }
    if (!this.dense) return this.sparse!.get(positionKey(row, column)) ?? -1;
    const r = row - this.rowMin;
    const c = column - this.colMin;
    if (r < 0 || c < 0 || r >= this.rows || c >= this.cols)
      return this.outside.size === 0 ? -1 : (this.outside.get(positionKey(row, column)) ?? -1);
    return this.dense[r * this.cols + c]!;
  }

  /** The cell the rows hold at (row, column), or -1. */
  private inRows(row: number, column: number): number {
    const { rowStart, columns } = this.byRow!;
    const r = row - this.rowMin;
    const c = column - this.colMin;
    if (r < 0 || c < 0 || r >= this.rows || c >= this.cols) return -1;
    const from = rowStart[r]!;
    const to = rowStart[r + 1]! - 1;
    return to - from + 1 === this.cols ? from + c : bisect(columns, c, from, to);
  }

  /** Map-like read by positionKey. */
  get(key: number): number | undefined {
    const { row, column } = positionOfKey(key);
    const index = this.at(row, column);
    return index < 0 ? undefined : index;
  }

  has(key: number): boolean {
    return this.get(key) !== undefined;
  }

  /** An independent copy (the growth replay's tree must not learn the live tree's new cells). */
  clone(): PositionIndex {
    const parts = this.toParts();
    return new PositionIndex({ ...parts, dense: parts.dense ? parts.dense.slice() : null });
  }

  toParts(): PositionIndexParts {
    const { rowMin, colMin, rows, cols, dense, byRow } = this;
    const listed = this.sparse ?? (this.outside.size > 0 ? this.outside : null);
    return { rowMin, colMin, rows, cols, dense, ...(byRow ? { byRow } : {}), sparse: listed ? [...listed] : null };
  }
}
