/**
 * The tree's first sketch, drawn in the snapshot worker on a 2D canvas the page handed over (tree-sketch.ts): the
 * opening view's bands and squares, painted the moment the snapshot is decoded, while the page's main thread is
 * still booting the app and starting WebGL. The engine's first frame replaces it. It opens where the engine will
 * (tree-layout.ts and camera.ts give both the same camera) and draws each square with the engine's own looks
 * (cell-look.ts, through a 2D-canvas Pen), so the hand-over changes nothing but what only the engine adds: band
 * labels, thumbnails and marks.
 */
import { TREE_VIEW } from '#shared/constants.ts';
import type { TreeSettings } from '#shared/tree/geometry.ts';
import type { TreeCells } from '#shared/tree/snapshot.ts';
import { CELL_PITCH, cellCentre, centredOn, clampToBounds, viewRect, type Camera, type Rect } from './engine/camera.ts';
import { drawBranchSlot, drawCell, PALETTE, STRIP_COLOURS, type Pen } from './engine/cell-look.ts';
import { bandStrips, seedViewTarget, worldBoundsOf } from './engine/tree-layout.ts';

/** The square the address asks the first view to centre (tree-url.ts), at its zoom. */
export interface SketchView {
  row: number;
  column: number;
  scale: number;
}

/** What the page hands the worker: the canvas's drawing surface and the size it shows at, in CSS pixels. */
export interface SketchTarget {
  canvas: OffscreenCanvas;
  width: number;
  height: number;
  pixelRatio: number;
  view: SketchView | null;
}

const css = (color: number) => `#${color.toString(16).padStart(6, '0')}`;

/** A 2D canvas as a Pen: shapes gather into a path that the next fill or stroke paints (PixiJS's rule). */
class CanvasPen implements Pen {
  /** The path was painted: the next shape begins a new one (a fill then a stroke share the same path). */
  private painted = false;

  constructor(private readonly ctx: OffscreenCanvasRenderingContext2D) {}

  private shape(): CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D {
    if (this.painted) {
      this.ctx.beginPath();
      this.painted = false;
    }
    return this.ctx;
  }

  rect(x: number, y: number, width: number, height: number): this {
    this.shape().rect(x, y, width, height);
    return this;
  }

  circle(x: number, y: number, radius: number): this {
    const ctx = this.shape();
    ctx.moveTo(x + radius, y);
    ctx.arc(x, y, radius, 0, 2 * Math.PI);
    return this;
  }

  moveTo(x: number, y: number): this {
    this.shape().moveTo(x, y);
    return this;
  }

  lineTo(x: number, y: number): this {
    this.shape().lineTo(x, y);
    return this;
  }

  fill(style: { color: number; alpha?: number }): this {
    this.ctx.globalAlpha = style.alpha ?? 1;
    this.ctx.fillStyle = css(style.color);
    this.ctx.fill();
    this.painted = true;
    return this;
  }

  stroke(style: { width: number; color: number; alpha?: number; alignment?: number; cap?: 'round' }): this {
    const { ctx } = this;
    ctx.save();
    ctx.globalAlpha = style.alpha ?? 1;
    ctx.strokeStyle = css(style.color);
    ctx.lineCap = style.cap ?? 'butt';
    ctx.lineWidth = style.width;
    if (style.alignment === 1) {
      // Inside the edge: twice the width, clipped to the shape.
      ctx.clip();
      ctx.lineWidth = style.width * 2;
    }
    ctx.stroke();
    ctx.restore();
    this.painted = true;
    return this;
  }
}

/** The engine's first camera for this tree: the address's square if the tree has it, else the seed band. */
function openingCamera(cells: TreeCells, settings: TreeSettings, slots: readonly { row: number; column: number }[], bounds: Rect, target: SketchTarget): Camera {
  const { width, height, view } = target;
  const hasSquare = view && (cells.indexOf.at(view.row, view.column) >= 0 || slots.some((s) => s.row === view.row && s.column === view.column));
  const camera = view && hasSquare ? centredOn(cellCentre(view.row, view.column), view.scale, width, height) : centredOn(seedViewTarget(settings), TREE_VIEW.zoomDefault, width, height);
  return clampToBounds(camera, bounds, width, height);
}

/**
 * Readies the page's canvas and paints it the tree's background: called as the fetch starts, so that setting up
 * the canvas (slow the first time) overlaps the fetch. Null when the canvas offers no 2D context.
 */
export function startSketch(target: SketchTarget): OffscreenCanvasRenderingContext2D | null {
  const ctx = target.canvas.getContext('2d', { alpha: false, willReadFrequently: true });
  if (!ctx) return null;
  ctx.fillStyle = css(PALETTE.background);
  ctx.fillRect(0, 0, target.canvas.width, target.canvas.height);
  return ctx;
}

/** Paints the opening view on the canvas startSketch readied. */
export function drawSketch(target: SketchTarget, ctx: OffscreenCanvasRenderingContext2D, cells: TreeCells, settings: TreeSettings, slots: readonly { row: number; column: number }[]): void {
  const bounds = worldBoundsOf(settings, cells);
  const camera = openingCamera(cells, settings, slots, bounds, target);
  const k = camera.scale * target.pixelRatio;
  ctx.setTransform(k, 0, 0, k, -camera.x * k, -camera.y * k);

  for (const strip of bandStrips(settings, bounds).strips) {
    ctx.fillStyle = css(STRIP_COLOURS[strip.kind]);
    ctx.fillRect(strip.x, strip.y, strip.width, strip.height);
  }
  const view = viewRect(camera, target.width, target.height);
  const first = { row: Math.floor(view.y / CELL_PITCH), column: Math.floor(view.x / CELL_PITCH) };
  const last = { row: Math.ceil((view.y + view.height) / CELL_PITCH), column: Math.ceil((view.x + view.width) / CELL_PITCH) };
  const pen = new CanvasPen(ctx);
  for (let row = first.row; row <= last.row; row++) {
    for (let column = first.column; column <= last.column; column++) {
      const i = cells.indexOf.at(row, column);
      if (i >= 0) drawCell(pen, column * CELL_PITCH, row * CELL_PITCH, cells.status[i]!, cells.color[i]!);
    }
  }
  for (const slot of slots) {
    const inView = slot.row >= first.row && slot.row <= last.row && slot.column >= first.column && slot.column <= last.column;
    if (inView) drawBranchSlot(pen, slot.column * CELL_PITCH, slot.row * CELL_PITCH);
  }
}
