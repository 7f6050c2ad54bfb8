/**
 * The growth replay's timeline (issue 17): the history's pieces (shared/tree/history.ts) matched to the page's tree,
 * with what each cell looks like once published (as the tree is now) and before (a trunk square pending, a branch
 * square not there yet). The tree at time T is the live tree with every piece published after T put back to its
 * "before"; moving between two times is a batch of changes (shared/tree/changes.ts) over the pieces in between, so
 * the engine redraws only what they touch.
 */
import { CellStatus, CellType } from '#shared/domain.ts';
import { CHANGES_FORMAT, type TreeChangesWire } from '#shared/tree/changes.ts';
import type { TreeHistoryWire } from '#shared/tree/history.ts';
import { encodeColor, type TreeCells } from '#shared/tree/snapshot.ts';
import { ABSENT_STATUS } from '../engine/tree-grid.ts';

export interface ReplayTimeline {
  /** Pieces matched to a cell of the tree, in publish order. */
  count: number;
  /** Unix ms each piece was published, ascending. */
  at: Float64Array;
  /** Each piece's cell: index into the tree's arrays (as they were when the timeline was made), row and column. */
  index: Int32Array;
  row: Int32Array;
  col: Int32Array;
  /** The cell as it is now (published): status digit, type digit and colour, 3 hex digits. */
  afterStatus: string;
  afterColor: string;
  type: string;
  /** The cell before its piece: '0' (pending trunk square) or '9' (a branch square not there yet). */
  beforeStatus: string;
  token: string[];
  thumb: string[];
  /** First and last publish (0 when nothing is published). */
  start: number;
  end: number;
}

/** What a cell looked like before its piece was published: a trunk square waited empty, a branch one was not there. */
export function statusBefore(type: number): number {
  return type === CellType.Branch ? ABSENT_STATUS : CellStatus.Pending;
}

/** Matches the history to the tree: pieces on positions the tree has, each cell once (its first publish). */
export function buildTimeline(history: TreeHistoryWire, tree: TreeCells): ReplayTimeline {
  const seen = new Set<number>();
  const at: number[] = [];
  const index: number[] = [];
  let row = 0;
  let steps = 0;
  for (let k = 0; k < history.count; k++) {
    row += history.row[k]!;
    steps += history.time[k]!;
    const i = tree.indexOf.at(row, history.col[k]!);
    if (i < 0 || seen.has(i)) continue;
    seen.add(i);
    at.push(history.start + steps * history.step);
    index.push(i);
  }
  const count = index.length;
  const rows = new Int32Array(count);
  const cols = new Int32Array(count);
  const afterStatus: string[] = new Array(count);
  const afterColor: string[] = new Array(count);
  const type: string[] = new Array(count);
  const beforeStatus: string[] = new Array(count);
  const token: string[] = new Array(count);
  const thumb: string[] = new Array(count);
  for (let k = 0; k < count; k++) {
    const i = index[k]!;
    rows[k] = tree.row[i]!;
    cols[k] = tree.col[i]!;
    afterStatus[k] = String(tree.status[i]);
    const color = tree.color[i]!;
    afterColor[k] = color < 0 ? '000' : encodeColor(color);
    type[k] = String(tree.type[i]);
    beforeStatus[k] = String(statusBefore(tree.type[i]!));
    token[k] = tree.token?.[i] ?? '';
    thumb[k] = tree.thumb?.[i] ?? '';
  }
  return {
    count,
    at: Float64Array.from(at),
    index: Int32Array.from(index),
    row: rows,
    col: cols,
    afterStatus: afterStatus.join(''),
    afterColor: afterColor.join(''),
    type: type.join(''),
    beforeStatus: beforeStatus.join(''),
    token,
    thumb,
    start: count > 0 ? at[0]! : 0,
    end: count > 0 ? at[count - 1]! : 0,
  };
}

/** How many pieces were published at or before `time`. */
export function publishedBy(timeline: ReplayTimeline, time: number): number {
  let low = 0;
  let high = timeline.count;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (timeline.at[mid]! <= time) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** The tree with its first `published` pieces published and the rest as they were before: a copy, the live one untouched. */
export function deriveReplayCells(tree: TreeCells, timeline: ReplayTimeline, published: number): TreeCells {
  const cells: TreeCells = {
    count: tree.count,
    row: tree.row.slice(0, tree.count),
    col: tree.col.slice(0, tree.count),
    status: tree.status.slice(0, tree.count),
    type: tree.type.slice(0, tree.count),
    color: tree.color.slice(0, tree.count),
    token: tree.token ? tree.token.slice(0, tree.count) : null,
    thumb: tree.thumb ? tree.thumb.slice(0, tree.count) : null,
    indexOf: tree.indexOf.clone(),
  };
  for (let k = published; k < timeline.count; k++) {
    const i = timeline.index[k]!;
    cells.status[i] = timeline.beforeStatus.charCodeAt(k) - 48;
    cells.color[i] = -1;
    if (cells.thumb) cells.thumb[i] = '';
  }
  return cells;
}

/** The changes that move a tree shown with `from` pieces published to `to` published (either way in time). */
export function replayChanges(timeline: ReplayTimeline, from: number, to: number): TreeChangesWire {
  const first = Math.min(from, to);
  const last = Math.max(from, to);
  const count = last - first;
  const row = new Array<number>(count);
  const col = new Array<number>(count);
  const cell = new Array<string>(count);
  const thumb = new Array<string>(count);
  const forward = to > from;
  for (let n = 0; n < count; n++) {
    const k = first + n;
    row[n] = timeline.row[k]!;
    col[n] = timeline.col[k]!;
    cell[n] = timeline.token[k]!;
    thumb[n] = forward ? timeline.thumb[k]! : '';
  }
  return {
    format: CHANGES_FORMAT,
    resync: false,
    since: from,
    version: to,
    count,
    row,
    col,
    status: forward ? timeline.afterStatus.slice(first, last) : timeline.beforeStatus.slice(first, last),
    type: timeline.type.slice(first, last),
    color: forward ? timeline.afterColor.slice(3 * first, 3 * last) : '000'.repeat(count),
    cell,
    thumb,
  };
}
