/**
 * The keyboard's long moves over the tree, as pure functions over "is there a square here?" and the rows and columns
 * the tree spans: a row's first and last square, a screenful of rows, the next band, the next square of a kind in
 * reading order, and the words for the tree's edge when there is nowhere further to go.
 */
import { bandStarts, type TreeSettings } from '#shared/tree/geometry.ts';
import type { HasSquare, Position } from './focus.ts';

/** Rows and columns the tree spans (both ends included). */
export interface GridExtent {
  minRow: number;
  maxRow: number;
  minColumn: number;
  maxColumn: number;
}

export type BandName = 'crown' | 'trunk' | 'seed' | 'roots';

/** One band of rows, top to bottom as on screen: the crown, the trunk with its branches, the seed, the roots. */
export interface BandRows {
  name: BandName;
  rowFrom: number;
  rowTo: number;
}

export type Direction = -1 | 1;

/** A long move asked for by a key. */
export type FarMove =
  | { kind: 'row-end'; direction: Direction }
  | { kind: 'page'; direction: Direction }
  | { kind: 'band'; direction: Direction }
  | { kind: 'next'; what: 'published' | 'free'; direction: Direction };

/** The bands with at least one row, top to bottom (bandStarts in shared/tree/geometry.ts). */
export function bandRows(settings: TreeSettings): BandRows[] {
  const b = bandStarts(settings);
  const bands: BandRows[] = [
    { name: 'crown', rowFrom: b.crown, rowTo: b.trunk - 1 },
    { name: 'trunk', rowFrom: b.trunk, rowTo: b.seed - 1 },
    { name: 'seed', rowFrom: b.seed, rowTo: b.roots - 1 },
    { name: 'roots', rowFrom: b.roots, rowTo: b.end - 1 },
  ];
  return bands.filter((band) => band.rowTo >= band.rowFrom);
}

/** The square of `row` nearest to `column` (the left one of two as near), or null when the row has none. */
export function nearestInRow(hasSquare: HasSquare, extent: GridExtent, row: number, column: number): Position | null {
  const reach = Math.max(column - extent.minColumn, extent.maxColumn - column);
  for (let d = 0; d <= reach; d++) {
    if (column - d >= extent.minColumn && column - d <= extent.maxColumn && hasSquare(row, column - d))
      return { row, column: column - d };
    if (d > 0 && column + d >= extent.minColumn && column + d <= extent.maxColumn && hasSquare(row, column + d))
      return { row, column: column + d };
  }
  return null;
}

/** Home (-1) and End (+1): the first or last square of the row, or null when `from` already is it. */
export function rowEnd(
  hasSquare: HasSquare,
  extent: GridExtent,
  from: Position,
  direction: Direction,
): Position | null {
  if (direction < 0) {
    for (let column = extent.minColumn; column < from.column; column++)
      if (hasSquare(from.row, column)) return { row: from.row, column };
  } else {
    for (let column = extent.maxColumn; column > from.column; column--)
      if (hasSquare(from.row, column)) return { row: from.row, column };
  }
  return null;
}

/**
 * Page Up (-1) and Page Down (+1): the square nearest the same column `rows` rows away (no further than the tree's
 * first or last row); when that row has none, the nearest row back towards `from` that has one. Null at the edge.
 */
export function pageStep(
  hasSquare: HasSquare,
  extent: GridExtent,
  from: Position,
  rows: number,
  direction: Direction,
): Position | null {
  const target = Math.min(extent.maxRow, Math.max(extent.minRow, from.row + direction * Math.max(1, rows)));
  for (let row = target; row !== from.row && (direction > 0 ? row > from.row : row < from.row); row -= direction) {
    const found = nearestInRow(hasSquare, extent, row, from.column);
    if (found) return found;
  }
  return null;
}

