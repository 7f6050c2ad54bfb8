/**
 * The tree snapshot as bytes (decision 050), what the page asks for: the same cells as the JSON form (snapshot.ts)
 * in two fifths of its size before compression, read straight into typed arrays without JSON.parse. Ten million
 * cells were a 99 MB text whose parse alone took seconds; they are 40 MB here. Little-endian throughout:
 *
 *   "GTS" and the format byte (SNAPSHOT_BINARY_FORMAT)
 *   u32 length, then the header as JSON: { token, version, settings, count }
 *   u32 rows, then per row (in order): its row as a zigzag varint difference from the previous row's (the first
 *     from 0), its cell count, its first column as a zigzag varint, then each next column's gap (column − previous − 1)
 *   one byte a cell: status in the low four bits, type in the high four
 *   two bytes a cell: the colour at 12 bits, 0 for none
 *   u32 slots, then each branch slot's row (a zigzag varint difference from the previous slot's) and column (zigzag)
 *   u32 length, then the detail as JSON { token, thumb } (length 0: none, past SNAPSHOT_DETAIL_LIMIT cells)
 *
 * Cells come in row-then-column order, each position once, so the gaps are never negative and mostly 0. The branch
 * slots (computeBranchSlots) are worked out once where the snapshot is built: at ten million cells they took every
 * visitor's browser a second.
 */
import { computeBranchSlots, type TreeSettings } from './geometry.ts';
import { gridOfTreeCells } from './layout.ts';
import { columnsOf, expand12Bit, positionIndexOf, type SnapshotColumns, type TreeCells } from './snapshot.ts';

export const SNAPSHOT_BINARY_FORMAT = 2;

const MAGIC = [0x47, 0x54, 0x53];

export interface SnapshotHeader {
  token: string;
  version: number;
  settings: TreeSettings;
}

/** A decoded binary snapshot: its header, the cells as the canvas takes them, and the branch slots. */
export interface BinarySnapshot extends SnapshotHeader {
  cells: TreeCells;
  /** The branch slots as row, column pairs, in row-then-column order. */
  slots: Int32Array;
}

/** Writes the cells' columns (SnapshotEncoder.cellColumns) as the binary form. */
export function encodeBinarySnapshot(header: SnapshotHeader, columns: SnapshotColumns): Uint8Array {
  const { count } = columns;
  const utf8 = new TextEncoder();
  const head = utf8.encode(JSON.stringify({ ...header, count }));
  const detail = columns.detail ? utf8.encode(JSON.stringify(columns.detail)) : new Uint8Array(0);
  const positions = positionBytes(columns);
  const slots = slotBytes(branchSlotsOf(header.settings, columns));
  const bytes = new Uint8Array(4 + 4 + head.length + positions.length + count * 3 + slots.length + 4 + detail.length);
  const view = new DataView(bytes.buffer);
  bytes.set(MAGIC);
  bytes[3] = SNAPSHOT_BINARY_FORMAT;
  let at = 4;
  view.setUint32(at, head.length, true);
  bytes.set(head, at + 4);
  at += 4 + head.length;
  bytes.set(positions, at);
  at += positions.length;
  for (let i = 0; i < count; i++) bytes[at + i] = columns.status[i]! | (columns.type[i]! << 4);
  at += count;
  for (let i = 0; i < count; i++) {
    bytes[at + 2 * i] = columns.color[i]! & 0xff;
    bytes[at + 2 * i + 1] = columns.color[i]! >> 8;
  }
  at += count * 2;
  bytes.set(slots, at);
  at += slots.length;
  view.setUint32(at, detail.length, true);
  bytes.set(detail, at + 4);
  return bytes;
}

/** The branch slots of the cells, as the page would work them out from the decoded snapshot. */
function branchSlotsOf(settings: TreeSettings, { count, row, col, status }: SnapshotColumns) {
  const indexOf = positionIndexOf(settings, row, col, reachOf(row, col));
  return computeBranchSlots(settings, gridOfTreeCells({ count, row, col, status, indexOf }));
}

