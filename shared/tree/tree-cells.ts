/** The decoded snapshot's shape (snapshot.ts decodes it), apart so that the layout can use it without a circle. */
import type { PositionIndex } from './position-index.ts';

/** The decoded snapshot: typed arrays, one entry a cell, plus a position index. */
export interface TreeCells {
  count: number;
  row: Int32Array;
  /** Two bytes a column where the tree's columns allow (columnsOf, snapshot.ts), else four. */
  col: Int16Array | Int32Array;
  status: Uint8Array;
  type: Uint8Array;
  /** 0xRRGGBB, or -1 where there is no colour. */
  color: Int32Array;
  token: string[] | null;
  thumb: string[] | null;
  /** Position to the cell's index: at(row, col), or get(positionKey(row, col)). */
  indexOf: PositionIndex;
}