/** The band holding a row; a row outside every band counts as in the nearest one. */
export function bandIndexOf(bands: readonly BandRows[], row: number): number {
  for (let i = 0; i < bands.length; i++)
    if (row <= bands[i]!.rowTo) return row < bands[i]!.rowFrom && i > 0 ? i - 1 : i;
  return bands.length - 1;
}

/**
 * B (+1, down towards the roots) and Shift+B (-1, up towards the crown): the first row with a square of the next band
 * that has any, on the square nearest the same column. Null when no band that way has a square.
 */
export function bandStep(
  hasSquare: HasSquare,
  extent: GridExtent,
  bands: readonly BandRows[],
  from: Position,
  direction: Direction,
): { position: Position; band: BandRows } | null {
  for (let i = bandIndexOf(bands, from.row) + direction; i >= 0 && i < bands.length; i += direction) {
    const band = bands[i]!;
    const last = Math.min(band.rowTo, extent.maxRow);
    for (let row = Math.max(band.rowFrom, extent.minRow); row <= last; row++) {
      const found = nearestInRow(hasSquare, extent, row, from.column);
      if (found) return { position: found, band };
    }
  }
  return null;
}

/**
 * The next square after `from` (+1) or before it (-1) in reading order (left to right along a row, then the next row)
 * for which `wanted` holds, or null when there is none. Looks at positions one by one: for squares that are many
 * (published pieces), not for rare ones (free squares have their sorted list: nextInList).
 */
export function nextInReadingOrder(
  wanted: HasSquare,
  extent: GridExtent,
  from: Position,
  direction: Direction,
): Position | null {
  let row = from.row;
  let column = from.column + direction;
  while (row >= extent.minRow && row <= extent.maxRow) {
    for (; column >= extent.minColumn && column <= extent.maxColumn; column += direction)
      if (wanted(row, column)) return { row, column };
    row += direction;
    column = direction > 0 ? extent.minColumn : extent.maxColumn;
  }
  return null;
}

/** The next position after `from` (+1) or before it (-1) in a list sorted in reading order (binary search). */
export function nextInList(sorted: readonly Position[], from: Position, direction: Direction): Position | null {
  const after = (p: Position) => p.row > from.row || (p.row === from.row && p.column > from.column);
  let low = 0;
  let high = sorted.length;
  // The first position after `from`.
  while (low < high) {
    const mid = (low + high) >> 1;
    if (after(sorted[mid]!)) high = mid;
    else low = mid + 1;
  }
  if (direction > 0) return sorted[low] ?? null;
  let before = low - 1;
  if (before >= 0 && sorted[before]!.row === from.row && sorted[before]!.column === from.column) before--;
  return before >= 0 ? sorted[before]! : null;
}

/** What an arrow key at the tree's edge says. */
export function edgeText(dRow: number, dColumn: number): string {
  if (dColumn < 0) return 'Edge of the tree: no more columns to the left.';
  if (dColumn > 0) return 'Edge of the tree: no more columns to the right.';
  return dRow < 0 ? 'Edge of the tree: no more rows above.' : 'Edge of the tree: no more rows below.';
}

/** What a long move says when there is nowhere further to go. */
export function farEdgeText(move: FarMove): string {
  switch (move.kind) {
    case 'row-end':
      return edgeText(0, move.direction);
    case 'page':
      return edgeText(move.direction, 0);
    case 'band':
      return move.direction > 0
        ? 'Edge of the tree: no band below this one.'
        : 'Edge of the tree: no band above this one.';
    case 'next': {
      const what = move.what === 'published' ? 'published piece' : 'free square';
      return move.direction > 0
        ? `Edge of the tree: no ${what} after this square.`
        : `Edge of the tree: no ${what} before this square.`;
    }
  }
}

const BAND_LABELS: Record<BandName, string> = {
  crown: 'Crown',
  trunk: 'Trunk and branches',
  seed: 'Seed',
  roots: 'Roots',
};

/** A band's name as the survey and the keyboard say it. */
export function bandLabel(name: BandName): string {
  return BAND_LABELS[name];
}
