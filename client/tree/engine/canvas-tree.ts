/**
 * One decoded tree on the canvas: its cells and branch slots, the divider bands and chunks that draw them, what is
 * known of each cell beyond the snapshot (tokens, thumbnails, titles, loaded per region on a large tree), and the
 * questions asked of it by position: is there a square here, what is it, where is this token.
 */
import type { Container } from 'pixi.js';
import { CellStatus } from '#shared/domain.ts';
import type { TreeChangesWire } from '#shared/tree/changes.ts';
import type { TreeSettings } from '#shared/tree/geometry.ts';
import type { TreeCells } from '#shared/tree/snapshot.ts';
import { DividerBands } from './bands.ts';
import { CELL_PITCH, viewRect, type Camera, type Rect } from '#shared/tree/camera.ts';
import { CellDetails } from './cell-details.ts';
import { BranchSlots } from './branch-slots.ts';
import { buildChunkIndex, ChunkIndex, type ChunkLists } from './chunk-index.ts';
import { ChunkField } from './chunk-field.ts';
import type { Position } from './focus.ts';
import type { PieceSquare } from './pyramid-book.ts';
import { RegionLoader, type FetchRegion } from './region-loader.ts';
import type { ThumbnailCache } from './thumbnails.ts';
import { showsThumbnails } from './thumbnail-size.ts';
import { availableSquares, holdsPosition, worldBoundsOf } from '#shared/tree/layout.ts';
import { presentIndexAt } from './tree-grid.ts';
import { updateTree, type TreeState, type TreeUpdate } from './tree-update.ts';
import { bandIndexOf, bandRows, type BandRows, type GridExtent } from './far-moves.ts';
import { countStatus, emptyCounts, surveyBands, type BandSurvey, type ViewSurvey } from './survey.ts';
import { UNTITLED } from '#shared/words.ts';

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
  onChange: () => void;
  /** A region's details arrived. */
  onRegion: () => void;
}

/** What applying a batch did, for the engine: the update itself, and whether the world rectangle grew. */
export interface AppliedUpdate extends TreeUpdate {
  boundsGrew: boolean;
}

export class CanvasTree {
  bounds: Rect;
  readonly chunks: ChunkField;
  readonly details: CellDetails;
  bands: DividerBands;
  private readonly regions: RegionLoader | null;
  private readonly state: TreeState;
  private available: Position[] | null = null;
  private bandSurvey: BandSurvey[] | null = null;
  /** The bands' rows, top to bottom (far-moves.ts). */
  readonly bandRows: BandRows[];

  /**
   * `slots` null: a tree that never has branch slots (the growth replay's past). `chunks`: the chunk lists over these
   * cells and slots when already built (the snapshot's worker does), else they are built here.
   */
  constructor(
    cells: TreeCells,
    readonly settings: TreeSettings,
    slots: readonly Position[] | null,
    chunks: ChunkLists | null,
    private readonly deps: CanvasTreeDeps,
  ) {
    const branchSlots = new BranchSlots(slots ?? [], slots !== null);
    const index = chunks ? new ChunkIndex(chunks, cells) : buildChunkIndex(cells, branchSlots.positions);
    this.state = { cells, settings, slots: branchSlots, index };
    this.bounds = worldBoundsOf(settings, cells);
    this.bands = new DividerBands(settings, this.bounds);
    this.bandRows = bandRows(settings);
    this.details = new CellDetails(cells);
    this.chunks = new ChunkField(cells, branchSlots.positions, index, this.details, deps.thumbnails, deps.onChange);
    this.regions = deps.fetchRegion ? new RegionLoader(this.details, deps.fetchRegion, deps.onRegion) : null;
    // Bottom to top: bands, chunks, then whatever the engine keeps above them (marks, the hover outline).
    deps.world.addChildAt(this.bands.strips, 0);
    deps.world.addChildAt(this.chunks.layer, 1);
    deps.overlay.addChild(this.bands.labels);
  }

