/**
 * The tree canvas engine (DESIGN.md §6): plain TypeScript, owned by one React component through a ref. It keeps the
 * camera, applies it to the world layer (a render group), asks the chunk field to cull and build, places the band
 * labels, turns taps into cell hits, and renders only when something changed (no idle frames).
 */
import { Graphics, type Application, type Container } from 'pixi.js';
import { TREE_VIEW } from '#shared/constants.ts';
import { CellStatus } from '#shared/domain.ts';
import { computeBranchSlots, positionKey, type TreeSettings } from '#shared/tree/geometry.ts';
import type { TreeCells } from '#shared/tree/snapshot.ts';
import { DividerBands } from './bands.ts';
import { PALETTE } from './cell-look.ts';
import {
  type Camera,
  type Point,
  type Rect,
  CELL_PITCH,
  CELL_SIZE,
  cellCentre,
  centredOn,
  clampToBounds,
  panBy,
  screenToWorld,
  steppedScale,
  viewRect,
  worldToCell,
  zoomAt,
} from './camera.ts';
import { buildChunkIndex } from './chunk-index.ts';
import { ChunkField } from './chunk-field.ts';
import { CanvasInput } from './input.ts';
import { createTreeStats, type TreeStats } from './stats.ts';
import { ThumbnailCache } from './thumbnails.ts';
import { gridOfTreeCells, seedViewTarget, worldBoundsOf } from './tree-layout.ts';

/** Thumbnails show from this scale up; below it a cell is its art's dominant colour. */
export const THUMBNAIL_MIN_SCALE = 0.75;

export interface CellHit {
  /** 'slot' is a computed branch slot: an available square with no cell yet. */
  kind: 'cell' | 'slot';
  row: number;
  column: number;
  status: number;
  token: string | null;
}

export interface TreeEngineOptions {
  app: Application;
  /** The world layer: a render group, so pan and zoom move one GPU transform. */
  world: Container;
  /** The screen-space layer above the world (band labels). */
  overlay: Container;
  /** The element that receives keyboard input (the canvas's focusable wrapper). */
  keyTarget: HTMLElement;
  onCellTap?(hit: CellHit): void;
  onScaleChange?(scale: number): void;
  onDraggingChange?(dragging: boolean): void;
  /** Once, after the first frame that shows cells. */
  onFirstFrame?(): void;
}

interface LoadedTree {
  cells: TreeCells;
  settings: TreeSettings;
  chunks: ChunkField;
  slotKeys: Set<number>;
  bounds: Rect;
  bands: DividerBands;
}

export class TreeEngine {
  readonly stats: TreeStats = createTreeStats();
  private camera: Camera = { x: 0, y: 0, scale: TREE_VIEW.zoomDefault };
  /** A view to apply once the canvas has a size: a camera, or the default seed view. */
  private pendingView: Camera | 'seed' | null = null;
  private tree: LoadedTree | null = null;
  /** Outline of the square under the mouse. */
  private readonly hoverMark = new Graphics({ label: 'hover' });
  private hoveredKey: number | null = null;
  private readonly thumbnails = new ThumbnailCache();
  private readonly input: CanvasInput;
  private frameId = 0;
  private cullNeeded = true;
  private destroyed = false;

  constructor(private readonly options: TreeEngineOptions) {
    const { app, world } = options;
    world.addChild(this.hoverMark);
    this.input = new CanvasInput(app.canvas, options.keyTarget, {
      pan: (dx, dy) => this.setCamera(panBy(this.camera, dx, dy)),
      zoomStep: (anchor, direction) => this.setCamera(zoomAt(this.camera, anchor, steppedScale(this.camera.scale, direction))),
      zoomBy: (anchor, factor) => this.setCamera(zoomAt(this.camera, anchor, this.camera.scale * factor)),
      tap: (point) => this.tap(point),
      hover: (point) => this.hover(point),
      dragging: (active) => options.onDraggingChange?.(active),
    });
    app.renderer.on('resize', this.onResize);
  }

  /**
   * Shows a decoded snapshot. `view` restores a remembered camera; without it a first tree opens on the seed band
   * and a refreshed tree keeps the current view.
   */
  setTree(cells: TreeCells, settings: TreeSettings, view: Camera | null = null): void {
    const hadTree = this.tree !== null;
    this.clearTree();
    const slots = computeBranchSlots(settings, gridOfTreeCells(cells));
    const bounds = worldBoundsOf(settings, cells);
    const bands = new DividerBands(settings, bounds);
    const chunks = new ChunkField(cells, slots, buildChunkIndex(cells, slots), this.thumbnails, () => this.requestFrame());
    // Bottom to top: bands, chunks, the hover outline.
    this.options.world.addChildAt(bands.strips, 0);
    this.options.world.addChildAt(chunks.layer, 1);
    this.options.overlay.addChild(bands.labels);
    this.tree = { cells, settings, chunks, slotKeys: new Set(slots.map((s) => positionKey(s.row, s.column))), bounds, bands };
    this.stats.cells = cells.count;
    this.pendingView = view ?? (hadTree ? this.camera : 'seed');
    this.requestFrame();
  }

  getCamera(): Camera {
    return this.camera;
  }

  setCamera(next: Camera): void {
    const { width, height } = this.viewport();
    const clamped = this.tree && width > 0 ? clampToBounds(next, this.tree.bounds, width, height) : next;
    const scaleChanged = clamped.scale !== this.camera.scale;
    this.camera = clamped;
    this.cullNeeded = true;
    this.requestFrame();
    if (scaleChanged) this.options.onScaleChange?.(clamped.scale);
  }

