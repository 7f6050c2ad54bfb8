/**
 * Where each cell of a decoded snapshot sits: a dense Int32Array grid of indices (-1 for none), so a lookup is two
 * subtractions and a read and a million cells cost 4 MB; a Map for a thinly spread tree, and a small Map for cells a
 * live tree adds outside the grid. Plain data, so a worker can build it and hand it over (the grid is transferable).
 */
import { positionKey, positionOfKey } from './geometry.ts';

/** The dense grid is used while it has at most this many slots per cell (plus a floor for small trees). */
const DENSE_SLOTS_PER_CELL = 8;
const DENSE_FLOOR = 1 << 16;

export interface PositionIndexParts {
  rowMin: number;
  colMin: number;
  rows: number;
  cols: number;
  /** rows × cols cell indices, row-major, -1 for none; null when the index is sparse. */
  dense: Int32Array | null;
  /** [positionKey, index] pairs: every cell when the index is sparse, else those outside the dense grid. */
  sparse: [number, number][] | null;
}

export class PositionIndex {
  private readonly rowMin: number;
  private readonly colMin: number;
  private readonly rows: number;
  private readonly cols: number;
  private readonly dense: Int32Array | null;
  private readonly sparse: Map<number, number> | null;
  /** Cells outside the dense grid's bounds, added after it was built. */
  private readonly outside = new Map<number, number>();

  constructor(parts: PositionIndexParts) {
    this.rowMin = parts.rowMin;
    this.colMin = parts.colMin;
    this.rows = parts.rows;
    this.cols = parts.cols;
    this.dense = parts.dense;
    this.sparse = parts.dense ? null : new Map(parts.sparse ?? []);
    if (parts.dense) for (const [key, index] of parts.sparse ?? []) this.outside.set(key, index);
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
    if (!this.dense) return void this.sparse!.set(positionKey(row, column), index);
    const r = row - this.rowMin;
    const c = column - this.colMin;
    if (r < 0 || c < 0 || r >= this.rows || c >= this.cols) this.outside.set(positionKey(row, column), index);
    else this.dense[r * this.cols + c] = index;
  }

  /** The index of the cell at (row, column), or -1. */
  at(row: number, column: number): number {
    if (!this.dense) return this.sparse!.get(positionKey(row, column)) ?? -1;
    const r = row - this.rowMin;
    const c = column - this.colMin;
    if (r < 0 || c < 0 || r >= this.rows || c >= this.cols)
      return this.outside.size === 0 ? -1 : (this.outside.get(positionKey(row, column)) ?? -1);
    return this.dense[r * this.cols + c]!;
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
    const { rowMin, colMin, rows, cols, dense } = this;
    const listed = this.sparse ?? (this.outside.size > 0 ? this.outside : null);
    return { rowMin, colMin, rows, cols, dense, sparse: listed ? [...listed] : null };
  }
}
