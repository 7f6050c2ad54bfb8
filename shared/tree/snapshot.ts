/**
 * The compact tree snapshot (decision 002): columns of small numbers and digit strings instead of one object per cell,
 * so a million cells stay a few megabytes and decode in milliseconds. Cells are sorted by row, then column; larger
 * trees leave tokens and thumbnails out (SNAPSHOT_DETAIL_LIMIT) and fetch them per region.
 */
import { totalRows, type TreeSettings } from './geometry.ts';
import { differences, jsonBytes } from './json-bytes.ts';
import { extentOf, type CellExtent } from './layout.ts';
import { PositionIndex } from './position-index.ts';
import type { TreeCells } from './tree-cells.ts';

export type { TreeCells };

export const SNAPSHOT_FORMAT = 1;

/** Trees with at most this many cells carry cell tokens and thumbnails in the snapshot itself. */
export const SNAPSHOT_DETAIL_LIMIT = 50_000;

export interface TreeSnapshotWire {
  format: typeof SNAPSHOT_FORMAT;
  token: string;
  version: number;
  settings: TreeSettings;
  count: number;
  /** Row of each cell as the difference from the previous cell's row (the first is absolute). */
  row: number[];
  /** Column of each cell, absolute (negative left of the trunk). */
  col: number[];
  /** One digit a cell: the CellStatus. */
  status: string;
  /** One digit a cell: the CellType. */
  type: string;
  /** Three hex digits a cell: the art's dominant colour at 12 bits, '000' where there is no published art. */
  color: string;
  /** Present when count <= SNAPSHOT_DETAIL_LIMIT. */
  detail?: { token: string[]; thumb: string[] };
}

/** What the encoder needs of each cell, in row-then-column order. */
export interface SnapshotCell {
  row: number;
  column: number;
  status: number;
  type: number;
  /** 0xRRGGBB, or null when the cell shows no art. */
  color: number | null;
  token: string;
  thumb: string | null;
}

/** A snapshot's cells as columns, in row-then-column order: what both of its forms are written from. */
export interface SnapshotColumns {
  count: number;
  row: Int32Array;
  col: Int32Array;
  status: Uint8Array;
  type: Uint8Array;
  /** 12 bits a cell (4 each of red, green and blue), 0 for none. */
  color: Uint16Array;
  /** Tokens and thumbnails ('' for none), for trees up to SNAPSHOT_DETAIL_LIMIT cells. */
  detail: { token: string[]; thumb: string[] } | null;
}

export function encodeSnapshot(
  header: { token: string; version: number; settings: TreeSettings },
  cells: readonly SnapshotCell[],
): TreeSnapshotWire {
  const encoder = new SnapshotEncoder(cells.length);
  for (const cell of cells)
    encoder.add(cell.row, cell.column, cell.status, cell.type, cell.color, cell.token, cell.thumb);
  return encoder.finish(header);
}

/** The byte of a single decimal or hex digit. */
const DIGIT_BYTES = [...'0123456789abcdef'].map((digit) => digit.charCodeAt(0));
const asText = new TextDecoder('latin1');

/**
 * Writes a snapshot's columns one cell at a time, in row-then-column order, without an object per cell: the one
 * place the format is written, for a list of cells (encodeSnapshot) and for the server's row-by-row read of a large
 * tree. `count` cells are announced up front: it decides whether tokens and thumbnails ride along.
 */
export class SnapshotEncoder {
  private readonly rows: Int32Array;
  private readonly columns: Int32Array;
  private readonly statuses: Uint8Array;
  private readonly types: Uint8Array;
  /** The art's dominant colour at 12 bits, 0 where there is none (packed12Bit). */
  private readonly colors: Uint16Array;
  private readonly tokens: string[];
  private readonly thumbs: string[];
  /** Whether tokens and thumbnails ride along (trees up to SNAPSHOT_DETAIL_LIMIT cells). */
  readonly carriesDetail: boolean;
  private added = 0;

  constructor(readonly count: number) {
    this.rows = new Int32Array(count);
    this.columns = new Int32Array(count);
    this.statuses = new Uint8Array(count);
    this.types = new Uint8Array(count);
    this.colors = new Uint16Array(count);
    this.carriesDetail = count <= SNAPSHOT_DETAIL_LIMIT;
    this.tokens = this.carriesDetail ? new Array<string>(count) : [];
    this.thumbs = this.carriesDetail ? new Array<string>(count) : [];
  }