  /** One zoom step about the centre of the canvas (the top panel's + and − buttons). */
  zoomStep(direction: 1 | -1): void {
    const { width, height } = this.viewport();
    this.setCamera(zoomAt(this.camera, { x: width / 2, y: height / 2 }, steppedScale(this.camera.scale, direction)));
  }

  /** Centres the view on a cell (find-free and find-my-slots use this later). */
  centreOnCell(row: number, column: number, scale = this.camera.scale): void {
    const { width, height } = this.viewport();
    this.setCamera(centredOn(cellCentre(row, column), scale, width, height));
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    if (this.frameId) cancelAnimationFrame(this.frameId);
    this.input.destroy();
    this.options.app.renderer?.off('resize', this.onResize);
    this.clearTree();
    this.thumbnails.destroy();
    this.hoverMark.destroy();
  }

  private viewport(): { width: number; height: number } {
    const screen = this.options.app.renderer?.screen;
    return { width: screen?.width ?? 0, height: screen?.height ?? 0 };
  }

  private clearTree(): void {
    this.tree?.chunks.destroy();
    this.tree?.bands.destroy();
    this.tree = null;
    this.hoveredKey = null;
    this.hoverMark.clear();
  }

  private onResize = (): void => {
    this.cullNeeded = true;
    // The resize plugin renders right after this event; bring the view up to date first.
    this.update();
    this.requestFrame();
  };

  private requestFrame(): void {
    if (this.frameId || this.destroyed) return;
    this.frameId = requestAnimationFrame(this.frame);
  }

  private frame = (): void => {
    this.frameId = 0;
    if (this.destroyed) return;
    this.update();
    this.options.app.render();
    if (this.stats.firstFrameAt === null && this.tree && (this.stats.cellsDrawn > 0 || this.tree.cells.count === 0)) {
      this.stats.firstFrameAt = performance.now();
      this.options.onFirstFrame?.();
    }
    if (this.tree?.chunks.waiting) this.requestFrame();
  };

  /** Applies the camera, culls chunks when the view moved, and builds a few waiting chunks. */
  private update(): void {
    const tree = this.tree;
    const { width, height } = this.viewport();
    if (!tree || width === 0 || height === 0) return;
    if (this.pendingView) {
      const target = this.pendingView === 'seed' ? centredOn(seedViewTarget(tree.settings), TREE_VIEW.zoomDefault, width, height) : this.pendingView;
      this.pendingView = null;
      this.setCamera(target);
    }
    if (this.cullNeeded) {
      this.cullNeeded = false;
      this.applyCamera();
      tree.chunks.cull(viewRect(this.camera, width, height), this.camera.scale >= THUMBNAIL_MIN_SCALE);
      tree.bands.place(this.camera, height);
    }
    tree.chunks.buildSome();
    this.updateStats(tree.chunks);
  }

  private applyCamera(): void {
    const { world } = this.options;
    const { x, y, scale } = this.camera;
    world.scale.set(scale);
    // Whole device pixels keep the square edges crisp while panning.
    const resolution = this.options.app.renderer.resolution || 1;
    world.position.set(Math.round(-x * scale * resolution) / resolution, Math.round(-y * scale * resolution) / resolution);
  }

  private updateStats(chunks: ChunkField): void {
    const stats = this.stats;
    stats.chunksBuilt = chunks.builtCount;
    stats.chunksVisible = chunks.shownCount;
    stats.cellsDrawn = chunks.squaresShown;
    stats.thumbnailsLoaded = this.thumbnails.loadedCount;
    stats.scale = this.camera.scale;
    stats.x = this.camera.x;
    stats.y = this.camera.y;
  }

  /** The cell or branch slot under a screen point, if any. */
  hitAt(point: Point): CellHit | null {
    const tree = this.tree;
    if (!tree) return null;
    const position = worldToCell(screenToWorld(this.camera, point));
    if (!position) return null;
    const key = positionKey(position.row, position.column);
    const index = tree.cells.indexOf.get(key);
    if (index !== undefined) {
      return {
        kind: 'cell',
        row: position.row,
        column: position.column,
        status: tree.cells.status[index]!,
        token: tree.cells.token?.[index] || null,
      };
    }
    if (tree.slotKeys.has(key)) {
      return { kind: 'slot', row: position.row, column: position.column, status: CellStatus.Available, token: null };
    }
    return null;
  }

  private tap(point: Point): void {
    const hit = this.hitAt(point);
    if (hit) this.options.onCellTap?.(hit);
  }

  /** Outlines the square under the mouse and shows a pointer, so what can be opened is plain to see. */
  private hover(point: Point | null): void {
    const hit = point ? this.hitAt(point) : null;
    const key = hit ? positionKey(hit.row, hit.column) : null;
    if (key === this.hoveredKey) return;
    this.hoveredKey = key;
    this.hoverMark.clear();
    if (hit) {
      this.hoverMark
        .rect(hit.column * CELL_PITCH - 3, hit.row * CELL_PITCH - 3, CELL_SIZE + 6, CELL_SIZE + 6)
        .stroke({ width: 2, color: PALETTE.ink, alpha: 0.55 });
    }
    this.options.app.canvas.style.cursor = hit ? 'pointer' : '';
    this.requestFrame();
  }
}