/** The rows and columns the cells span (Infinity and -Infinity when there are none). */
function reachOf(row: Int32Array, col: Int32Array) {
  const reach = { rowMin: Infinity, rowMax: -Infinity, colMin: Infinity, colMax: -Infinity };
  for (let i = 0; i < row.length; i++) {
    reach.rowMin = Math.min(reach.rowMin, row[i]!);
    reach.rowMax = Math.max(reach.rowMax, row[i]!);
    reach.colMin = Math.min(reach.colMin, col[i]!);
    reach.colMax = Math.max(reach.colMax, col[i]!);
  }
  return reach;
}

/** The slots section: their count, then each slot's row difference and column. */
function slotBytes(slots: readonly { row: number; column: number }[]): Uint8Array {
  const out = new VarintWriter(4 + slots.length * 3);
  out.uint32(slots.length);
  let previousRow = 0;
  for (const slot of slots) {
    out.varint(zigzag(slot.row - previousRow));
    out.varint(zigzag(slot.column));
    previousRow = slot.row;
  }
  return out.bytes();
}

/** The positions section: the row count, then each row's difference, cell count, first column and gaps. */
function positionBytes({ count, row, col }: SnapshotColumns): Uint8Array {
  const out = new VarintWriter(16 + count * 2);
  out.uint32(0);
  let rows = 0;
  let previousRow = 0;
  for (let start = 0; start < count;) {
    let end = start + 1;
    while (end < count && row[end] === row[start]) {
      if (col[end]! <= col[end - 1]!) throw new RangeError(`Cells out of order at row ${row[start]}.`);
      end++;
    }
    if (start > 0 && row[start]! < previousRow) throw new RangeError(`Cells out of order at row ${row[start]}.`);
    out.varint(zigzag(row[start]! - previousRow));
    out.varint(end - start);
    out.varint(zigzag(col[start]!));
    for (let i = start + 1; i < end; i++) out.varint(col[i]! - col[i - 1]! - 1);
    previousRow = row[start]!;
    rows++;
    start = end;
  }
  const bytes = out.bytes();
  new DataView(bytes.buffer).setUint32(0, rows, true);
  return bytes;
}

/** Reads the binary form into typed arrays and the position index; throws on bytes that are not that form. */
export function decodeBinarySnapshot(bytes: Uint8Array): BinarySnapshot {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 8 || MAGIC.some((byte, i) => bytes[i] !== byte))
    throw new Error('This is not a binary tree snapshot.');
  if (bytes[3] !== SNAPSHOT_BINARY_FORMAT)
    throw new Error(`A tree snapshot of format ${bytes[3]}, not ${SNAPSHOT_BINARY_FORMAT}.`);
  const fromUtf8 = new TextDecoder();
  const headLength = view.getUint32(4, true);
  const head = JSON.parse(fromUtf8.decode(bytes.subarray(8, 8 + headLength))) as SnapshotHeader & { count: number };
  const { count } = head;
  const row = new Int32Array(count);
  const col = new Int32Array(count);
  const reach = { rowMin: Infinity, rowMax: -Infinity, colMin: Infinity, colMax: -Infinity };
  let at = readPositions(bytes, 8 + headLength, row, col, reach);
  const status = new Uint8Array(count);
  const type = new Uint8Array(count);
  for (let i = 0; i < count; i++) {
    const packed = bytes[at + i]!;
    status[i] = packed & 0xf;
    type[i] = packed >> 4;
  }
  at += count;
  const color = new Int32Array(count);
  const palette = colorPalette();
  for (let i = 0; i < count; i++) color[i] = palette[bytes[at + 2 * i]! | (bytes[at + 2 * i + 1]! << 8)]!;
  at += count * 2;
  const { slots, end } = readSlots(bytes, at);
  at = end;
  const detailLength = view.getUint32(at, true);
  if (at + 4 + detailLength !== bytes.length) throw new Error('A binary tree snapshot of the wrong length.');
  const detail =
    detailLength === 0
      ? null
      : (JSON.parse(fromUtf8.decode(bytes.subarray(at + 4))) as { token: string[]; thumb: string[] });
  const indexOf = positionIndexOf(head.settings, row, col, reach);
  return {
    token: head.token,
    version: head.version,
    settings: head.settings,
    cells: {
      count,
      row,
      col: columnsOf(head.settings, col, reach),
      status,
      type,
      color,
      token: detail?.token ?? null,
      thumb: detail?.thumb ?? null,
      indexOf,
    },
    slots,
  };
}

