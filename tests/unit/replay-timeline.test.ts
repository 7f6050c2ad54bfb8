/**
 * The growth replay's tree at a time (decision 023): reached by batches of changes from any other time, it equals the
 * tree derived afresh; a past moment shows only the pieces published by then, every other square not there yet (a
 * trunk square pending, a branch square gone), with no reservation, available square or branch slot of today; the
 * timeline ends now, where the live tree shows; the live tree is never touched.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CellStatus, CellType } from '#shared/domain.ts';
import { computeBranchSlots } from '#shared/tree/geometry.ts';
import { BranchSlots } from '#client/tree/engine/branch-slots.ts';
import { buildChunkIndex } from '#client/tree/engine/chunk-index.ts';
import { ABSENT_STATUS, engineGrid } from '#client/tree/engine/tree-grid.ts';
import { updateTree, type TreeState } from '#client/tree/engine/tree-update.ts';
import {
  buildTimeline,
  deriveReplayCells,
  publishedBy,
  replayChanges,
  showsLiveTree,
  type ReplayTimeline,
} from '#client/tree/replay/replay-timeline.ts';
import type { TreeCells } from '#shared/tree/snapshot.ts';
import { growthHistory, syntheticTreeCells, type SyntheticTree } from '#tests/helpers/synthetic-tree-cells.ts';

/**
 * The synthetic tree as a live one is today: beside its pieces and the squares still waiting, some squares of the
 * trunk and of the branches reserved now, and some trunk squares available (their neighbours published).
 */
function withTodaysSquares(synthetic: SyntheticTree): SyntheticTree {
  const status = synthetic.cells.status.slice();
  for (let i = 0; i < synthetic.cells.count; i++) {
    if (status[i] !== CellStatus.Published) continue;
    if (i % 29 === 0) status[i] = CellStatus.Reserved;
    else if (i % 31 === 0 && synthetic.cells.type[i] === CellType.Trunk) status[i] = CellStatus.Available;
  }
  return { ...synthetic, cells: { ...synthetic.cells, status } };
}

const tree = withTodaysSquares(syntheticTreeCells(3_000));
const history = growthHistory(tree, 4);
const NOW = Date.UTC(2026, 0, 1);
const timeline = buildTimeline(history, tree.cells, NOW);

/** The replay's tree as the engine makes it: derived at a time, with no branch slots. */
function stateAt(published: number): TreeState {
  const cells = deriveReplayCells(tree.cells, timeline, published);
  const slots = new BranchSlots([], false);
  return { cells, settings: tree.settings, slots, index: buildChunkIndex(cells, slots.positions) };
}

/** What a square of the replay's tree should be with `published` pieces published: each cell's expected look. */
function expectShownAt(cells: TreeCells, live: TreeCells, line: ReplayTimeline, published: number): void {
  const shown = new Set(Array.from(line.index.subarray(0, published)));
  for (let i = 0; i < live.count; i++) {
    if (shown.has(i)) {
      expect(cells.status[i]).toBe(CellStatus.Published);
      expect(cells.color[i]).toBe(live.color[i]);
    } else {
      expect(cells.status[i]).toBe(live.type[i] === CellType.Trunk ? CellStatus.Pending : ABSENT_STATUS);
      expect(cells.color[i]).toBe(-1);
    }
  }
}

