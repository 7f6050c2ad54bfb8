/**
 * The tree canvas engine (docs/architecture.md, The tree page): plain TypeScript, owned by one React component through
 * a ref (tree-canvas.tsx); React never sees a cell.
 */
import { TREE_VIEW } from '#shared/constants.ts';
import type { TreeChangesWire } from '#shared/tree/changes.ts';
import { computeBranchSlots, type TreeSettings } from '#shared/tree/geometry.ts';
import type { TreeCells } from '#shared/tree/snapshot.ts';
import {
  type Camera,
  type Point,
  CELL_PITCH,
  cellCentre,
  cellToWorld,
  clampScale,
  centredOn,
  viewRect,
  clampToBounds,
  panBy,
  screenToWorld,
  steppedScale,
  worldToCell,
  zoomAt,
} from '#shared/tree/camera.ts';
import { CameraFlight } from './camera-flight.ts';
import { CHUNK_WORLD, type ChunkLists, type WorkedLayout } from './chunk-index.ts';
import { CanvasTree, type AppliedUpdate, type CellHit } from './canvas-tree.ts';
import { DeepZoomLayer, type DeepPiece } from './deep-zoom-layer.ts';
import { outgrowsThumbnail, ownPixelsScale } from './deep-zoom-view.ts';
import { ChangeHighlight } from './change-highlight.ts';
import { centredInUncovered, NO_INSETS, type Insets } from './covered-insets.ts';
import type { TreeEngineOptions } from './engine-options.ts';
import type { Position } from './focus.ts';
import { FrameLoop } from './frame-loop.ts';
import { HoverOutline } from './hover-outline.ts';
import { CanvasInput } from './input.ts';
import { KeyboardFocus, type Reveal } from './keyboard-focus.ts';
import { MarkLayer, type MarkedCell, type OwnCell } from './marks.ts';
import { PyramidBook, type PieceSquare } from './pyramid-book.ts';
import { createTreeStats, type TreeStats } from './stats.ts';
import type { BandSurvey, ViewSurvey } from './survey.ts';
import { ThumbnailCache } from './thumbnails.ts';
import { TreeStage } from './tree-stage.ts';
import { gridOfTreeCells, openingScale, seedViewTarget } from '#shared/tree/layout.ts';

export type { CellHit } from './canvas-tree.ts';

/** A scale this close to the tree's upper limit is at it. */
const AT_LIMIT = 1e-9;

/** The piece the zoom went into past the tree's limit, with the thumbnail it was known by. */
type DeepSquare = DeepPiece & { thumb: string };

/** How long find-free and find-my-slots take to glide to their square. */
const FLIGHT_MS = 480;

/**
 * A view to apply once the canvas has a size: a camera, a point to centre at a scale (`uncovered`: in the part of the
 * canvas the page's controls leave uncovered, for a square to be seen; else in the canvas's middle, as an address
 * names its view), or the seed view.
 */
type PendingView = { camera: Camera } | { centre: Point; scale: number; uncovered?: boolean } | 'seed';

function prefersReducedMotion(): boolean {
  return typeof window !== 'undefined' && (window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false);
}

/**
 * Keeps the camera (and its smooth flights), applies it to the world layer (a render group), asks the tree on the
 * canvas (canvas-tree.ts) to cull, build and load what the view needs, places the band labels, draws the marks (the
 * viewer's squares, a find's target, the keyboard's focus), turns taps and Enter into cell hits, and renders only when
 * something changed (no idle frames).
 */
export class TreeEngine {
  readonly stats: TreeStats = createTreeStats();
  private camera: Camera = { x: 0, y: 0, scale: TREE_VIEW.zoomDefault };
  private pendingView: PendingView | null = null;
  /** The tree on screen (the live one, or the growth replay's while it plays) and the live one behind it. */
  private readonly stage = new TreeStage();
  private readonly hoverOutline = new HoverOutline();
  private readonly highlight = new ChangeHighlight();
  private readonly marks = new MarkLayer();
  private ownCells: readonly OwnCell[] = [];
  private target: MarkedCell | null = null;
  private availableCursor = -1;
  private readonly flight = new CameraFlight();
  /** What the page's own controls cover of the canvas (setCoveredInsets). */
  private covered: Insets = NO_INSETS;
  private readonly keyboard: KeyboardFocus;
  private readonly thumbnails = new ThumbnailCache();
  /** Which pieces have a deep-zoom pyramid (decision 048), asked for as the zoom reaches the tree's limit over them. */
  private readonly pyramids: PyramidBook;
  private readonly deepLayer = new DeepZoomLayer(() => this.requestFrame());
  /** The one piece the zoom went into past the tree's limit: drawn from its pyramid while its square needs it. */
  private deepPiece: DeepSquare | null = null;
  /** The highest scale the + key and button may reach now (onZoomLimitChange). */
  private zoomLimit: number = TREE_VIEW.zoomMax;
  private readonly input: CanvasInput;
  private readonly frames = new FrameLoop({
    update: (now) => this.update(now),
    render: () => this.options.app.render(),
    after: () => this.afterFrame(),
  });
  private cullNeeded = true;
  private destroyed = false;
  /** Work at the start of each frame (the replay's clock), and whether it wants the next frame too. */
  private frameHook: ((now: number) => boolean) | null = null;
  private hookWantsFrame = false;