  get cells(): TreeCells {
    return this.state.cells;
  }

  /** Branch slots now, in row-then-column order. */
  get slots(): readonly Position[] {
    return this.state.slots.list();
  }

  /**
   * Applies a batch of changes in place: cells, slots round them, the chunks that show them (drawn again in the next
   * frames). `live` changes are real ones (details learn their tokens, titles reload); the replay's are not.
   */
  applyChanges(changes: TreeChangesWire, live: boolean): AppliedUpdate {
    const before = this.state.cells;
    const update = updateTree(this.state, changes);
    const cells = this.state.cells;
    if (cells !== before) {
      this.details.setCells(cells);
      this.chunks.setCells(cells);
    }
    if (live) this.details.noteChanged(changes);
    this.chunks.invalidate(update.dirty);
    this.available = null;
    this.bandSurvey = null;
    let boundsGrew = false;
    for (const i of update.added) boundsGrew ||= !holdsPosition(this.bounds, cells.row[i]!, cells.col[i]!);
    if (boundsGrew) this.growBounds();
    return { ...update, boundsGrew };
  }

  /** Shows or sets aside the whole tree (the replay shows another meanwhile); set aside, it holds no chunks. */
  setShown(shown: boolean): void {
    this.chunks.layer.visible = shown;
    this.bands.strips.visible = shown;
    this.bands.labels.visible = shown;
    if (!shown) this.chunks.releaseAll();
  }

  /** A new cell lies outside the world rectangle (rare): the rectangle and the bands drawn across it follow. */
  private growBounds(): void {
    this.bounds = worldBoundsOf(this.settings, this.cells);
    const visible = this.bands.strips.visible;
    this.bands.destroy();
    this.bands = new DividerBands(this.settings, this.bounds);
    this.bands.strips.visible = visible;
    this.bands.labels.visible = visible;
    this.deps.world.addChildAt(this.bands.strips, 0);
    this.deps.overlay.addChild(this.bands.labels);
  }

  /**
   * The camera moved: shows what its view needs (chunks, the band labels, a large tree's region details). Squares
   * show their pictures once big enough in device pixels (`pixelRatio` per CSS pixel; thumbnail-size.ts), else their
   * art's dominant colour.
   */
  showView(camera: Camera, width: number, height: number, pixelRatio: number): void {
    const view = viewRect(camera, width, height);
    this.chunks.cull(view, showsThumbnails(camera.scale, pixelRatio));
    this.bands.place(camera, height);
    this.wantRegionsAround(view);
  }

  /** Whether a position holds a cell or a branch slot. */
  hasSquare(row: number, column: number): boolean {
    return presentIndexAt(this.cells, row, column) >= 0 || this.state.slots.has(row, column);
  }

  /** The cell or branch slot at a position, if any. */
  hitAtCell(row: number, column: number): CellHit | null {
    const index = presentIndexAt(this.cells, row, column);
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
    if (this.state.slots.has(row, column))
      return { kind: 'slot', row, column, status: CellStatus.Available, token: null, piece: null };
    return null;
  }

  /** The published piece at a position, with the token and thumbnail its pyramid is asked for by; null if none. */
  pieceSquareAt(row: number, column: number): PieceSquare | null {
    const index = presentIndexAt(this.cells, row, column);
    if (index < 0 || this.cells.status[index] !== CellStatus.Published) return null;
    const token = this.details.tokenOf(index);
    const thumb = this.details.thumbOf(index);
    return token && thumb ? { row, column, token, thumb } : null;
  }

  /** A hit with its token: on a large tree the cell's region is loaded now if it has not arrived yet. */
  async resolveHit(hit: CellHit): Promise<CellHit> {
    if (hit.kind !== 'cell' || hit.token || !this.regions) return hit;
    await this.regions.ensure(hit.row, hit.column);
    return this.hitAtCell(hit.row, hit.column) ?? hit;
  }

