/**
 * The tree's first sketch, drawn by the server into the /observe page (decision 022): the opening view as inline SVG,
 * in the engine's own looks (cell-look.ts through an SVG Pen) and colours, so a first visit shows the tree with the
 * first paint, before any script runs. The engine's first frame replaces it (client/tree/tree-sketch.ts).
 */
import { and, eq, gt, inArray, max, min, type SQL } from 'drizzle-orm';
import { cells, treeChanges } from '#drizzle/tables.ts';
import { TREE_VIEW } from '#shared/constants.ts';
import { CELL_PITCH, cellCentre, clampPoint, clampScale, type Point, type Rect } from '#shared/tree/camera.ts';
import { drawBranchSlot, drawCell, PALETTE, STRIP_COLOURS, type Pen } from '#shared/tree/cell-look.ts';
import { computeBranchSlots, gridOfCells, type TreeSettings } from '#shared/tree/geometry.ts';
import {
  bandStrips,
  holdsPosition,
  seedViewTarget,
  TRUNK_FIT_MARGIN,
  trunkWidth,
  worldBounds,
  type CellExtent,
} from '#shared/tree/layout.ts';
import type { RegionBounds } from '#shared/tree/region.ts';
import { colorAsSent } from '#shared/tree/snapshot.ts';
import { parseTreeUrl } from '#shared/tree/tree-url.ts';
import type { CellSummary } from '#shared/api-types.ts';
import type { Db } from '../../db.ts';
import { getCellSummary } from './cells.ts';
import type { SnapshotStore } from './snapshot-store.ts';
import { readSnapshotCells, type TreeRow } from './tree.ts';

/**
 * The window the sketch covers, in CSS pixels: most desktop screens; a larger window sees the background beyond. The
 * server needs no window size: the opening view puts one world point mid-area whatever the size (camera.ts keeps only
 * the view's centre inside the world), and the page centres the sketch there (global.css .tree-sketch).
 */
export const SKETCH_WIDTH = 2560;
export const SKETCH_HEIGHT = 1600;

/** Sketches kept, by tree version and view: the default view of each tree, and the shared links most opened. */
const KEPT_SKETCHES = 64;

const hex = (color: number) => `#${color.toString(16).padStart(6, '0')}`;
const num = (n: number) => String(Math.round(n * 100) / 100);

type Shape =
  | { kind: 'rect'; x: number; y: number; width: number; height: number }
  | { kind: 'circle'; x: number; y: number; radius: number }
  | { kind: 'move' | 'line'; x: number; y: number };

/** The path data of shapes; `inset` pulls rectangles and circles in (a stroke kept inside the edge). */
function pathData(shapes: readonly Shape[], inset: number): string {
  let d = '';
  for (const shape of shapes) {
    switch (shape.kind) {
      case 'rect': {
        const width = shape.width - 2 * inset;
        d += `M${num(shape.x + inset)} ${num(shape.y + inset)}h${num(width)}v${num(shape.height - 2 * inset)}h${num(-width)}z`;
        break;
      }
      case 'circle': {
        const r = shape.radius - inset;
        d += `M${num(shape.x + r)} ${num(shape.y)}a${num(r)} ${num(r)} 0 1 0 ${num(-2 * r)} 0a${num(r)} ${num(r)} 0 1 0 ${num(2 * r)} 0z`;
        break;
      }
      default:
        d += `${shape.kind === 'move' ? 'M' : 'L'}${num(shape.x)} ${num(shape.y)}`;
    }
  }
  return d;
}

/**
 * An SVG document as a Pen: shapes gather into a path that the next fill or stroke paints (PixiJS's rule). A lone
 * rectangle or circle is painted as a <rect> or <circle>, which browsers draw with their cheapest operations (a
 * <path> of several squares would go through their general path renderer: a slower first paint in software
 * rendering); lines are <path>s, and line paints in a row with the same style share one element.
 */
export class SvgPen implements Pen {
  private shapes: Shape[] = [];
  /** The path was painted: the next shape begins a new one (a fill then a stroke share the same path). */
  private painted = false;
  private pending: { style: string; d: string } | null = null;
  private readonly out: string[] = [];

  private add(shape: Shape): this {
    if (this.painted) {
      this.shapes = [];
      this.painted = false;
    }
    this.shapes.push(shape);
    return this;
  }

  rect(x: number, y: number, width: number, height: number): this {
    return this.add({ kind: 'rect', x, y, width, height });
  }

  circle(x: number, y: number, radius: number): this {
    return this.add({ kind: 'circle', x, y, radius });
  }

  moveTo(x: number, y: number): this {
    return this.add({ kind: 'move', x, y });
  }

  lineTo(x: number, y: number): this {
    return this.add({ kind: 'line', x, y });
  }

  fill(style: { color: number; alpha?: number }): this {
    const alpha = style.alpha === undefined || style.alpha === 1 ? '' : ` fill-opacity="${num(style.alpha)}"`;
    return this.paint(`fill="${hex(style.color)}"${alpha}`, 0);
  }