  constructor(private readonly options: TreeEngineOptions) {
    const { app, world } = options;
    this.pyramids = new PyramidBook(options.fetchPyramid);
    // Above the chunks (the trees put theirs below), under the marks.
    world.addChild(this.deepLayer.container, this.marks.graphics, this.highlight.graphics, this.hoverOutline.graphics);
    this.input = new CanvasInput(app.canvas, options.keyTarget, {
      pan: (dx, dy) => this.userMove(panBy(this.camera, dx, dy)),
      zoomStep: (anchor, direction) =>
        this.zoomAbout(anchor, this.pieceAt(anchor), (scale, max) => steppedScale(scale, direction, max)),
      zoomBy: (anchor, factor) =>
        this.zoomAbout(anchor, this.pieceAt(anchor), (scale, max) => clampScale(scale * factor, max)),
      zoomKey: (direction) => this.zoomStep(direction),
      tap: (point) => this.open(this.hitAt(point)),
      hover: (point) => this.hover(point),
      dragging: (active) => options.onDraggingChange?.(active),
      moveFocus: (dRow, dColumn) => this.tree && this.keyboard.move(dRow, dColumn),
      activate: () => this.keyboard.activate(),
      farMove: (move) => this.tree && this.keyboard.farMove(move),
    });
    this.keyboard = new KeyboardFocus({
      hasSquare: this.hasSquare,
      camera: () => this.camera,
      viewport: () => this.viewport(),
      covered: () => this.covered,
      pan: (camera) => this.userMove(camera),
      changed: () => this.focusChanged(),
      announce: (position, fresh, note) => this.announceFocus(position, fresh, note),
      notice: (text) => this.options.onNotice?.(text),
      open: (position) => this.open(this.hitAtCell(position.row, position.column)),
      extent: () => this.tree?.extent() ?? null,
      bands: () => this.tree?.bandRows ?? [],
      statusAt: (row, column) => this.tree?.statusAt(row, column) ?? null,
      freeSquares: () => this.tree?.availableSquares() ?? [],
      hasPageFocus: () => typeof document !== 'undefined' && document.activeElement === options.keyTarget,
    });
    app.renderer.on('resize', this.onResize);
    if (typeof window !== 'undefined') window.__treeSquareAt = this.squareAt;
  }

  /**
   * Shows a decoded snapshot. `view` restores a remembered camera; without it a first tree opens on the seed band
   * and a refreshed tree keeps the current view. `layout` holds the branch slots and chunk lists when already
   * worked out (the snapshot's worker does), else they are worked out here.
   */
  setTree(cells: TreeCells, settings: TreeSettings, view: Camera | null = null, layout?: WorkedLayout): void {
    // The cells the engine already shows, changes applied in place (the page may hand the same object back).
    if (cells === this.liveCells) return;
    performance.mark('tree:set-tree');
    const created = layout
      ? this.makeTree(cells, settings, layout.slots, layout.chunks)
      : this.makeTree(cells, settings, computeBranchSlots(settings, gridOfTreeCells(cells)));
    const hadTree = this.tree !== null;
    // While the replay is on screen the new live tree waits behind it.
    if (!this.stage.setLive(created)) return;
    this.hoverOutline.show(null);
    this.highlight.clear();
    this.availableCursor = -1;
    this.stats.cells = cells.count;
    this.pendingView = view ? { camera: view } : hadTree ? { camera: this.camera } : 'seed';
    this.cullNeeded = true;
    this.requestFrame();
    // A refreshed tree: the focused square may have changed (a piece published there), so say it again.
    if (hadTree) this.keyboard.refresh();
    this.options.onContentChange?.();
    performance.mark('tree:tree-set');
  }

  /**
   * Applies live changes (shared/tree/changes.ts) in place: only the chunks holding changed cells or slots are drawn
   * again, and the camera, focus, marks, hover and popups stay. `highlight` outlines the changed squares on screen
   * for a moment. During the growth replay the changes go to the live tree set aside behind it.
   */
  applyChanges(changes: TreeChangesWire, options?: { highlight?: boolean }): void {
    const started = performance.now();
    const live = this.stage.live;
    if (!live || changes.count === 0) return;
    const update = live.applyChanges(changes, true);
    if (live === this.tree) {
      // Culling again asks for the view's region blocks the changes made stale (titles, on a large tree).
      this.cullNeeded = true;
      this.afterUpdate(update, changes, options?.highlight ?? false);
    }
    this.stats.lastApplyMs = performance.now() - started;
    this.stats.changesApplied += changes.count;
    this.stats.applyCount++;
  }

