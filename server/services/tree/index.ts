/**
 * The tree: its cells and growth, the change log, snapshots, history, regions and the server's sketch.
 * Other rooms, routers and routes import this file only (docs/architecture.md, Rooms).
 */
export { BuildWorker } from './build-worker-client.ts';
export { getCellSummary, listViewerCells } from './cells.ts';
export { branchSlotsOpenedBy, openNeighboursAfterPublish } from './growth.ts';
export { initialParams } from './initial-params.ts';
export { SnapshotStore } from './snapshot-store.ts';
export {
  lastChangeSeq,
  parseSince,
  pruneChangeLog,
  readChanges,
  readChangesUpTo,
  recordArtistRenamed,
  recordBulkChange,
  recordCellChanges,
  treesChangedAfter,
} from './tree-changes.ts';
export { TreeHistoryStore } from './tree-history-store.ts';
export { cellsWithin, parseRegionBounds, readRegion } from './tree-region.ts';
export { SvgPen, TreeSketches } from './tree-sketch.ts';
export { createTree, createTreeInTx, getDefaultTree, getTreeByToken } from './tree.ts';
export type { ChangesOverLimit } from './tree-changes.ts';
export type { TreeRow } from './tree.ts';
