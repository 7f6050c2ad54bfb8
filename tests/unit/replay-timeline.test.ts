/**
 * The growth replay's tree at a time (issue 17): reached by batches of changes from any other time, it equals the tree
 * derived afresh (slots included); later pieces are undone (a trunk square pending, a branch square gone); cells the
 * history does not name keep their state; the live tree is never touched.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CellStatus, CellType } from '#shared/domain.ts';
import { computeBranchSlots } from '#shared/tree/geometry.ts';
import { BranchSlots } from '#client/tree/engine/branch-slots.ts';
import { buildChunkIndex } from '#client/tree/engine/chunk-index.ts';
import { ABSENT_STATUS, engineGrid } from '#client/tree/engine/tree-grid.ts';
import { updateTree, type TreeState } from '#client/tree/engine/tree-update.ts';
import { buildTimeline, deriveReplayCells, publishedBy, replayChanges } from '#client/tree/replay/replay-timeline.ts';
import { growthHistory, syntheticTreeCells } from '#tests/helpers/synthetic-tree-cells.ts';

const tree = syntheticTreeCells(3_000);
const history = growthHistory(tree, 4);
const timeline = buildTimeline(history, tree.cells);

function stateAt(published: number): TreeState {
  const cells = deriveReplayCells(tree.cells, timeline, published);
  const slots = new BranchSlots(computeBranchSlots(tree.settings, engineGrid(cells)));
  return { cells, settings: tree.settings, slots, index: buildChunkIndex(cells, slots.positions) };
}

describe('growth replay', () => {
  it('matches every published piece of the tree, in publish order', () => {
    const published = Array.from(tree.cells.status).filter((s) => s === CellStatus.Published).length;
    expect(timeline.count).toBe(published);
    for (let k = 1; k < timeline.count; k++) expect(timeline.at[k]!).toBeGreaterThanOrEqual(timeline.at[k - 1]!);
    expect(publishedBy(timeline, timeline.start - 1)).toBe(0);
    expect(publishedBy(timeline, timeline.end)).toBe(timeline.count);
  });

  it('shows later pieces as before: trunk squares pending, branch squares absent, other cells as they are', () => {
    const at = publishedBy(timeline, timeline.start + (timeline.end - timeline.start) / 2);
    const cells = deriveReplayCells(tree.cells, timeline, at);
    const later = new Set(Array.from(timeline.index.subarray(at)));
    for (let i = 0; i < tree.cells.count; i++) {
      if (!later.has(i)) {
        expect(cells.status[i]).toBe(tree.cells.status[i]);
        expect(cells.color[i]).toBe(tree.cells.color[i]);
      } else {
        expect(cells.status[i]).toBe(tree.cells.type[i] === CellType.Trunk ? CellStatus.Pending : ABSENT_STATUS);
        expect(cells.color[i]).toBe(-1);
      }
    }
  });

  it('reaches the same tree by steps from any time as from scratch, and leaves the live tree alone', () => {
    const liveStatus = tree.cells.status.slice();
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
            expect(state.slots.list()).toEqual(computeBranchSlots(tree.settings, engineGrid(fresh)));
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
    const now = timeline.end + 86_400_000;
    const filled = buildTimeline(older, tree.cells, now);
    expect(filled.count).toBe(timeline.count);
    expect(new Set(filled.index)).toEqual(new Set(timeline.index));
    expect(Array.from(filled.at.subarray(filled.count - 5))).toEqual([now, now, now, now, now]);
    expect(Array.from(filled.at.subarray(0, filled.count - 5))).toEqual(
      Array.from(timeline.at.subarray(0, timeline.count - 5)),
    );
    // Before `now` the late pieces are not shown yet; at `now` the replay's tree is the live one.
    expect(publishedBy(filled, now - 1)).toBe(filled.count - 5);
    expect(deriveReplayCells(tree.cells, filled, filled.count).status).toEqual(
      tree.cells.status.subarray(0, tree.cells.count),
    );
  });

  it('is not disturbed by cells the live tree gains meanwhile', () => {
    const live = syntheticTreeCells(500);
    const own = buildTimeline(growthHistory(live), live.cells);
    const replay = deriveReplayCells(live.cells, own, 0);
    live.cells.indexOf.set(0, -3, live.cells.count);
    expect(replay.indexOf.at(0, -3)).toBe(-1);
  });
});