describe('growth replay', () => {
  it('matches every published piece of the tree, in publish order', () => {
    const published = Array.from(tree.cells.status).filter((s) => s === CellStatus.Published).length;
    expect(timeline.count).toBe(published);
    for (let k = 1; k < timeline.count; k++) expect(timeline.at[k]!).toBeGreaterThanOrEqual(timeline.at[k - 1]!);
    expect(publishedBy(timeline, timeline.start - 1)).toBe(0);
    expect(publishedBy(timeline, timeline.end)).toBe(timeline.count);
  });

  it('shows a past moment with its published pieces only: every other square not there yet', () => {
    const live = tree.cells;
    const statuses = new Set(Array.from(live.status.subarray(0, live.count)));
    // The live tree holds squares of every kind, today's reservations and available squares among them.
    expect([...statuses].sort()).toEqual(
      [CellStatus.Pending, CellStatus.Reserved, CellStatus.Published, CellStatus.Available].sort(),
    );
    for (const at of [0, Math.floor(timeline.count / 2), timeline.count - 1, timeline.count]) {
      const cells = deriveReplayCells(live, timeline, at);
      expectShownAt(cells, live, timeline, at);
      const drawn = Array.from(cells.status.subarray(0, cells.count));
      expect(drawn).not.toContain(CellStatus.Reserved);
      expect(drawn).not.toContain(CellStatus.Available);
    }
  });

  it('ends now, where the live tree shows as it is; any earlier moment is a past one', () => {
    const last = timeline.at[timeline.count - 1]!;
    expect(last).toBeLessThan(NOW);
    expect(timeline.end).toBe(NOW);
    expect(publishedBy(timeline, last)).toBe(timeline.count);
    expect(showsLiveTree(timeline, NOW)).toBe(true);
    expect(showsLiveTree(timeline, NOW - 1)).toBe(false);
    expect(showsLiveTree(timeline, last)).toBe(false);
    expect(showsLiveTree(timeline, timeline.start)).toBe(false);
    // A clock behind the last publish (a skewed machine): the timeline ends at that publish.
    const behind = buildTimeline(history, tree.cells, timeline.start);
    expect(behind.end).toBe(last);
    expect(showsLiveTree(behind, last)).toBe(true);
  });

  it('reaches the same tree by steps from any time as from scratch, and leaves the live tree alone', () => {
    const liveStatus = tree.cells.status.slice();
    // The slot rule finds free positions beside the pieces of a past moment; the replay draws none of them.
    const middle = deriveReplayCells(tree.cells, timeline, Math.floor(timeline.count / 2));
    expect(computeBranchSlots(tree.settings, engineGrid(middle)).length).toBeGreaterThan(0);
    fc.assert(
      fc.property(
        fc.nat(timeline.count),
        fc.array(fc.nat(timeline.count), { minLength: 1, maxLength: 6 }),
        (start, moves) => {
          const state = stateAt(start);
          let shown = start;
          for (const next of moves) {
            updateTree(state, replayChanges(timeline, shown, next));
            shown = next;
            const fresh = deriveReplayCells(tree.cells, timeline, next);
            expect(state.cells.status).toEqual(fresh.status);
            expect(state.cells.color).toEqual(fresh.color);
            // No branch slot in the past, though the slot rule finds some among the pieces published by then.
            expect(state.slots.list()).toEqual([]);
          }
        },
      ),
      { numRuns: 40 },
    );
    expect(tree.cells.status).toEqual(liveStatus);
  });

  it('puts a piece the history does not name yet (published after the history was built) at its end, at the time given', () => {
    const whole = growthHistory(tree, 4);
    // The history as the server kept it before its last 5 pieces were published.
    const older = {
      ...whole,
      count: whole.count - 5,
      row: whole.row.slice(0, -5),
      col: whole.col.slice(0, -5),
      time: whole.time.slice(0, -5),
    };
    const now = NOW + 86_400_000;
    const filled = buildTimeline(older, tree.cells, now);
    expect(filled.count).toBe(timeline.count);
    expect(new Set(filled.index)).toEqual(new Set(timeline.index));
    expect(Array.from(filled.at.subarray(filled.count - 5))).toEqual([now, now, now, now, now]);
    expect(Array.from(filled.at.subarray(0, filled.count - 5))).toEqual(
      Array.from(timeline.at.subarray(0, timeline.count - 5)),
    );
    // Before `now` the late pieces are not shown yet; at `now`, the timeline's end, the live tree shows.
    expect(publishedBy(filled, now - 1)).toBe(filled.count - 5);
    expect(filled.end).toBe(now);
    expect(showsLiveTree(filled, now)).toBe(true);
    expect(showsLiveTree(filled, now - 1)).toBe(false);
  });

  it('is not disturbed by cells the live tree gains meanwhile', () => {
    const live = syntheticTreeCells(500);
    const own = buildTimeline(growthHistory(live), live.cells);
    const replay = deriveReplayCells(live.cells, own, 0);
    live.cells.indexOf.set(0, -3, live.cells.count);
    expect(replay.indexOf.at(0, -3)).toBe(-1);
  });
});