  /** The live tree's cells (also while the replay is on screen), or null before the first snapshot. */
  get liveCells(): TreeCells | null {
    return this.stage.live?.cells ?? null;
  }

  get replaying(): boolean {
    return this.stage.replaying;
  }

  /**
   * Shows a replay's tree (client/tree/replay/) in place of the live one, keeping the camera; the live tree is set
   * aside (its chunks given back) until endReplay. `cells` must be the replay's own copy. The replay's tree is a past
   * one and has no branch slots: whether a position was free on a past day is not known.
   */
  beginReplay(cells: TreeCells): void {
    const live = this.stage.live;
    if (!live) return;
    this.stage.showReplay(this.makeTree(cells, live.settings, null));
    this.afterTreeSwap();
  }

  /**
   * Moves the replay's tree to another time: a batch of synthetic changes, applied in place like live ones (also
   * while the live tree shows in its place, at the replay's end).
   */
  applyReplayChanges(changes: TreeChangesWire): void {
    const replay = this.stage.replay;
    if (!replay || changes.count === 0) return;
    const update = replay.applyChanges(changes, false);
    if (replay === this.tree) this.afterUpdate(update, changes, false);
  }

  /** The replay reached its end, now (true: the live tree shows as it is), or left it (false: its own tree again). */
  showLiveInReplay(live: boolean): void {
    if (this.stage.showLiveInReplay(live)) this.afterTreeSwap();
  }

  /**
   * Runs `hook` at the start of the next frame, and of every frame after while it answers true (null: none). The
   * replay's clock moves the tree there, so its work is part of the frame the engine times.
   */
  setFrameHook(hook: ((now: number) => boolean) | null): void {
    this.frameHook = hook;
    this.hookWantsFrame = hook !== null;
    this.requestFrame();
  }

  /** Back to the live tree, as it is now (changes that came during the replay included). */
  endReplay(): void {
    if (this.stage.endReplay()) this.afterTreeSwap();
  }

  private get tree(): CanvasTree | null {
    return this.stage.shown;
  }

  getCamera(): Camera {
    return this.camera;
  }

  /** The canvas's size in CSS pixels. */
  viewportSize(): { width: number; height: number } {
    return this.viewport();
  }

  /**
   * The WebGL canvas the tree is drawn on. The Application keeps its drawing buffer (preserveDrawingBuffer,
   * tree-canvas.tsx), so the last frame can be read from it at any time, between frames too (a recording of the
   * growth copies it: replay/growth-video.ts).
   */
  get canvas(): HTMLCanvasElement {
    return this.options.app.canvas;
  }

  /** Chunks on screen are still waiting to be built (the view is not fully drawn yet). */
  get drawing(): boolean {
    return this.tree?.chunks.waiting ?? false;
  }

  /**
   * The camera that shows the whole tree on the canvas (its world, half a square of margin round it), at whatever
   * scale that takes, below the zoom's lower limit too, and how many chunks the view touches (each built and drawn:
   * the cost of showing it). Null before the first tree or while the canvas has no size.
   */
  wholeTreeView(): { camera: Camera; chunks: number } | null {
    const tree = this.tree;
    const { width, height } = this.viewport();
    if (!tree || width === 0 || height === 0) return null;
    const { bounds } = tree;
    const margin = CELL_PITCH / 2;
    const scale = Math.min(width / (bounds.width + 2 * margin), height / (bounds.height + 2 * margin));
    const centre = { x: bounds.x + bounds.width / 2, y: bounds.y + bounds.height / 2 };
    const camera = { x: centre.x - width / 2 / scale, y: centre.y - height / 2 / scale, scale };
    const chunks = Math.ceil(width / scale / CHUNK_WORLD + 1) * Math.ceil(height / scale / CHUNK_WORLD + 1);
    return { camera, chunks };
  }

  /** The element the canvas fills (it takes the keyboard): the page measures what it draws over it. */
  get element(): HTMLElement {
    return this.options.keyTarget;
  }

  /**
   * How far the page's controls drawn over the canvas cover it from each edge (CSS pixels; covered-insets.ts): the
   * keyboard's focus and a find's square are revealed and centred in the rest, where they can be seen.
   */
  setCoveredInsets(insets: Insets): void {
    this.covered = insets;
  }

  setCamera(next: Camera): void {
    const { width, height } = this.viewport();
    const clamped = this.tree && width > 0 ? clampToBounds(next, this.tree.bounds, width, height) : next;
    const scaleChanged = clamped.scale !== this.camera.scale;
    const moved = scaleChanged || clamped.x !== this.camera.x || clamped.y !== this.camera.y;
    this.camera = clamped;
    // The stats follow the camera at once (tests read them between frames, which are slow on a software renderer).
    this.stats.scale = clamped.scale;
    this.stats.x = clamped.x;
    this.stats.y = clamped.y;
    this.cullNeeded = true;
    this.requestFrame();
    if (moved) this.reportZoomLimit();
    if (scaleChanged) this.options.onScaleChange?.(clamped.scale);
    if (moved) this.options.onCameraChange?.(clamped);
  }

