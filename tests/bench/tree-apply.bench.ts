/**
 * What applying live changes and the growth replay cost on the main thread, without PixiJS (100 changed cells
 * on a 1,000,000-cell tree in ≤ 4 ms, replay frames ≤ 8 ms at p95), on a tree built in memory (BENCH_CELLS, 1,000,000
 * by default). Run: `npm run bench -- apply`; with drawing, in Chromium: `npm run bench -- browser-live`.
 */
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
import { growthHistory, syntheticTreeCells } from '#tests/helpers/synthetic-tree-cells.ts';
import { writeResults } from './results.ts';

const CELLS = Number(process.env.BENCH_CELLS ?? 1_000_000);
const BATCH = 100;
const ROUNDS = 200;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

const fixed = (n: number, digits = 3) => n.toFixed(digits);

/** Batches of 100 random changed cells (published ones emptied, others published), each timed. */
function applyTimes(): number[] {
  const tree = syntheticTreeCells(CELLS);
  const slots = new BranchSlots(computeBranchSlots(tree.settings, engineGrid(tree.cells)));
  const state: TreeState = {
    cells: tree.cells,
    settings: tree.settings,
    slots,
    index: buildChunkIndex(tree.cells, slots.positions),
  };
  const details = new CellDetails(tree.cells);
  let seed = 12345;
  const random = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
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
  // The first rounds warm the JIT up.
  return times.slice(10).sort((a, b) => a - b);
}

/** The replay entered at its start, then played at 60 frames a second for 20 s of history; and one large jump. */
function replayTimes(): { enterMs: number; perFrame: number; frames: number[]; jumpMs: number } {
  const tree = syntheticTreeCells(CELLS);
  const timeline = buildTimeline(growthHistory(tree), tree.cells);
  const started = performance.now();
  const cells = deriveReplayCells(tree.cells, timeline, 0);
  // The replay's past tree has no branch slots (engine/tree-engine.ts beginReplay).
  const slots = new BranchSlots([], false);
  const state: TreeState = { cells, settings: tree.settings, slots, index: buildChunkIndex(cells, slots.positions) };
  const enterMs = performance.now() - started;
  const perFrame = Math.ceil(timeline.count / (20 * 60));
  const frames: number[] = [];
  for (let shown = 0; shown + perFrame <= timeline.count && frames.length < 600; shown += perFrame) {
    const t0 = performance.now();
    updateTree(state, replayChanges(timeline, shown, shown + perFrame));
    frames.push(performance.now() - t0);
  }
  const t0 = performance.now();
  updateTree(state, replayChanges(timeline, 20_000, 40_000));
  return { enterMs, perFrame, frames: frames.sort((a, b) => a - b), jumpMs: performance.now() - t0 };
}

export async function benchTreeApply(): Promise<string> {
  const apply = applyTimes();
  const replay = replayTimes();
  const cells = CELLS.toLocaleString('en-US');
  return writeResults(
    'tree-apply',
    `Applying live changes and playing the replay on the main thread (${cells} cells, without PixiJS)`,
    [
      { measure: `apply ${BATCH} changed cells: median (ms)`, result: fixed(percentile(apply, 0.5)), target: '' },
      {
        measure: `apply ${BATCH} changed cells: p95 (ms)`,
        result: fixed(percentile(apply, 0.95)),
        target: '≤ 4 (drawing included)',
      },
      { measure: `apply ${BATCH} changed cells: max (ms)`, result: fixed(apply.at(-1)!), target: '' },
      {
        measure: `replay frame of ${replay.perFrame} pieces: median (ms)`,
        result: fixed(percentile(replay.frames, 0.5)),
        target: '',
      },
      {
        measure: `replay frame of ${replay.perFrame} pieces: p95 (ms)`,
        result: fixed(percentile(replay.frames, 0.95)),
        target: '≤ 8 (drawing included)',
      },
      { measure: 'entering the replay at its start (ms)', result: fixed(replay.enterMs, 0), target: '' },
      {
        measure: '20,000 replay pieces at once (ms)',
        result: fixed(replay.jumpMs, 1),
        target: '(the replay slices such jumps over frames)',
      },
    ],
    [
      `${ROUNDS} batches of ${BATCH} random cells (the first 10 left out as warm-up): the shared applyChanges, the engine's slot, chunk-index and details updates (tree-update.ts, cell-details.ts); chunks are redrawn by PixiJS after this, on the frames that show them.`,
      'Replay: the whole history played in 20 s at 60 frames a second, at most 600 frames timed.',
    ],
  );
}
