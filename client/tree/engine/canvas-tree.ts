/**
 * One decoded tree on the canvas: its cells and branch slots, the divider bands and chunks that draw them, what is
 * known of each cell beyond the snapshot (tokens, thumbnails, titles, loaded per region on a large tree), and the
 * questions asked of it by position: is there a square here, what is it, where is this token.
 */
import type { Container } from 'pixi.js';
import { CellStatus } from '#shared/domain.ts';
import { positionKey, type TreeSettings } from '#shared/tree/geometry.ts';
import type { TreeCells } from '#shared/tree/snapshot.ts';
import { DividerBands } from './bands.ts';
import { CELL_PITCH, viewRect, type Camera, type Rect } from '#shared/tree/camera.ts';
import { CellDetails } from './cell-details.ts';
import { buildChunkIndex } from './chunk-index.ts';
import { ChunkField } from './chunk-field.ts';
import type { Position } from './focus.ts';
import { RegionLoader, type FetchRegion } from './region-loader.ts';
import type { ThumbnailCache } from './thumbnails.ts';
import { availableSquares, holdsPosition, worldBoundsOf } from '#shared/tree/layout.ts';

/** Thumbnails show from this scale up; below it a cell is its art's dominant colour. */
export const THUMBNAIL_MIN_SCALE = 0.75;

export interface CellHit {
  /** 'slot' is a computed branch slot: an available square with no cell yet. */
  kind: 'cell' | 'slot';
  row: number;
  column: number;
  status: number;
  token: string | null;
  /** A published piece's title and artist, once known (region details). */
  piece: { title: string; artist: string } | null;
}

export interface CanvasTreeDeps {
  world: Container;
  overlay: Container;
  thumbnails: ThumbnailCache;
  fetchRegion?: FetchRegion;
  /** Something drawn changed outside a camera move (a thumbnail arrived). */
  onChange(): void;
  /** A region's details arrived. */
  onRegion(): void;
}

export class CanvasTree {
  readonly bounds: Rect;
  readonly chunks: ChunkField;
  readonly details: CellDetails;
  readonly bands: DividerBands;
  private readonly regions: RegionLoader | null;
  private readonly slotKeys: Set<number>;
  private available: Position[] | null = null;

  constructor(
    readonly cells: TreeCells,
    readonly settings: TreeSettings,
    private readonly slots: readonly Position[],
    deps: CanvasTreeDeps,
  ) {
    this.bounds = worldBoundsOf(settings, cells);
    this.bands = new DividerBands(settings, this.bounds);
    this.details = new CellDetails(cells);
    this.chunks = new ChunkField(cells, slots, buildChunkIndex(cells, slots), this.details, deps.thumbnails, deps.onChange);
    this.regions = deps.fetchRegion ? new RegionLoader(this.details, deps.fetchRegion, deps.onRegion) : null;
    this.slotKeys = new Set(slots.map((s) => positionKey(s.row, s.column)));
    // Bottom to top: bands, chunks, then whatever the engine keeps above them (marks, the hover outline).
    deps.world.addChildAt(this.bands.strips, 0);
    deps.world.addChildAt(this.chunks.layer, 1);
    deps.overlay.addChild(this.bands.labels);
  }

  /** The camera moved: shows what its view needs (chunks, the band labels, a large tree's region details). */
  showView(camera: Camera, width: number, height: number): void {
    const view = viewRect(camera, width, height);
    this.chunks.cull(view, camera.scale >= THUMBNAIL_MIN_SCALE);
    this.bands.place(camera, height);
    this.wantRegionsAround(view);
  }

  /** Whether a position holds a cell or a branch slot. */
  hasSquare(row: number, column: number): boolean {
    return this.cells.indexOf.at(row, column) >= 0 || this.slotKeys.has(positionKey(row, column));
  }

  /** The cell or branch slot at a position, if any. */
  hitAtCell(row: number, column: number): CellHit | null {
    const index = this.cells.indexOf.at(row, column);
    if (index >= 0) {
      return {
        kind: 'cell',
        row,
        column,
        status: this.cells.status[index]!,
        token: this.details.tokenOf(index),
        piece: this.details.pieceOf(index),
      };
    }
    if (this.slotKeys.has(positionKey(row, column))) return { kind: 'slot', row, column, status: CellStatus.Available, token: null, piece: null };
    return null;
  }

  /** A hit with its token: on a large tree the cell's region is loaded now if it has not arrived yet. */
  async resolveHit(hit: CellHit): Promise<CellHit> {
    if (hit.kind !== 'cell' || hit.token || !this.regions) return hit;
    await this.regions.ensure(hit.row, hit.column);
    return this.hitAtCell(hit.row, hit.column) ?? hit;
  }

  /** Loads the region of a square whose title is not known yet (the keyboard's focus needs it). */
  loadDetailsOf(row: number, column: number): void {
    const index = this.cells.indexOf.at(row, column);
    if (this.regions && index >= 0 && !this.details.regionLoadedFor(index)) void this.regions.ensure(row, column);
  }

  /** A large tree: asks for the regions around the view (debounced by the loader). */
  private wantRegionsAround(view: Rect): void {
    if (!this.regions || this.details.inSnapshot) return;
    const margin = 2;
    this.regions.wantView(
      Math.floor(view.y / CELL_PITCH) - margin,
      Math.floor((view.y + view.height) / CELL_PITCH) + margin,
      Math.floor(view.x / CELL_PITCH) - margin,
      Math.floor((view.x + view.width) / CELL_PITCH) + margin,
    );
  }

  /** Where a cell token sits, when the snapshot carries tokens (small trees); null otherwise. */
  positionOfToken(token: string): Position | null {
    if (!this.cells.token) return null;
    const i = this.cells.token.indexOf(token);
    return i < 0 ? null : { row: this.cells.row[i]!, column: this.cells.col[i]! };
  }

  /** Whether a position lies inside the tree's world (rows and columns the camera may show). */
  containsPosition(row: number, column: number): boolean {
    return holdsPosition(this.bounds, row, column);
  }

  /** Available squares in row-then-column order, found once (on the first find-free). */
  availableSquares(): Position[] {
    this.available ??= availableSquares(this.cells, this.slots);
    return this.available;
  }

  destroy(): void {
    this.regions?.destroy();
    this.chunks.destroy();
    this.bands.destroy();
  }
}