  /**
   * Opens the view centred on a square at a scale (applied once the canvas has its size; before the first frame);
   * `uncovered`: centred in what the page's controls leave of the canvas (a square to be seen, not an address's view).
   */
  showCell(row: number, column: number, scale: number, uncovered = false): void {
    this.flight.cancel();
    this.pendingView = { centre: cellCentre(row, column), scale, uncovered };
    this.cullNeeded = true;
    this.requestFrame();
  }

  /** The share of the screen one press of a pan button moves the view. */
  static readonly PAN_SHARE = 0.5;

  /**
   * Moves the view half a screen (the top panel's pan buttons): dx, dy of -1, 0 or 1, the way the view goes (-1, 0 is
   * to the left: the squares there come into view).
   */
  panScreen(dx: number, dy: number): void {
    const { width, height } = this.viewport();
    this.userMove(panBy(this.camera, -dx * width * TreeEngine.PAN_SHARE, -dy * height * TreeEngine.PAN_SHARE));
  }

  /** Gives the canvas the page's keyboard focus (a square's popup closed). */
  focusCanvas(): void {
    if (!this.destroyed && this.options.keyTarget.isConnected) this.options.keyTarget.focus({ preventScroll: true });
  }

  /**
   * One zoom step about the centre of the canvas (the top panel's + and − buttons, the + and − keys); at the tree's
   * limit and past it, about the piece meant (centralTarget).
   */
  zoomStep(direction: 1 | -1): void {
    const { anchor, piece } = this.centralTarget();
    this.zoomAbout(anchor, piece, (scale, max) => steppedScale(scale, direction, max));
  }

  /**
   * Zooms about a screen point to the scale `scaleFor` answers from the view's scale before the zoom (never the one
   * the zoom moved it to, or a notch that reaches the limit would count as asking past it) for an upper limit: the
   * tree's, or the picture's own pixels when `piece` (the piece under the point) has a pyramid known to be ready
   * (decision 048), which the view then goes into. A zoom that asks past the tree's limit over a piece not asked about yet asks for its pyramid, and
   * goes on once it is known if the view has not moved meanwhile; one that reaches the limit asks for the pyramid of
   * the piece the + button would zoom into, so the button knows whether it may.
   */
  private zoomAbout(anchor: Point, piece: PieceSquare | null, scaleFor: (scale: number, max: number) => number): void {
    const before = this.camera;
    const pyramid = piece && this.pyramids.known(piece);
    const limit = pyramid ? ownPixelsScale(pyramid.descriptor, this.pixelRatio()) : TREE_VIEW.zoomMax;
    // Never below the scale the view is at: a step in over a square without a pyramid does not zoom out.
    const max = Math.max(limit, before.scale);
    const next = zoomAt(before, anchor, scaleFor(before.scale, max), max);
    if (piece && pyramid && next.scale > TREE_VIEW.zoomMax + AT_LIMIT) this.goDeep(piece, pyramid);
    this.userMove(next);
    const after = this.camera;
    const asksPast = scaleFor(before.scale, Infinity) > Math.max(TREE_VIEW.zoomMax, before.scale) + AT_LIMIT;
    if (piece && asksPast && this.pyramids.unknown(piece)) {
      void this.pyramids.ask(piece).then((found) => {
        if (found && !this.destroyed && this.camera === after) this.zoomAbout(anchor, piece, scaleFor);
        this.reportZoomLimit();
      });
    }
    const meant = after.scale >= TREE_VIEW.zoomMax - AT_LIMIT ? this.centralTarget().piece : null;
    if (meant && this.pyramids.unknown(meant)) void this.pyramids.ask(meant).then(() => this.rested());
  }

  /** The piece the view goes into past the tree's limit: the one drawn from its pyramid, the only one. */
  private goDeep(piece: PieceSquare, pyramid: DeepPiece['pyramid']): void {
    const deep = this.deepPiece;
    if (deep && deep.row === piece.row && deep.column === piece.column && deep.thumb === piece.thumb) return;
    this.deepPiece = { row: piece.row, column: piece.column, thumb: piece.thumb, pyramid };
  }

  /** The published piece under a screen point, if any. */
  private pieceAt(point: Point): PieceSquare | null {
    const position = worldToCell(screenToWorld(this.camera, point));
    return position ? (this.tree?.pieceSquareAt(position.row, position.column) ?? null) : null;
  }

