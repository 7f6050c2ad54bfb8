/**
 * What applying live changes costs on the main thread without PixiJS (issue 17's target: 100 changed cells on a
 * 1,000,000-cell tree in at most 4 ms, drawing included). The tree is built in memory; the median and p95 of many
 * batches are printed and held to the budget. BENCH_CELLS changes the tree's size (default 1,000,000).
 */
import { describe, expect, it } from 'vitest';
import { CellStatus, CellType } from '#shared/domain.ts';
import { encodeChanges } from '#shared/tree/changes.ts';
import { computeBranchSlots } from '#shared/tree/geometry.ts';
import type { SnapshotCell } from '#shared/tree/snapshot.ts';
import { BranchSlots } from '#client/tree/engine/branch-slots.ts';
import { CellDetails } from '#client/tree/engine/cell-details.ts';
import { buildChunkIndex } from '#client/tree/engine/chunk-index.ts';
import { engineGrid } from '#client/tree/engine/tree-grid.ts';
import { updateTree, type TreeState } from '#client/tree/engine/tree-update.ts';
import { buildTimeline, deriveReplayCells, replayChanges } from '#client/tree/replay/replay-timeline.ts';
import { growthHistory, syntheticTreeCells } from './synthetic-tree-cells.ts';

const CELLS = Number(process.env.BENCH_CELLS ?? 1_000_000);
const BATCH = 100;
const ROUNDS = 200;
const BUDGET_MS = 4;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

describe(`applying ${BATCH} changes to a ${CELLS.toLocaleString('en')}-cell tree`, () => {
  it('stays within the main thread’s budget', { timeout: 120_000 }, () => {
    const tree = syntheticTreeCells(CELLS);
    const slots = new BranchSlots(computeBranchSlots(tree.settings, engineGrid(tree.cells)));
    const state: TreeState = { cells: tree.cells, settings: tree.settings, slots, index: buildChunkIndex(tree.cells, slots.positions) };
    const details = new CellDetails(tree.cells);
    let seed = 12345;
    const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
    const times: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const picked = new Map<number, SnapshotCell>();
      while (picked.size < BATCH) {
        const i = Math.floor(random() * state.cells.count);
        const published = state.cells.status[i] === CellStatus.Published;
        const trunk = state.cells.type[i] === CellType.Trunk;
        picked.set(i, {
          row: state.cells.row[i]!,
          column: state.cells.col[i]!,
          status: published ? (trunk ? CellStatus.Pending : CellStatus.Available) : CellStatus.Published,
          type: state.cells.type[i]!,
          color: published ? null : 0x4488cc,
          token: `token-${round}-${i}`,
          thumb: published ? null : `/media/${i}.webp`,
        });
      }
      const changes = encodeChanges(round, round + 1, [...picked.values()]);
      const started = performance.now();
      updateTree(state, changes);
      details.noteChanged(changes);
      times.push(performance.now() - started);
    }
    const sorted = times.slice(10).sort((a, b) => a - b);
    const median = percentile(sorted, 0.5);
    const p95 = percentile(sorted, 0.95);
    console.log(`apply ${BATCH} changes to ${CELLS} cells: median ${median.toFixed(3)} ms, p95 ${p95.toFixed(3)} ms, max ${sorted.at(-1)!.toFixed(3)} ms`);
    expect(median).toBeLessThan(BUDGET_MS);
  });
});

describe(`the growth replay on a ${CELLS.toLocaleString('en')}-cell tree`, () => {
  it('moves a frame’s worth of pieces within a frame’s budget', { timeout: 120_000 }, () => {
    const tree = syntheticTreeCells(CELLS);
    const timeline = buildTimeline(growthHistory(tree), tree.cells);
    const started = performance.now();
    const cells = deriveReplayCells(tree.cells, timeline, 0);
    const slots = new BranchSlots(computeBranchSlots(tree.settings, engineGrid(cells)));
    const state: TreeState = { cells, settings: tree.settings, slots, index: buildChunkIndex(cells, slots.positions) };
    const enterMs = performance.now() - started;
    // Playing: the whole history in 20 s at 60 frames a second.
    const perFrame = Math.ceil(timeline.count / (20 * 60));
    const times: number[] = [];
    for (let shown = 0; shown + perFrame <= timeline.count && times.length < 600; shown += perFrame) {
      const t0 = performance.now();
      updateTree(state, replayChanges(timeline, shown, shown + perFrame));
      times.push(performance.now() - t0);
    }
    const sorted = times.sort((a, b) => a - b);
    const t0 = performance.now();
    updateTree(state, replayChanges(timeline, 20_000, 40_000));
    const jumpMs = performance.now() - t0;
    console.log(
      `replay on ${CELLS} cells: entering at the start ${enterMs.toFixed(0)} ms; ${perFrame} pieces a frame: median ${percentile(sorted, 0.5).toFixed(3)} ms, p95 ${percentile(sorted, 0.95).toFixed(3)} ms; 20,000 pieces at once ${jumpMs.toFixed(1)} ms`,
    );
    expect(percentile(sorted, 0.95)).toBeLessThan(8);
  });
});
