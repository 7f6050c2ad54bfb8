/**
 * One batch of changes applied to a tree on the canvas, the part without PixiJS (decision 023): the answer names the
 * chunks whose picture changed, so only those are drawn again.
 */
import { applyChanges, type TreeChangesWire } from '#shared/tree/changes.ts';
import type { TreeSettings } from '#shared/tree/geometry.ts';
import type { TreeCells } from '#shared/tree/snapshot.ts';
import type { BranchSlots, SlotChange } from './branch-slots.ts';
import { type ChunkIndex, chunkKeyOf } from './chunk-index.ts';
import { engineGrid } from './tree-grid.ts';

export interface TreeState {
  cells: TreeCells;
  readonly settings: TreeSettings;
  readonly slots: BranchSlots;
  readonly index: ChunkIndex;
}

export interface TreeUpdate {
  /** Indices of cells changed in place, and of cells that are new. */
  changed: number[];
  added: number[];
  /** Keys of the chunks holding a changed or new cell, or a slot that came or went. */
  dirty: Set<number>;
  /** Chunks that had no entry before (culling must look at the view again). */
  newChunks: boolean;
}

/**
 * Applies `changes` to `state` (its `cells` may become a new, larger object): the cells change in place
 * (shared/tree/changes.ts), the branch slots are asked again only round the changed cells, and the chunk index files
 * new cells and the slots that came or went.
 */
export function updateTree(state: TreeState, changes: TreeChangesWire): TreeUpdate {
  const applied = applyChanges(state.cells, changes);
  const cells = applied.cells;
  state.cells = cells;
  state.index.setCells(cells);
  const dirty = new Set<number>();
  let newChunks = false;
  for (const i of applied.changed) dirty.add(chunkKeyOf(cells.row[i]!, cells.col[i]!));
  for (const i of applied.added) {
    const { entry, made } = state.index.entryAt(cells.row[i]!, cells.col[i]!);
    entry.cells.push(i);
    newChunks ||= made;
    dirty.add(entry.key);
  }

  const grid = engineGrid(cells);
  const slotChanges: SlotChange[] = [];
  const seen = new Set<number>();
  const recheck = (i: number) =>
    state.slots.recheckAround(state.settings, grid, cells.row[i]!, cells.col[i]!, slotChanges, seen);
  applied.changed.forEach(recheck);
  applied.added.forEach(recheck);
  for (const { index, appeared } of slotChanges) {
    const { row, column } = state.slots.positions[index]!;
    const { entry, made } = state.index.entryAt(row, column);
    newChunks ||= made;
    dirty.add(entry.key);
    // A slot that came and went within one batch is filed once at most, and only while it is a slot.
    const at = entry.slots.indexOf(index);
    if (appeared && at < 0) entry.slots.push(index);
    else if (!appeared && at >= 0) entry.slots.splice(at, 1);
  }
  return { changed: applied.changed, added: applied.added, dirty, newChunks };
}