  /**
   * What a key or a button zooms about: the canvas's middle and the piece there. At the tree's limit and past it, a
   * piece on screen that is meant more surely comes first, zoomed about the middle of what shows of it: the keyboard's
   * focus, else the piece drawn deep.
   */
  private centralTarget(): { anchor: Point; piece: PieceSquare | null } {
    const { width, height } = this.viewport();
    const centre = { x: width / 2, y: height / 2 };
    const underCentre = this.pieceAt(centre);
    if (this.camera.scale < TREE_VIEW.zoomMax - AT_LIMIT) return { anchor: centre, piece: underCentre };
    for (const meant of [this.keyboard.shown, this.deepPiece]) {
      const piece = meant && this.tree?.pieceSquareAt(meant.row, meant.column);
      if (!piece) continue;
      if (underCentre?.row === piece.row && underCentre.column === piece.column) return { anchor: centre, piece };
      const anchor = this.visibleMiddle(piece.row, piece.column);
      if (anchor) return { anchor, piece };
    }
    return { anchor: centre, piece: underCentre };
  }

  /** The screen point in the middle of what the canvas shows of a square; null when it shows none of it. */
  private visibleMiddle(row: number, column: number): Point | null {
    const { width, height } = this.viewport();
    const cell = cellToWorld(row, column);
    const { x, y, scale } = this.camera;
    const left = Math.max(0, (cell.x - x) * scale);
    const right = Math.min(width, (cell.x + cell.width - x) * scale);
    const top = Math.max(0, (cell.y - y) * scale);
    const bottom = Math.min(height, (cell.y + cell.height - y) * scale);
    return right > left && bottom > top ? { x: (left + right) / 2, y: (top + bottom) / 2 } : null;
  }

  /**
   * Tells the page how far the + key and button may zoom now (the tree's limit, or the picture's own pixels of the
   * piece they would zoom into, once its pyramid is known), when that changed.
   */
  private reportZoomLimit(): void {
    if (this.destroyed) return;
    const { piece } = this.centralTarget();
    const pyramid = piece && this.pyramids.known(piece);
    const own = pyramid ? ownPixelsScale(pyramid.descriptor, this.pixelRatio()) : 0;
    const limit = Math.max(TREE_VIEW.zoomMax, this.camera.scale, own);
    if (limit === this.zoomLimit) return;
    this.zoomLimit = limit;
    this.options.onZoomLimitChange?.(limit);
  }

  /** Device pixels a CSS pixel, as the canvas draws (its renderer's resolution). */
  private pixelRatio(): number {
    return this.options.app.renderer?.resolution || 1;
  }

  /**
   * Centres the view on a cell, in the part of the canvas the page's controls leave uncovered: at once, or gliding
   * there (find-free, find-my-slots).
   */
  centreOnCell(row: number, column: number, options: { smooth?: boolean; scale?: number } = {}): void {
    const { width, height } = this.viewport();
    const scale = options.scale ?? this.camera.scale;
    const target = centredInUncovered(cellCentre(row, column), scale, width, height, this.covered);
    if (options.smooth && !prefersReducedMotion() && width > 0) {
      this.flight.begin(this.camera, target, FLIGHT_MS);
      this.stats.flying = true;
      this.requestFrame();
    } else {
      this.flight.cancel();
      this.setCamera(target);
    }
  }

  /**
   * The next available square for find-free: the last one (in row-then-column order) on the first call, then each
   * one before it in turn, wrapping round. Null when the tree has none.
   */
  nextAvailable(): Position | null {
    const list = this.tree?.availableSquares() ?? [];
    if (list.length === 0) return null;
    this.availableCursor =
      this.availableCursor <= 0 || this.availableCursor > list.length ? list.length - 1 : this.availableCursor - 1;
    return list[this.availableCursor]!;
  }

  /** The viewer's own squares, drawn with their own mark. */
  setOwnCells(cells: readonly OwnCell[]): void {
    this.ownCells = cells;
    this.drawMarks();
  }

  /** The square a find brought into view (null: none). */
  setTarget(cell: MarkedCell | null): void {
    this.target = cell;
    this.stats.targetRow = cell?.row ?? null;
    this.stats.targetColumn = cell?.column ?? null;
    this.drawMarks();
  }

  /**
   * Opens the view on the square a link named (`/observe?cell=`): centred at `scale`, ringed as a find's square is,
   * and the keyboard's focus on it, so Enter opens it. False when the tree has no square there.
   */
  showLinkedSquare(row: number, column: number, scale: number): boolean {
    if (!this.hasSquare(row, column)) return false;
    this.showCell(row, column, scale, true);
    this.setTarget({ row, column });
    this.keyboard.focus(row, column, { reveal: 'none' });
    this.takePageFocus();
    return true;
  }