  stroke(style: { width: number; color: number; alpha?: number; alignment?: number; cap?: 'square' }): this {
    const alpha = style.alpha === undefined || style.alpha === 1 ? '' : ` stroke-opacity="${num(style.alpha)}"`;
    const cap = style.cap ? ` stroke-linecap="${style.cap}"` : '';
    const attributes = `fill="none" stroke="${hex(style.color)}" stroke-width="${num(style.width)}"${alpha}${cap}`;
    // PixiJS's alignment 1 keeps the line inside the shape's edge: the same line, drawn on a shape half its width in.
    return this.paint(attributes, style.alignment === 1 ? style.width / 2 : 0);
  }

  private paint(style: string, inset: number): this {
    this.painted = true;
    const only = this.shapes.length === 1 ? this.shapes[0]! : null;
    if (only?.kind === 'rect') {
      this.flush();
      const { x, y, width, height } = only;
      this.out.push(
        `<rect x="${num(x + inset)}" y="${num(y + inset)}" width="${num(width - 2 * inset)}" height="${num(height - 2 * inset)}" ${style}/>`,
      );
    } else if (only?.kind === 'circle') {
      this.flush();
      this.out.push(`<circle cx="${num(only.x)}" cy="${num(only.y)}" r="${num(only.radius - inset)}" ${style}/>`);
    } else {
      const d = pathData(this.shapes, inset);
      if (this.pending?.style === style) this.pending.d += d;
      else {
        this.flush();
        this.pending = { style, d };
      }
    }
    return this;
  }

  private flush(): void {
    if (this.pending) this.out.push(`<path ${this.pending.style} d="${this.pending.d}"/>`);
    this.pending = null;
  }

  /** The elements painted so far. */
  markup(): string {
    this.flush();
    return this.out.join('');
  }
}

/** The view a first visit opens at: where it centres, in world pixels, and at what zoom. */
export interface OpeningView {
  centre: Point;
  scale: number;
  /**
   * The default view's: the trunk's width in world pixels. A screen too narrow for it opens at a smaller zoom, just
   * enough for it to fit (layout.ts openingScale), and the sketch shrinks to match in CSS, which knows the width.
   */
  fitsTrunk?: number;
}

/** The sketch's CSS size for a default view: openingScale's rule, with the window's width for the canvas's. */
function fittedSize(trunk: number, scale: number): string {
  const at = (zoom: number) => num((SKETCH_WIDTH * zoom) / scale);
  const perPixel = Math.round((SKETCH_WIDTH / scale / trunk) * 1e5) / 1e5;
  return `width:clamp(${at(TREE_VIEW.zoomMin)}px,calc((100vw - ${2 * TRUNK_FIT_MARGIN}px) * ${perPixel}),${at(TREE_VIEW.zoomDefault)}px);height:auto`;
}

/**
 * The sketch's SVG of the tree's view centred on `view.centre` for a SKETCH_WIDTH × SKETCH_HEIGHT window: the
 * background, the bands, every square in it and the branch slots, as the engine draws them.
 */
export async function drawSketchSvg(
  db: Db,
  tree: TreeRow,
  settings: TreeSettings,
  bounds: Rect,
  view: OpeningView,
): Promise<string> {
  const width = SKETCH_WIDTH / view.scale;
  const height = SKETCH_HEIGHT / view.scale;
  const x = view.centre.x - width / 2;
  const y = view.centre.y - height / 2;
  const region: RegionBounds = {
    row0: Math.floor(y / CELL_PITCH),
    row1: Math.floor((y + height) / CELL_PITCH),
    col0: Math.floor(x / CELL_PITCH),
    col1: Math.floor((x + width) / CELL_PITCH),
  };
  // One square more on every side: a branch slot is a free position touched by exactly one published neighbour.
  const around = await readSnapshotCells(db, tree.id, {
    region: { row0: region.row0 - 1, row1: region.row1 + 1, col0: region.col0 - 1, col1: region.col1 + 1 },
  });
  const inRegion = (row: number, column: number) =>
    row >= region.row0 && row <= region.row1 && column >= region.col0 && column <= region.col1;

  const pen = new SvgPen();
  pen.rect(x, y, width, height).fill({ color: PALETTE.background });
  for (const strip of bandStrips(settings, bounds).strips)
    pen.rect(strip.x, strip.y, strip.width, strip.height).fill({ color: STRIP_COLOURS[strip.kind] });
  for (const cell of around) {
    if (inRegion(cell.row, cell.column))
      drawCell(pen, cell.column * CELL_PITCH, cell.row * CELL_PITCH, cell.status, colorAsSent(cell.color));
  }
  for (const slot of computeBranchSlots(settings, gridOfCells(around))) {
    if (inRegion(slot.row, slot.column)) drawBranchSlot(pen, slot.column * CELL_PITCH, slot.row * CELL_PITCH);
  }
  const viewBox = [x, y, width, height].map(num).join(' ');
  const fitted = view.fitsTrunk ? ` style="${fittedSize(view.fitsTrunk, view.scale)}"` : '';
  return (
    `<div class="tree-sketch" aria-hidden="true">` +
    `<svg xmlns="http://www.w3.org/2000/svg"${fitted} width="${SKETCH_WIDTH}" height="${SKETCH_HEIGHT}" viewBox="${viewBox}">${pen.markup()}</svg>` +
    `</div>`
  );
}