/** Reads the positions section from `start` into `row` and `col`, widening `reach`; returns where it ends. */
function readPositions(
  bytes: Uint8Array,
  start: number,
  row: Int32Array,
  col: Int32Array,
  reach: { rowMin: number; rowMax: number; colMin: number; colMax: number },
): number {
  const rows = new DataView(bytes.buffer, bytes.byteOffset + start, 4).getUint32(0, true);
  const reader = new VarintReader(bytes, start + 4);
  let i = 0;
  let currentRow = 0;
  for (let r = 0; r < rows; r++) {
    currentRow += unzigzag(reader.varint());
    const cellsInRow = reader.varint();
    if (i + cellsInRow > row.length) throw new Error('A binary tree snapshot with more cells than it announced.');
    let column = unzigzag(reader.varint());
    if (cellsInRow === 0) continue;
    const first = i;
    row[i] = currentRow;
    col[i++] = column;
    for (let k = 1; k < cellsInRow; k++) {
      column += reader.varint() + 1;
      row[i] = currentRow;
      col[i++] = column;
    }
    if (currentRow < reach.rowMin) reach.rowMin = currentRow;
    if (currentRow > reach.rowMax) reach.rowMax = currentRow;
    if (col[first]! < reach.colMin) reach.colMin = col[first]!;
    if (column > reach.colMax) reach.colMax = column;
  }
  if (i !== row.length) throw new Error(`A binary tree snapshot with ${i} cells of the ${row.length} it announced.`);
  return reader.at;
}

/** Reads the slots section from `start`: the slots as row, column pairs, and where the section ends. */
function readSlots(bytes: Uint8Array, start: number): { slots: Int32Array; end: number } {
  const reader = new VarintReader(bytes, start + 4);
  const slots = new Int32Array(new DataView(bytes.buffer, bytes.byteOffset + start, 4).getUint32(0, true) * 2);
  for (let i = 0, slotRow = 0; i < slots.length; i += 2) {
    slotRow += unzigzag(reader.varint());
    slots[i] = slotRow;
    slots[i + 1] = unzigzag(reader.varint());
  }
  return { slots, end: reader.at };
}

let palette: Int32Array | null = null;

/** 0xRRGGBB (or -1 for none) of each 12-bit colour, worked out once. */
function colorPalette(): Int32Array {
  if (palette) return palette;
  palette = new Int32Array(4096);
  palette[0] = -1;
  for (let packed = 1; packed < 4096; packed++) palette[packed] = expand12Bit(packed);
  return palette;
}

/** Small signed numbers as small unsigned ones: 0, -1, 1, -2 … as 0, 1, 2, 3 … */
function zigzag(n: number): number {
  return n >= 0 ? n * 2 : -n * 2 - 1;
}

function unzigzag(n: number): number {
  return n % 2 === 0 ? n / 2 : -(n + 1) / 2;
}

/** Unsigned varints (seven bits a byte, low first) into a buffer that grows as needed. */
class VarintWriter {
  private buffer: Uint8Array;
  private length = 0;

  constructor(capacity: number) {
    this.buffer = new Uint8Array(capacity);
  }

  /** Four bytes, to be filled in once known. */
  uint32(value: number): void {
    this.room(4);
    new DataView(this.buffer.buffer).setUint32(this.length, value, true);
    this.length += 4;
  }

  varint(value: number): void {
    if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`A varint of ${value}.`);
    this.room(8);
    let rest = value;
    while (rest >= 0x80) {
      this.buffer[this.length++] = (rest % 0x80) | 0x80;
      rest = Math.floor(rest / 0x80);
    }
    this.buffer[this.length++] = rest;
  }

  bytes(): Uint8Array {
    return this.buffer.slice(0, this.length);
  }

  private room(bytes: number): void {
    if (this.length + bytes <= this.buffer.length) return;
    const grown = new Uint8Array(Math.max(this.buffer.length * 2, this.length + bytes));
    grown.set(this.buffer.subarray(0, this.length));
    this.buffer = grown;
  }
}

class VarintReader {
  constructor(
    private readonly bytes: Uint8Array,
    public at: number,
  ) {}

  varint(): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      const byte = this.bytes[this.at++];
      if (byte === undefined) throw new Error('A binary tree snapshot cut short.');
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 0x80;
    }
  }
}