  /**
   * Back on the tree from a piece's page (its camera restored by the page): the keyboard's focus is on the piece again,
   * and the canvas has the page's focus, so Enter opens it once more and the arrows go on from there. False when the
   * tree has no square there any more.
   */
  returnToSquare(row: number, column: number): boolean {
    if (!this.hasSquare(row, column)) return false;
    this.keyboard.focus(row, column, { reveal: 'none' });
    this.takePageFocus();
    return true;
  }

  /**
   * The canvas takes the page's keyboard focus, unless the visitor has already gone somewhere else on it (the page's
   * heading, where a move from another page starts, is not somewhere).
   */
  private takePageFocus(): void {
    const active = document.activeElement;
    if (active === null || active === document.body || active.matches('main h1'))
      this.options.keyTarget.focus({ preventScroll: true });
  }

  /**
   * What the view holds (tree-survey.tsx): the positions it shows, in part or whole, their squares of each kind and
   * the first `maxPieces` published pieces; the pieces' titles are asked for if the tree has not got them. Null
   * before the first tree or while the canvas has no size.
   */
  surveyView(maxPieces: number): ViewSurvey | null {
    const tree = this.tree;
    const { width, height } = this.viewport();
    if (!tree || width === 0 || height === 0) return null;
    const view = viewRect(this.camera, width, height);
    const extent = tree.extent();
    const rowFrom = Math.max(extent.minRow, Math.floor(view.y / CELL_PITCH));
    const rowTo = Math.min(extent.maxRow, Math.floor((view.y + view.height) / CELL_PITCH));
    const columnFrom = Math.max(extent.minColumn, Math.floor(view.x / CELL_PITCH));
    const columnTo = Math.min(extent.maxColumn, Math.floor((view.x + view.width) / CELL_PITCH));
    const survey = tree.survey(rowFrom, rowTo, columnFrom, columnTo, maxPieces);
    if (survey.pieces.some((piece) => piece.title === null)) tree.wantTitles(rowFrom, rowTo, columnFrom, columnTo);
    return survey;
  }

  /** Squares of each kind in each band of the tree on screen (counted again only after it changed); null: no tree. */
  surveyBands(): BandSurvey[] | null {
    return this.tree?.surveyBands() ?? null;
  }

  /** The square at a position with what its region tells (a piece's title), loaded first if need be. */
  squareWithDetails(row: number, column: number): Promise<CellHit | null> {
    return this.tree?.squareWithDetails(row, column) ?? Promise.resolve(null);
  }

  /** Where a cell token sits, when the snapshot carries tokens (small trees); null otherwise. */
  positionOfToken(token: string): Position | null {
    return this.tree?.positionOfToken(token) ?? null;
  }

  /** Whether a position lies inside the tree's world (rows and columns the camera may show). */
  containsPosition(row: number, column: number): boolean {
    return this.tree?.containsPosition(row, column) ?? false;
  }

  /** Whether a position holds a cell or a branch slot. */
  hasSquare = (row: number, column: number): boolean => this.tree?.hasSquare(row, column) ?? false;

  private squareAt = (row: number, column: number): { kind: 'cell' | 'slot'; status: number } | null => {
    const hit = this.hitAtCell(row, column);
    return hit && { kind: hit.kind, status: hit.status };
  };

  /** The cell or branch slot at a position, if any. */
  hitAtCell(row: number, column: number): CellHit | null {
    return this.tree?.hitAtCell(row, column) ?? null;
  }

  /** The cell or branch slot under a screen point, if any. */
  hitAt(point: Point): CellHit | null {
    const position = worldToCell(screenToWorld(this.camera, point));
    return position ? this.hitAtCell(position.row, position.column) : null;
  }

  /** The keyboard's focus cell is drawn only while the canvas has keyboard focus. */
  setFocusShown(shown: boolean): void {
    if (this.tree) this.keyboard.setShown(shown);
  }

  /**
   * Puts the keyboard focus on a square and brings it into view (`reveal` 'none': the caller takes the view there
   * itself, as find-free's glide does); `announce` false when the caller says where it went in its own words.
   */
  focusCell(row: number, column: number, options?: { reveal?: Reveal; announce?: boolean }): void {
    this.keyboard.focus(row, column, options);
  }

  getFocus(): Position | null {
    return this.keyboard.position;
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    if (typeof window !== 'undefined' && window.__treeSquareAt === this.squareAt) delete window.__treeSquareAt;
    this.frames.stop();
    this.input.destroy();
    this.options.app.renderer?.off('resize', this.onResize);
    this.clearTree();
    this.deepLayer.destroy();
    this.thumbnails.destroy();
    this.hoverOutline.destroy();
    this.highlight.destroy();
    this.marks.destroy();
  }

  private viewport(): { width: number; height: number } {
    const screen = this.options.app.renderer?.screen;
    return { width: screen?.width ?? 0, height: screen?.height ?? 0 };
  }

  private clearTree(): void {
    this.stage.clear();
    this.stats.replaying = false;
    this.hoverOutline.show(null);
    this.highlight.clear();
  }

