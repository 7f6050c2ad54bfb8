/**
 * A tiny live record of what the engine is doing, exposed as window.__treeStats for browser tests and for anyone
 * curious in the console. The engine updates the one object in place; nothing here allocates per frame.
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
  scale: number;
  /** The camera: world point at the screen's top-left corner. */
  x: number;
  y: number;
  /** performance.now() of the first frame that showed cells, or null until then. */
  firstFrameAt: number | null;
}

declare global {
  interface Window {
    __treeStats?: TreeStats;
  }
}

export function createTreeStats(): TreeStats {
  const stats: TreeStats = {
    cells: 0,
    chunksBuilt: 0,
    chunksVisible: 0,
    cellsDrawn: 0,
    thumbnailsLoaded: 0,
    scale: 1,
    x: 0,
    y: 0,
    firstFrameAt: null,
  };
  if (typeof window !== 'undefined') window.__treeStats = stats;
  return stats;
}