/** The rows and columns the cells that `which` picks reach, in one query. */
async function readExtent(db: Db, which: SQL): Promise<CellExtent | null> {
  const found = (
    await db
      .select({
        minRow: min(cells.row),
        maxRow: max(cells.row),
        minColumn: min(cells.column),
        maxColumn: max(cells.column),
      })
      .from(cells)
      .where(which)
  )[0];
  if (!found || found.minRow === null || found.maxRow === null || found.minColumn === null || found.maxColumn === null)
    return null;
  return { minRow: found.minRow, maxRow: found.maxRow, minColumn: found.minColumn, maxColumn: found.maxColumn };
}

/**
 * The sketch for a visit to /observe with the given query string, drawn once per tree version and view and kept
 * (the default view of each tree, and the shared links most opened). The view is the engine's: the address's
 * position if it lies in the tree (client/tree/tree-view.tsx), the cell its token names, else the seed band.
 */
export class TreeSketches {
  private readonly kept = new Map<string, string>();
  /** Each tree's extent at a version; cells are never deleted, so a later version's only adds its new cells'. */
  private readonly extents = new Map<number, { version: number; extent: CellExtent | null }>();

  constructor(
    private readonly db: Db,
    private readonly snapshots: SnapshotStore,
  ) {}

  async forVisit(tree: TreeRow, search: string): Promise<string> {
    const settings = tree.settings as TreeSettings;
    const bounds = worldBounds(settings, await this.extentOf(tree));
    const view = await this.viewOf(tree, settings, bounds, search);
    const key = `${tree.id}:${tree.version}:${view.centre.x},${view.centre.y},${view.scale}`;
    const found = this.kept.get(key);
    if (found !== undefined) {
      // Most recently used last: the first key is the one to drop.
      this.kept.delete(key);
      this.kept.set(key, found);
      return found;
    }
    const drawn = await drawSketchSvg(this.db, tree, settings, bounds, view);
    this.kept.set(key, drawn);
    if (this.kept.size > KEPT_SKETCHES) this.kept.delete(this.kept.keys().next().value!);
    return drawn;
  }

  private async cellOf(token: string): Promise<CellSummary | null> {
    try {
      return await getCellSummary(this.db, token);
    } catch {
      return null;
    }
  }

  /**
   * The extent at the tree's version: kept from a built snapshot or an earlier visit and widened by the cells changed
   * since (the change log names them), or read whole when the log no longer reaches back.
   */
  private async extentOf(tree: TreeRow): Promise<CellExtent | null> {
    let kept = this.extents.get(tree.id);
    const built = this.snapshots.peek(tree.id);
    if (built && (!kept || built.version > kept.version)) kept = { version: built.version, extent: built.extent };
    if (kept?.version === tree.version) return kept.extent;
    let extent: CellExtent | null;
    if (kept && kept.version >= tree.changesFrom) {
      const changed = this.db
        .select({ id: treeChanges.cellId })
        .from(treeChanges)
        .where(and(eq(treeChanges.treeId, tree.id), gt(treeChanges.seq, kept.version)));
      // The query builder itself, not its getSQL(): drizzle puts a builder in parentheses and a bare SQL chunk as it
      // is, and `id in select …` without them is a syntax error. By id alone: with the tree's condition beside it,
      // SQLite would walk the whole tree.
      extent = widen(kept.extent, await readExtent(this.db, inArray(cells.id, changed)));
    } else {
      extent = await readExtent(this.db, eq(cells.treeId, tree.id));
    }
    this.extents.set(tree.id, { version: tree.version, extent });
    return extent;
  }

  private async viewOf(tree: TreeRow, settings: TreeSettings, bounds: Rect, search: string): Promise<OpeningView> {
    const asked = parseTreeUrl(search);
    let target: Point | null = null;
    if (asked.kind === 'position' && holdsPosition(bounds, asked.row, asked.column))
      target = cellCentre(asked.row, asked.column);
    if (asked.kind === 'cell') {
      const cell = await this.cellOf(asked.token);
      if (cell?.treeToken === tree.token) target = cellCentre(cell.row, cell.column);
    }
    if (target && (asked.kind === 'position' || asked.kind === 'cell'))
      return { centre: clampPoint(target, bounds), scale: clampScale(asked.scale) };
    return {
      centre: clampPoint(seedViewTarget(settings), bounds),
      scale: TREE_VIEW.zoomDefault,
      fitsTrunk: trunkWidth(settings),
    };
  }
}

function widen(a: CellExtent | null, b: CellExtent | null): CellExtent | null {
  if (!a || !b) return a ?? b;
  return {
    minRow: Math.min(a.minRow, b.minRow),
    maxRow: Math.max(a.maxRow, b.maxRow),
    minColumn: Math.min(a.minColumn, b.minColumn),
    maxColumn: Math.max(a.maxColumn, b.maxColumn),
  };
}