  /** `slots` null: a tree without branch slots (the replay's). `chunks`: lists over these cells and slots. */
  private makeTree(
    cells: TreeCells,
    settings: TreeSettings,
    slots: readonly Position[] | null,
    chunks?: ChunkLists,
  ): CanvasTree {
    return new CanvasTree(cells, settings, slots, chunks ?? null, {
      world: this.options.world,
      overlay: this.options.overlay,
      thumbnails: this.thumbnails,
      fetchRegion: this.options.fetchRegion,
      onChange: () => this.requestFrame(),
      onRegion: () => this.regionLoaded(),
    });
  }

  /** The tree on screen changed in place: cull again if chunks or the world grew, say the focus again if it changed. */
  private afterUpdate(update: AppliedUpdate, changes: TreeChangesWire, highlight: boolean): void {
    const tree = this.tree!;
    this.stats.cells = tree.cells.count;
    if (update.newChunks || update.boundsGrew) this.cullNeeded = true;
    const focus = this.keyboard.position;
    if (focus) {
      for (let k = 0; k < changes.count; k++) {
        if (Math.abs(changes.row[k]! - focus.row) <= 1 && Math.abs(changes.col[k]! - focus.column) <= 1) {
          // The focused square itself, or a slot beside a changed cell, may be something else now.
          this.keyboard.refresh();
          break;
        }
      }
    }
    if (highlight && !prefersReducedMotion()) {
      const { width, height } = this.viewport();
      const positions = changes.row.map((row, k) => ({ row, column: changes.col[k]! }));
      this.highlight.show(positions, viewRect(this.camera, width, height), performance.now());
    }
    this.options.onContentChange?.();
    this.requestFrame();
  }

  /** Another tree is on screen (the replay began or ended): the view is the same, what is under it is not. */
  private afterTreeSwap(): void {
    this.stats.replaying = this.stage.replaying;
    this.stats.cells = this.tree?.cells.count ?? 0;
    this.availableCursor = -1;
    this.hoverOutline.show(null);
    this.highlight.clear();
    this.cullNeeded = true;
    this.keyboard.refresh();
    this.options.onContentChange?.();
    this.requestFrame();
  }

  /** A move the visitor made: it ends any flight under way. */
  private userMove(next: Camera): void {
    this.flight.cancel();
    this.setCamera(next);
  }

  private onResize = (): void => {
    this.cullNeeded = true;
    // The resize plugin renders right after this event; bring the view up to date first.
    this.updateView();
    this.requestFrame();
  };

  private requestFrame(): void {
    this.frames.request();
  }

  /** A frame's update: a flight's next step, then the view; answers the milliseconds spent building chunks. */
  private update(now: number): number {
    const { width, height } = this.viewport();
    if (this.frameHook) this.hookWantsFrame = this.frameHook(now);
    const flying = this.flight.step(now, width, height);
    if (flying) this.setCamera(flying);
    if (this.highlight.active) this.highlight.step(now);
    this.deepLayer.step();
    return this.updateView();
  }

  private afterFrame(): boolean {
    this.stats.frames++;
    this.stats.flying = this.flight.active;
    const tree = this.tree;
    if (this.stats.firstFrameAt === null && tree && (this.stats.cellsDrawn > 0 || tree.cells.count === 0)) {
      this.stats.firstFrameAt = performance.now();
      this.options.onFirstFrame?.();
    }
    return (
      (tree?.chunks.waiting ?? false) ||
      this.flight.active ||
      this.highlight.active ||
      this.deepLayer.waiting ||
      (this.frameHook !== null && this.hookWantsFrame)
    );
  }

  /** Applies a pending view and the camera, culls chunks when the view moved, and builds a few waiting chunks. */
  private updateView(): number {
    const tree = this.tree;
    const { width, height } = this.viewport();
    if (!tree || width === 0 || height === 0) return 0;
    if (this.pendingView) {
      const view = this.pendingView;
      this.pendingView = null;
      if (view === 'seed')
        this.setCamera(centredOn(seedViewTarget(tree.settings), openingScale(tree.settings, width), width, height));
      else if ('camera' in view) this.setCamera(view.camera);
      else if (view.uncovered) this.setCamera(centredInUncovered(view.centre, view.scale, width, height, this.covered));
      else this.setCamera(centredOn(view.centre, view.scale, width, height));
    }
    if (this.cullNeeded) {
      this.cullNeeded = false;
      this.applyCamera();
      tree.showView(this.camera, width, height, this.options.app.renderer.resolution || 1);
      this.showDeepZoom(width, height);
    }
    let buildMs = 0;
    if (tree.chunks.waiting) {
      const started = performance.now();
      tree.chunks.buildSome();
      buildMs = performance.now() - started;
    }
    const stats = this.stats;
    stats.chunksBuilt = tree.chunks.builtCount;
    stats.chunksVisible = tree.chunks.shownCount;
    stats.cellsDrawn = tree.chunks.squaresShown;
    stats.thumbnailsLoaded = this.thumbnails.loadedCount;
    stats.thumbnailsDrawn = tree.chunks.thumbnailsShown;
    stats.regionsLoaded = tree.details.blockCount;
    return buildMs;
  }

