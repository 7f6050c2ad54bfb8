/**
 * The chunks of one tree on the canvas: which are built, which are shown, which wait to be built. Culling compares
 * chunk bounds with the view, never single cells over the tree.
 */
import { Container } from 'pixi.js';
import type { TreeCells } from '#shared/tree/snapshot.ts';
import { CELL_PITCH, type Rect } from '#shared/tree/camera.ts';
import type { CellDetails } from './cell-details.ts';
import { CHUNK_WORLD, type ChunkEntry, type ChunkIndex, chunkRangeOf, chunksInRange, inRange } from './chunk-index.ts';
import { ChunkView, drawingCost } from './chunk-view.ts';
import type { ThumbnailCache } from './thumbnails.ts';

/**
 * Chunks built per frame at most, so a fast pan never stalls a frame. Building is timed, but more comes at the
 * chunk's first render, where PixiJS turns its shapes into triangles and packs them for the GPU: the drawing cost
 * (cell-look.ts) bounds both. Three chunks of a grown tree's squares fit in a frame's share (each about 370: mostly
 * published, some free, now and then a reserved one); a chunk at the growth frontier (about 2,200) is drawn in two
 * parts, one full of reserved squares in eleven (decision 045).
 */
const BUILD_BUDGET = 3;
const BUILD_BUDGET_MS = 5;
export const BUILD_COST_BUDGET = 1_200;
/** Chunks this far (world pixels) outside the view are shown early; beyond KEEP_MARGIN they are destroyed. */
const SHOW_MARGIN = CHUNK_WORLD * 0.25;
const KEEP_MARGIN = CHUNK_WORLD * 2;
/** Thumbnails load for cells within this many world pixels of the view (the next ring of cells, ready to pan to). */
const THUMBNAIL_MARGIN = 2 * CELL_PITCH;

function grow(rect: Rect, by: number): Rect {
  return { x: rect.x - by, y: rect.y - by, width: rect.width + 2 * by, height: rect.height + 2 * by };
}

/**
 * Chunks are built a few per frame, nearest the middle first, and destroyed, with their thumbnails, once they are well
 * out of sight. Only shown chunks look at their thumbnails, so that work follows the screen's size too.
 */
export class ChunkField {
  readonly layer = new Container({ label: 'chunks' });
  private readonly built = new Map<number, ChunkView>();
  /** Built chunks whose picture is out of date: still shown until their rebuild, which comes first in the queue. */
  private readonly stale = new Set<number>();
  private shown: ChunkView[] = [];
  private queue: ChunkEntry[] = [];
  /** A chunk too costly for one frame, drawn in parts: shown as it comes, or (a rebuild) once it is whole. */
  private drawing: ChunkView | null = null;
  /** Where thumbnails are loaded (null when zoomed out) and how far out they are kept. */
  private thumbnailLoad: Rect | null = null;
  private thumbnailKeep: Rect = { x: 0, y: 0, width: 0, height: 0 };

  constructor(
    private cells: TreeCells,
    private readonly slots: readonly { row: number; column: number }[],
    private readonly index: ChunkIndex,
    private readonly details: CellDetails,
    private readonly thumbnails: ThumbnailCache,
    /** Asks for another frame (a thumbnail arrived). */
    private readonly onChange: () => void,
  ) {}

  get builtCount(): number {
    return this.built.size;
  }

  get shownCount(): number {
    return this.shown.length;
  }

  /** Squares (cells and slots) in shown chunks. */
  get squaresShown(): number {
    let squares = 0;
    for (const chunk of this.shown) squares += chunk.squareCount;
    return squares;
  }

  /** Thumbnails drawn in shown chunks. */
  get thumbnailsShown(): number {
    let drawn = 0;
    for (const chunk of this.shown) drawn += chunk.thumbnailsDrawn;
    return drawn;
  }

  get waiting(): boolean {
    return this.queue.length > 0;
  }

  /** Shows the built chunks the view touches, queues the missing ones and destroys those far away. */
  cull(view: Rect, showThumbnails: boolean): void {
    this.thumbnailLoad = showThumbnails ? grow(view, THUMBNAIL_MARGIN) : null;
    this.thumbnailKeep = grow(view, Math.max(view.width, view.height) / 2);
    const wanted = chunksInRange(this.index, chunkRangeOf(view, SHOW_MARGIN));
    const wantedKeys = new Set<number>();
    for (const entry of wanted) wantedKeys.add(entry.key);
    if (this.drawing && !wantedKeys.has(this.drawing.entry.key)) this.stopDrawing();
    for (const chunk of this.shown) {
      if (wantedKeys.has(chunk.entry.key)) continue;
      if (this.stale.has(chunk.entry.key)) this.drop(chunk.entry.key, chunk);
      else chunk.visible = false;
    }

    const shown: ChunkView[] = [];
    const queue: ChunkEntry[] = [];
    for (const entry of wanted) {
      const chunk = this.built.get(entry.key);
      if (chunk) {
        chunk.visible = true;
        chunk.updateThumbnails(this.thumbnailLoad, this.thumbnailKeep);
        shown.push(chunk);
      } else {
        queue.push(entry);
      }
    }
    this.shown = shown;
    this.queue = queue;

    const keep = chunkRangeOf(view, KEEP_MARGIN);
    for (const [key, chunk] of this.built) {
      if (inRange(keep, chunk.entry.chunkRow, chunk.entry.chunkColumn)) continue;
      this.drop(key, chunk);
    }
    // Stale chunks on screen are rebuilt before new ones are built.
    if (this.stale.size > 0)
      this.queue = [...shown.filter((chunk) => this.stale.has(chunk.entry.key)).map((chunk) => chunk.entry), ...queue];
  }