  add(
    row: number,
    column: number,
    status: number,
    type: number,
    color: number | null,
    token = '',
    thumb: string | null = null,
  ): void {
    const i = this.added;
    if (i === this.count) throw new RangeError(`More cells than the ${this.count} announced.`);
    if (status < 0 || status > 9 || type < 0 || type > 9)
      throw new RangeError(`A status or type of one digit, not ${status} / ${type}.`);
    this.rows[i] = row;
    this.columns[i] = column;
    this.statuses[i] = status;
    this.types[i] = type;
    this.colors[i] = color === null ? 0 : packed12Bit(color);
    if (this.carriesDetail) {
      this.tokens[i] = token;
      this.thumbs[i] = thumb ?? '';
    }
    this.added++;
  }

  finish(header: { token: string; version: number; settings: TreeSettings }): TreeSnapshotWire {
    this.checkComplete();
    const rowDeltas = differences(this.count, (i) => this.rows[i]!);
    return {
      format: SNAPSHOT_FORMAT,
      ...header,
      count: this.count,
      row: Array.from({ length: this.count }, (_, i) => rowDeltas.at(i)),
      col: Array.from(this.columns),
      status: asText.decode(digitsOf(this.statuses)),
      type: asText.decode(digitsOf(this.types)),
      color: asText.decode(hexDigitsOf(this.colors)),
      ...(this.carriesDetail ? { detail: { token: this.tokens, thumb: this.thumbs } } : {}),
    };
  }

  /**
   * The text of `before`, the snapshot's JSON (exactly JSON.stringify(finish(header))) and `after`, as bytes in one
   * exactly sized buffer. A tree past the detail limit is written straight from the columns, never as arrays of
   * numbers and a string: ten million cells are a 99 MB text, which that way took over 500 MB to make (decision 045).
   */
  finishBytes(header: { token: string; version: number; settings: TreeSettings }, before = '', after = ''): Uint8Array {
    if (this.carriesDetail) return new TextEncoder().encode(before + JSON.stringify(this.finish(header)) + after);
    this.checkComplete();
    const head = JSON.stringify({ format: SNAPSHOT_FORMAT, ...header, count: this.count });
    return jsonBytes([
      `${before}${head.slice(0, -1)},"row":`,
      differences(this.count, (i) => this.rows[i]!),
      ',"col":',
      { count: this.count, at: (i) => this.columns[i]! },
      ',"status":"',
      digitsOf(this.statuses),
      '","type":"',
      digitsOf(this.types),
      '","color":"',
      hexDigitsOf(this.colors),
      `"}${after}`,
    ]);
  }

  /** The cells' columns as they were added, for the binary form (snapshot-binary.ts); every cell must be in. */
  cellColumns(): SnapshotColumns {
    this.checkComplete();
    const { count, rows, columns, statuses, types, colors } = this;
    return {
      count,
      row: rows,
      col: columns,
      status: statuses,
      type: types,
      color: colors,
      detail: this.carriesDetail ? { token: this.tokens, thumb: this.thumbs } : null,
    };
  }

  private checkComplete(): void {
    if (this.added !== this.count) throw new RangeError(`${this.added} cells of the ${this.count} announced.`);
  }

  /** The rows and columns the cells added so far reach. */
  extent(): CellExtent | null {
    return extentOf(
      this.added,
      (i) => this.rows[i]!,
      (i) => this.columns[i]!,
    );
  }
}

/** One decimal digit a cell, as text bytes. */
function digitsOf(values: Uint8Array): Uint8Array {
  const digits = new Uint8Array(values.length);
  for (let i = 0; i < values.length; i++) digits[i] = DIGIT_BYTES[values[i]!]!;
  return digits;
}

/** Three hex digits a 12-bit colour, as text bytes. */
function hexDigitsOf(colors: Uint16Array): Uint8Array {
  const digits = new Uint8Array(colors.length * 3);
  for (let i = 0; i < colors.length; i++) {
    const packed = colors[i]!;
    digits[i * 3] = DIGIT_BYTES[packed >> 8]!;
    digits[i * 3 + 1] = DIGIT_BYTES[(packed >> 4) & 0xf]!;
    digits[i * 3 + 2] = DIGIT_BYTES[packed & 0xf]!;
  }
  return digits;
}

/** A piece's colour as three hex digits ('000' for none). */
export function encodeColor(rgb: number | null): string {
  return rgb === null ? '000' : colorTo12Bit(rgb);
}

/** The colour of the `i`-th cell of a column of three hex digits a cell: 0xRRGGBB, or -1 for none. */
export function decodeColor(colors: string, i: number): number {
  const at = i * 3;
  const packed =
    (hexDigit(colors.charCodeAt(at)) << 8) |
    (hexDigit(colors.charCodeAt(at + 1)) << 4) |
    hexDigit(colors.charCodeAt(at + 2));
  return packed === 0 ? -1 : expand12Bit(packed);
}

