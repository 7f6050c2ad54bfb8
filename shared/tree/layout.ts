/**
 * Pure facts about a tree that the engine needs once per snapshot, and the server for the tree's first sketch
 * (server/services/tree/tree-sketch.ts): a CellGrid over the typed arrays (for the shared branch-slot rule), the world
 * rectangle the camera may roam, the divider bands' strips, and where the first view looks.
 */
import { CellStatus } from '../domain.ts';
import { bandStarts, dividerRows, totalRows, type CellGrid, type TreeSettings } from './geometry.ts';
import type { TreeCells } from './tree-cells.ts';
import { TREE_VIEW } from '../constants.ts';
import { CELL_PITCH, CELL_SIZE, clampScale, type Point, type Rect } from './camera.ts';

export function gridOfTreeCells(cells: Pick<TreeCells, 'count' | 'row' | 'col' | 'status' | 'indexOf'>): CellGrid {
  return {
    statusAt(row, column) {
      const i = cells.indexOf.at(row, column);
      return i < 0 ? undefined : cells.status[i];
    },
    forEachPublished(visit) {
      for (let i = 0; i < cells.count; i++) {
        if (cells.status[i] === CellStatus.Published) visit(cells.row[i]!, cells.col[i]!);
      }
    },
  };
}

/** The rows and columns a tree's cells reach (the server reads it with one query; the client from the snapshot). */
export interface CellExtent {
  minRow: number;
  maxRow: number;
  minColumn: number;
  maxColumn: number;
}

/**
 * The extent of `count` cells, read through `rowAt` and `columnAt` (the decoded snapshot's typed arrays on the client,
 * the snapshot's cell list on the server); null for a tree without any.
 */
export function extentOf(
  count: number,
  rowAt: (i: number) => number,
  columnAt: (i: number) => number,
): CellExtent | null {
  if (count === 0) return null;
  const extent = { minRow: Infinity, maxRow: -Infinity, minColumn: Infinity, maxColumn: -Infinity };
  for (let i = 0; i < count; i++) {
    const c = columnAt(i);
    const r = rowAt(i);
    if (c < extent.minColumn) extent.minColumn = c;
    if (c > extent.maxColumn) extent.maxColumn = c;
    if (r < extent.minRow) extent.minRow = r;
    if (r > extent.maxRow) extent.maxRow = r;
  }
  return extent;
}

/** The world rectangle holding every row of the tree and every column of its branch area and cells. */
export function worldBounds(settings: TreeSettings, extent: CellExtent | null): Rect {
  const minColumn = Math.min(0, settings.branch.min_column, extent?.minColumn ?? 0);
  const maxColumn = Math.max(settings.trunk.columns - 1, settings.branch.max_column, extent?.maxColumn ?? 0);
  const minRow = Math.min(0, extent?.minRow ?? 0);
  const maxRow = Math.max(totalRows(settings) - 1, extent?.maxRow ?? 0);
  return {
    x: minColumn * CELL_PITCH,
    y: minRow * CELL_PITCH,
    width: (maxColumn - minColumn) * CELL_PITCH + CELL_SIZE,
    height: (maxRow - minRow) * CELL_PITCH + CELL_SIZE,
  };
}

/** Whether the square at (row, column) lies in the world rectangle (its top-left corner does). */
export function holdsPosition(bounds: Rect, row: number, column: number): boolean {
  const x = column * CELL_PITCH;
  const y = row * CELL_PITCH;
  return x >= bounds.x && x < bounds.x + bounds.width && y >= bounds.y && y < bounds.y + bounds.height;
}

export function worldBoundsOf(settings: TreeSettings, cells: Pick<TreeCells, 'count' | 'row' | 'col'>): Rect {
  return worldBounds(
    settings,
    extentOf(
      cells.count,
      (i) => cells.row[i]!,
      (i) => cells.col[i]!,
    ),
  );
}

/** The divider bands' strips in world pixels (docs/product.md, Growth of the tree), painted by engine and sketch. */
export interface BandStrip extends Rect {
  kind: 'ground' | 'band' | 'line';
}

/** One divider of the band strips, with the world height its label sits at. */
export interface Divider {
  name: ReturnType<typeof dividerRows>[number]['name'];
  labelY: number;
}

const GAP = CELL_PITCH - CELL_SIZE;

/**
 * The ground under the roots divider (a shade darker, so the tree visibly stands on something), then each divider:
 * a strip filling the gap above its row with a thin line along its middle. They run well past the tree's sides.
 */
export function bandStrips(settings: TreeSettings, worldBounds: Rect): { strips: BandStrip[]; dividers: Divider[] } {
  const x = worldBounds.x - 20 * CELL_PITCH;
  const width = worldBounds.width + 40 * CELL_PITCH;
  const groundTop = bandStarts(settings).roots * CELL_PITCH - GAP;
  const groundBottom = worldBounds.y + worldBounds.height + 20 * CELL_PITCH;
  const strips: BandStrip[] = [{ kind: 'ground', x, y: groundTop, width, height: groundBottom - groundTop }];
  const dividers: Divider[] = [];
  for (const divider of dividerRows(settings)) {
    const top = divider.row * CELL_PITCH - GAP;
    strips.push(
      { kind: 'band', x, y: top, width, height: GAP },
      { kind: 'line', x, y: top + GAP / 2 - 0.75, width, height: 1.5 },
    );
    dividers.push({ name: divider.name, labelY: top + GAP / 2 });
  }
  return { strips, dividers };
}

/** The first view's centre: the trunk's middle, across; the seed band's middle, down (the pieces grow from there). */
export function seedViewTarget(settings: TreeSettings): Point {
  const seedTop = bandStarts(settings).seed * CELL_PITCH;
  const seedHeight = settings.trunk.seed_rows * CELL_PITCH - (CELL_PITCH - CELL_SIZE);
  return { x: trunkWidth(settings) / 2, y: seedTop + seedHeight / 2 };
}

/** The trunk's width in world pixels: its columns, without the gap after the last. */
export function trunkWidth(settings: TreeSettings): number {
  return settings.trunk.columns * CELL_PITCH - (CELL_PITCH - CELL_SIZE);
}

/** Screen pixels left on each side of the trunk when the first view shrinks to fit it (a phone). */
export const TRUNK_FIT_MARGIN = 12;

/**
 * The first view's zoom on a screen `viewportWidth` CSS pixels wide: the usual zoom when the trunk's whole width fits
 * in it, else the zoom at which it just fits (a phone), never below the smallest zoom. The server's sketch of that
 * view follows the same rule in CSS (server/services/tree/tree-sketch.ts), since only the browser knows the width.
 */
export function openingScale(settings: TreeSettings, viewportWidth: number): number {
  const fit = (viewportWidth - 2 * TRUNK_FIT_MARGIN) / trunkWidth(settings);
  return clampScale(Math.min(TREE_VIEW.zoomDefault, fit));
}

/** Available squares, cells and branch slots together, in row-then-column order (find-free walks them). */
export function availableSquares(
  cells: Pick<TreeCells, 'count' | 'row' | 'col' | 'status'>,
  slots: readonly { row: number; column: number }[],
): { row: number; column: number }[] {
  const found: { row: number; column: number }[] = [];
  for (let i = 0; i < cells.count; i++) {
    if (cells.status[i] === CellStatus.Available) found.push({ row: cells.row[i]!, column: cells.col[i]! });
  }
  for (const slot of slots) found.push(slot);
  return found.sort((a, b) => a.row - b.row || a.column - b.column);
}