  /** The cells object changed (cells were added: its arrays grew). */
  setCells(cells: TreeCells): void {
    this.cells = cells;
  }

  /**
   * These chunks' squares changed: a shown one is drawn again in the next frames (it stays as it was until then),
   * a hidden one is dropped (built again when it is next in view), one never built is built with the new data.
   */
  invalidate(keys: Iterable<number>): void {
    const first: ChunkEntry[] = [];
    for (const key of keys) {
      if (this.drawing?.entry.key === key) this.stopDrawing();
      const chunk = this.built.get(key);
      if (!chunk) continue;
      if (!chunk.visible) {
        this.drop(key, chunk);
      } else if (!this.stale.has(key)) {
        this.stale.add(key);
        first.push(chunk.entry);
      }
    }
    if (first.length > 0) this.queue = [...first, ...this.queue];
  }

  /** Destroys every built chunk (the tree is set aside for a while: the replay shows another). */
  releaseAll(): void {
    this.stopDrawing();
    for (const [key, chunk] of this.built) this.drop(key, chunk);
    this.shown = [];
    this.queue = [];
  }

  private drop(key: number, chunk: ChunkView): void {
    chunk.destroy();
    this.built.delete(key);
    this.stale.delete(key);
  }

  private stopDrawing(): void {
    this.drawing?.destroy();
    this.drawing = null;
  }

  /** Builds waiting chunks within this frame's budget. */
  buildSome(): void {
    const started = performance.now();
    // A chunk drawn in parts goes on first, while it is still wanted.
    const drawing = this.drawing;
    if (drawing) {
      const at = this.queue.findIndex((entry) => entry.key === drawing.entry.key);
      if (at < 0) this.stopDrawing();
      else if (at > 0) this.queue.unshift(...this.queue.splice(at, 1));
    }
    let builtNow = 0;
    let cost = 0;
    while (this.queue.length > 0 && builtNow < BUILD_BUDGET && performance.now() - started < BUILD_BUDGET_MS) {
      const entry = this.queue[0]!;
      const old = this.built.get(entry.key);
      if (old && !this.stale.has(entry.key)) {
        this.queue.shift();
        continue;
      }
      let chunk = this.drawing?.entry.key === entry.key ? this.drawing : null;
      if (!chunk) {
        const whole = drawingCost(entry, this.cells);
        if (builtNow > 0 && cost + whole > BUILD_COST_BUDGET) break;
        chunk = new ChunkView(entry, this.cells, this.slots, this.details, this.thumbnails, this.onChange);
        // A new chunk shows its parts as they come; a rebuild replaces the old picture once whole.
        if (!old) this.layer.addChild(chunk.container);
      }
      cost += chunk.drawSome(BUILD_COST_BUDGET);
      if (!chunk.complete) {
        this.drawing = chunk;
        break;
      }
      this.drawing = null;
      this.queue.shift();
      if (old) this.layer.addChild(chunk.container);
      this.built.set(entry.key, chunk);
      chunk.updateThumbnails(this.thumbnailLoad, this.thumbnailKeep);
      if (old) {
        // The new picture replaces the stale one in place (its thumbnails were asked for first, so most are held).
        this.stale.delete(entry.key);
        const at = this.shown.indexOf(old);
        if (at >= 0) this.shown[at] = chunk;
        else this.shown.push(chunk);
        old.destroy();
      } else {
        this.shown.push(chunk);
      }
      builtNow++;
    }
  }

  /** New details arrived (a region answer): shown chunks look for thumbnails again. */
  refreshThumbnails(): void {
    for (const chunk of this.shown) chunk.updateThumbnails(this.thumbnailLoad, this.thumbnailKeep);
  }

  destroy(): void {
    this.stopDrawing();
    for (const chunk of this.built.values()) chunk.destroy();
    this.built.clear();
    this.stale.clear();
    this.shown = [];
    this.queue = [];
    this.layer.destroy();
  }
}
