/**
 * A tiny live record of what the engine is doing (window.__treeStats), for browser tests and the curious in the
 * console, updated in place: nothing here allocates per frame. With `?bench`, each frame's cost too (__treeFrames).
 */
export interface TreeStats {
  /** Cells in the decoded snapshot. */
  cells: number;
  /** Chunks whose display objects exist right now. */
  chunksBuilt: number;
  /** Built chunks inside the view. */
  chunksVisible: number;
  /** Squares (cells and branch slots) in visible chunks. */
  cellsDrawn: number;
  /** Thumbnail textures held right now. */
  thumbnailsLoaded: number;
  /** Thumbnails drawn in the chunks on screen (none while the squares are too small for pictures). */
  thumbnailsDrawn: number;
  /** Region blocks of details (tokens, thumbnails, titles) held, for trees whose snapshot has none. */
  regionsLoaded: number;
  scale: number;
  /** The camera: world point at the screen's top-left corner. */
  x: number;
  y: number;
  /** A find's glide is under way. */
  flying: boolean;
  /** The keyboard focus cell, or null. */
  focusRow: number | null;
  focusColumn: number | null;
  /** The square a find or a link ringed, or null. */
  targetRow: number | null;
  targetColumn: number | null;
  /** performance.now() of the first frame that showed cells, or null until then. */
  firstFrameAt: number | null;
  /** Frames rendered so far. */
  frames: number;
  /** Main-thread milliseconds the last applyChanges took (the chunks it dirtied are drawn in the next frames). */
  lastApplyMs: number;
  /** Cell changes applied since the page opened (live ones; the replay's moves are not counted). */
  changesApplied: number;
  /** Batches of live changes applied. */
  applyCount: number;
  /** The growth replay shows the tree as it was (the live tree is set aside meanwhile). */
  replaying: boolean;
  /** The piece the zoom went into past the tree's limit (decision 048), or null. */
  deepZoomRow: number | null;
  deepZoomColumn: number | null;
  /** The level of its pyramid drawn, or null while none is. */
  deepZoomLevel: number | null;
  /** Its pyramid's tiles held (arrived or on their way). */
  deepZoomTiles: number;
  /** The marks, the hover outline and the change highlight are drawn (not while the zoom is past the tree's limit). */
  marksShown: boolean;
}

/**
 * Per-frame main-thread work in milliseconds, newest last, in a ring of FRAME_LOG_SIZE: the camera update, culling,
 * chunk building and app.render(), which is what a frame costs our code whatever the GPU (read by
 * tests/bench/tree-canvas.bench.ts).
 */
export interface FrameLog {
  /** Whole frame: update (camera, culling, chunk building) plus app.render(). */
  total: Float32Array;
  /** The chunk-building part of each frame. */
  build: Float32Array;
  /** The app.render() part of each frame. */
  render: Float32Array;
  /** performance.now() at each frame's start. */
  at: Float64Array;
  /** Frames recorded since the start (the ring holds the last FRAME_LOG_SIZE). */
  count: number;
  /** Forgets what was recorded (a benchmark phase starts). */
  reset: () => void;
}

export const FRAME_LOG_SIZE = 8192;

declare global {
  interface Window {
    __treeStats?: TreeStats;
    /** What the tree on screen holds at a position (the replay's tree while it plays), for browser tests. */
    __treeSquareAt?: (row: number, column: number) => { kind: 'cell' | 'slot'; status: number } | null;
    __treeFrames?: FrameLog;
  }
}

export function createTreeStats(): TreeStats {
  const stats: TreeStats = {
    cells: 0,
    chunksBuilt: 0,
    chunksVisible: 0,
    cellsDrawn: 0,
    thumbnailsLoaded: 0,
    thumbnailsDrawn: 0,
    regionsLoaded: 0,
    scale: 1,
    x: 0,
    y: 0,
    flying: false,
    focusRow: null,
    focusColumn: null,
    targetRow: null,
    targetColumn: null,
    firstFrameAt: null,
    frames: 0,
    lastApplyMs: 0,
    changesApplied: 0,
    applyCount: 0,
    replaying: false,
    deepZoomRow: null,
    deepZoomColumn: null,
    deepZoomLevel: null,
    deepZoomTiles: 0,
    marksShown: true,
  };
  if (typeof window !== 'undefined') window.__treeStats = stats;
  return stats;
}

/** The frame log, when the page was opened with `?bench`; null otherwise (no cost at all). */
export function createFrameLog(): FrameLog | null {
  if (typeof window === 'undefined' || !new URLSearchParams(window.location.search).has('bench')) return null;
  const log: FrameLog = {
    total: new Float32Array(FRAME_LOG_SIZE),
    build: new Float32Array(FRAME_LOG_SIZE),
    render: new Float32Array(FRAME_LOG_SIZE),
    at: new Float64Array(FRAME_LOG_SIZE),
    count: 0,
    reset() {
      log.count = 0;
    },
  };
  window.__treeFrames = log;
  return log;
}

export function recordFrame(
  log: FrameLog,
  startedAt: number,
  totalMs: number,
  buildMs: number,
  renderMs: number,
): void {
  const at = log.count % FRAME_LOG_SIZE;
  log.total[at] = totalMs;
  log.build[at] = buildMs;
  log.render[at] = renderMs;
  log.at[at] = startedAt;
  log.count++;
}