  /**
   * Draws the piece the zoom went into from its pyramid while its square is larger on the screen than its thumbnail,
   * and forgets it once the zoom is back out (or the square shows another picture). Panned past the tree's limit onto
   * another piece whose pyramid is known, that piece is the one drawn.
   */
  private showDeepZoom(width: number, height: number): void {
    const pixelRatio = this.pixelRatio();
    const deep = this.deepPiece;
    if (deep && (!outgrowsThumbnail(this.camera.scale, pixelRatio) || !this.stillShows(deep))) this.deepPiece = null;
    if (this.camera.scale > TREE_VIEW.zoomMax + AT_LIMIT) {
      const central = this.pieceAt({ x: width / 2, y: height / 2 });
      const pyramid = central && this.pyramids.known(central);
      if (central && pyramid) this.goDeep(central, pyramid);
      // A view restored or panned this deep over a piece not asked about yet: its pyramid is asked for.
      else if (central && this.pyramids.unknown(central)) void this.pyramids.ask(central).then(() => this.rested());
    }
    // Past the tree's limit the marks' frames, flags and brackets, sized for squares, would cover the picture: the
    // view is of one piece, and they come back with the tree's range.
    const marksShown = this.camera.scale <= TREE_VIEW.zoomMax + AT_LIMIT;
    for (const layer of [this.marks.graphics, this.highlight.graphics, this.hoverOutline.graphics])
      layer.visible = marksShown;
    this.stats.marksShown = marksShown;
    this.deepLayer.show(this.deepPiece, this.camera, { width, height, pixelRatio });
    this.stats.deepZoomLevel = this.deepLayer.level;
    this.stats.deepZoomRow = this.deepPiece?.row ?? null;
    this.stats.deepZoomColumn = this.deepPiece?.column ?? null;
    this.stats.deepZoomTiles = this.deepLayer.tileCount;
  }

  /** A pyramid arrived while the view rested: the view is drawn again with it, and the + button told. */
  private rested(): void {
    if (this.destroyed) return;
    this.cullNeeded = true;
    this.requestFrame();
    this.reportZoomLimit();
  }

  /** Whether the tree on screen still shows the deep piece's picture at its square. */
  private stillShows(deep: DeepSquare): boolean {
    return this.tree?.pieceSquareAt(deep.row, deep.column)?.thumb === deep.thumb;
  }

  private applyCamera(): void {
    const { world } = this.options;
    const { x, y, scale } = this.camera;
    world.scale.set(scale);
    // Whole device pixels keep the square edges crisp while panning.
    const resolution = this.options.app.renderer.resolution || 1;
    world.position.set(
      Math.round(-x * scale * resolution) / resolution,
      Math.round(-y * scale * resolution) / resolution,
    );
  }

  private regionLoaded(): void {
    const tree = this.tree;
    if (!tree) return;
    tree.chunks.refreshThumbnails();
    this.stats.regionsLoaded = tree.details.blockCount;
    this.keyboard.refresh();
    this.options.onContentChange?.();
    this.requestFrame();
  }

  /** A tap or Enter on a square: resolved (its token loaded if need be), then handed to the page. */
  private open(hit: CellHit | null): void {
    const tree = this.tree;
    if (hit && tree)
      void tree.resolveHit(hit).then((resolved) => !this.destroyed && this.options.onCellTap?.(resolved));
  }

  private focusChanged(): void {
    this.reportZoomLimit();
    const shown = this.keyboard.shown;
    this.stats.focusRow = shown?.row ?? null;
    this.stats.focusColumn = shown?.column ?? null;
    this.drawMarks();
  }

  /** Tells the page what the focused square is; a fresh one's region is loaded for its title if need be. */
  private announceFocus(position: Position | null, fresh: boolean, note?: string): void {
    if (!position) return this.options.onFocusChange?.(null);
    this.options.onFocusChange?.(this.hitAtCell(position.row, position.column), { fresh, note });
    if (fresh) this.tree?.loadDetailsOf(position.row, position.column);
  }

  private drawMarks(): void {
    this.marks.draw({ mine: this.ownCells, target: this.target, focus: this.keyboard.shown });
    this.requestFrame();
  }

  /** Outlines the square under the mouse and shows a pointer, so what can be opened is plain to see. */
  private hover(point: Point | null): void {
    const hit = point ? this.hitAt(point) : null;
    if (!this.hoverOutline.show(hit)) return;
    this.options.app.canvas.style.cursor = hit ? 'pointer' : '';
    this.requestFrame();
  }
}