  /** The square at a position with what its region tells (a piece's title), loaded first if need be. */
  async squareWithDetails(row: number, column: number): Promise<CellHit | null> {
    const index = this.cells.indexOf.at(row, column);
    if (this.regions && index >= 0 && !this.details.regionLoadedFor(index)) await this.regions.ensure(row, column);
    return this.hitAtCell(row, column);
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

  /** The rows and columns of the world rectangle (where the keyboard may go). */
  extent(): GridExtent {
    const { x, y, width, height } = this.bounds;
    return {
      minRow: Math.round(y / CELL_PITCH),
      maxRow: Math.floor((y + height) / CELL_PITCH),
      minColumn: Math.round(x / CELL_PITCH),
      maxColumn: Math.floor((x + width) / CELL_PITCH),
    };
  }

  /** The status of the cell or slot at a position, or null when there is none. */
  statusAt(row: number, column: number): number | null {
    const index = presentIndexAt(this.cells, row, column);
    if (index >= 0) return this.cells.status[index]!;
    return this.state.slots.has(row, column) ? CellStatus.Available : null;
  }

  /**
   * What the positions rowFrom..rowTo × columnFrom..columnTo hold (both ends included): squares of each kind, and the
   * published pieces in reading order, at most `maxPieces` of them with what is known of each. A position at a time:
   * meant for the view (a few thousand positions at the smallest zoom on a large screen), never the whole tree.
   */
  survey(rowFrom: number, rowTo: number, columnFrom: number, columnTo: number, maxPieces: number): ViewSurvey {
    const counts = emptyCounts();
    const pieces: ViewSurvey['pieces'] = [];
    let piecesTotal = 0;
    const { cells, details } = this;
    for (let row = rowFrom; row <= rowTo; row++) {
      for (let column = columnFrom; column <= columnTo; column++) {
        const index = presentIndexAt(cells, row, column);
        if (index < 0) {
          if (this.state.slots.has(row, column)) counts.available++;
          continue;
        }
        const status = cells.status[index]!;
        countStatus(counts, status);
        if (status !== CellStatus.Published) continue;
        piecesTotal++;
        if (pieces.length >= maxPieces) continue;
        const piece = details.pieceOf(index);
        // A piece whose region came without a title has none: it is untitled, not on its way.
        const title = piece?.title ?? (details.regionLoadedFor(index) ? UNTITLED : null);
        pieces.push({ row, column, token: details.tokenOf(index), title, artist: piece?.artist ?? null });
      }
    }
    const bands: ViewSurvey['bands'] = [];
    const first = bandIndexOf(this.bandRows, rowFrom);
    for (let i = first; i < this.bandRows.length && this.bandRows[i]!.rowFrom <= rowTo; i++) {
      const band = this.bandRows[i]!;
      if (band.rowTo >= rowFrom) bands.push(band.name);
    }
    return { rowFrom, rowTo, columnFrom, columnTo, counts, pieces, piecesTotal, bands };
  }

  /** Squares of each kind in each band: counted once, then again only after the tree changed. */
  surveyBands(): BandSurvey[] {
    this.bandSurvey ??= surveyBands(this.settings, this.cells, this.state.slots.list());
    return this.bandSurvey;
  }

  /**
   * Asks for the titles of the pieces in a rectangle of positions. A large tree's view already has its regions asked
   * for; a small tree's snapshot carries tokens but never titles, so the survey asks for the view's regions here.
   */
  wantTitles(rowFrom: number, rowTo: number, columnFrom: number, columnTo: number): void {
    if (this.regions && this.details.inSnapshot) this.regions.wantView(rowFrom, rowTo, columnFrom, columnTo);
  }

  /** Available squares in row-then-column order, found once (on the first find-free). */
  availableSquares(): Position[] {
    this.available ??= availableSquares(this.cells, this.state.slots.list());
    return this.available;
  }

  destroy(): void {
    this.regions?.destroy();
    this.chunks.destroy();
    this.bands.destroy();
  }
}