function colorTo12Bit(rgb: number): string {
  return packed12Bit(rgb).toString(16).padStart(3, '0');
}

/** 0xRRGGBB as 12 bits, the top four of each channel; never 0, which marks "no colour". */
function packed12Bit(rgb: number): number {
  const r = (rgb >> 20) & 0xf;
  const g = (rgb >> 12) & 0xf;
  const b = (rgb >> 4) & 0xf;
  // A truly black piece shows as the darkest non-black instead.
  return (r << 8) | (g << 4) | b || 1;
}

/** Value of one hex digit's character code. */
function hexDigit(code: number): number {
  return code <= 57 ? code - 48 : (code | 32) - 87;
}

export function decodeSnapshot(wire: TreeSnapshotWire): TreeCells {
  const { count } = wire;
  const row = new Int32Array(count);
  const col = new Int32Array(count);
  const status = new Uint8Array(count);
  const type = new Uint8Array(count);
  const color = new Int32Array(count);
  let currentRow = 0;
  let rowMin = Infinity;
  let rowMax = -Infinity;
  let colMin = Infinity;
  let colMax = -Infinity;
  const colors = wire.color;
  for (let i = 0; i < count; i++) {
    currentRow += wire.row[i]!;
    row[i] = currentRow;
    if (currentRow < rowMin) rowMin = currentRow;
    if (currentRow > rowMax) rowMax = currentRow;
    const c = wire.col[i]!;
    col[i] = c;
    if (c < colMin) colMin = c;
    if (c > colMax) colMax = c;
    status[i] = wire.status.charCodeAt(i) - 48;
    type[i] = wire.type.charCodeAt(i) - 48;
    color[i] = decodeColor(colors, i);
  }
  const indexOf = positionIndexOf(wire.settings, row, col, { rowMin, rowMax, colMin, colMax });
  return {
    count,
    row,
    col: columnsOf(wire.settings, col, { colMin, colMax }),
    status,
    type,
    color,
    token: wire.detail?.token ?? null,
    thumb: wire.detail?.thumb ?? null,
    indexOf,
  };
}

/** Whether a column fits in two bytes. */
export const fitsInt16 = (column: number): boolean => column === (column << 16) >> 16;

/** The columns the settings allow, widened to `reach`'s (the cells'). */
function columnBounds(settings: TreeSettings, reach: { colMin: number; colMax: number }) {
  return {
    colMin: Math.min(reach.colMin, 0, settings.branch.min_column),
    colMax: Math.max(reach.colMax, settings.trunk.columns - 1, settings.branch.max_column),
  };
}

/**
 * The decoded columns as the page keeps them: two bytes each where the settings' columns fit (a tree is a few dozen
 * columns wide, and ten million cells save 19 MB of the page's memory), else as decoded.
 */
export function columnsOf(
  settings: TreeSettings,
  col: Int32Array,
  reach: { colMin: number; colMax: number },
): Int16Array | Int32Array {
  const { colMin, colMax } = columnBounds(settings, reach);
  return fitsInt16(colMin) && fitsInt16(colMax) ? Int16Array.from(col) : col;
}

/**
 * The position index of decoded cells within `reach` (the rows and columns they span). The grid also spans the rows
 * and columns the settings allow, so cells a live tree gains later fit in it.
 */
export function positionIndexOf(
  settings: TreeSettings,
  row: Int32Array,
  col: Int32Array,
  reach: { rowMin: number; rowMax: number; colMin: number; colMax: number },
): PositionIndex {
  const count = row.length;
  const bounds = {
    rowMin: Math.min(reach.rowMin, 0),
    rowMax: Math.max(reach.rowMax, totalRows(settings) - 1),
    ...columnBounds(settings, reach),
  };
  const byRow = PositionIndex.byRows(row, col, count, bounds);
  if (byRow) return byRow;
  const indexOf = PositionIndex.forBounds(count, bounds.rowMin, bounds.rowMax, bounds.colMin, bounds.colMax);
  for (let i = 0; i < count; i++) indexOf.set(row[i]!, col[i]!, i);
  return indexOf;
}

/** A piece's colour as the snapshot carries it to the canvas (12 bits, expanded again): -1 for none. */
export function colorAsSent(rgb: number | null): number {
  return rgb === null ? -1 : expand12Bit(parseInt(colorTo12Bit(rgb), 16));
}

export function expand12Bit(packed: number): number {
  const r = (packed >> 8) & 0xf;
  const g = (packed >> 4) & 0xf;
  const b = packed & 0xf;
  return ((r * 17) << 16) | ((g * 17) << 8) | (b * 17);
}
