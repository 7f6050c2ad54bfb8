/**
 * The growth replay's timeline (decision 023): the history's pieces (shared/tree/history.ts) matched to the page's
 * tree, each cell's look once published (as now) and before (a trunk square pending, a branch square not there yet).
 * A past moment shows only what is known of it, the pieces published by then; its end is now, where the page shows the
 * live tree as it is.
 */
import { CellStatus, CellType } from '#shared/domain.ts';
import { CHANGES_FORMAT, type TreeChangesWire } from '#shared/tree/changes.ts';
import type { TreeHistoryWire } from '#shared/tree/history.ts';
import type { TreeCells } from '#shared/tree/snapshot.ts';
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
  /** The cell as it is now (published): its status, type and colour (12 bits packed as the snapshot sends it). */
  afterStatus: Uint8Array;
  afterColor: Uint16Array;
  type: Uint8Array;
  /** The cell before its piece: pending (a trunk square) or ABSENT_STATUS (a branch square not there yet). */
  beforeStatus: Uint8Array;
  /** Tokens and thumbnails, when the tree carries them (small trees). */
  token: string[] | null;
  thumb: string[] | null;
  /** The first publish, and now (or the last publish, if the clock is behind it); both 0 when nothing is published. */
  start: number;
  end: number;
}

/** What a cell looked like before its piece was published: a trunk square waited empty, a branch one was not there. */
export function statusBefore(type: number): number {
  return type === CellType.Branch ? ABSENT_STATUS : CellStatus.Pending;
}

/** 0xRRGGBB as the snapshot's 12 bits (the decoded colours are those bits expanded, so nothing is lost); 0: none. */
function packColor(color: number): number {
  return color < 0 ? 0 : (((color >> 20) & 0xf) << 8) | (((color >> 12) & 0xf) << 4) | ((color >> 4) & 0xf) || 1;
}

/**
 * Matches the history to the tree: pieces on positions the tree has, each cell once (its first publish). The server
 * may answer a history a little older than the tree (it is rebuilt in the background on a large tree): a piece the
 * tree shows published that the history does not name was published after it, so it joins the end, at `now`. The
 * timeline ends at `now`: after the last publish the tree did not grow, but it is today's tree that the end shows.
 */
export function buildTimeline(history: TreeHistoryWire, tree: TreeCells, now = Date.now()): ReplayTimeline {
  const seen = new Uint8Array(tree.count);
  let published = 0;
  for (let i = 0; i < tree.count; i++) if (tree.status[i] === CellStatus.Published) published++;
  const at = new Float64Array(history.count + published);
  const index = new Int32Array(history.count + published);
  let count = 0;
  let row = 0;
  let steps = 0;
  for (let k = 0; k < history.count; k++) {
    row += history.row[k]!;
    steps += history.time[k]!;
    const i = tree.indexOf.at(row, history.col[k]!);
    if (i < 0 || seen[i]) continue;
    seen[i] = 1;
    at[count] = history.start + steps * history.step;
    index[count++] = i;
  }
  const latest = Math.max(now, count > 0 ? at[count - 1]! : 0);
  for (let i = 0; i < tree.count; i++) {
    if (seen[i] || tree.status[i] !== CellStatus.Published) continue;
    at[count] = latest;
    index[count++] = i;
  }
  const timeline: ReplayTimeline = {
    count,
    at: at.slice(0, count),
    index: index.slice(0, count),
    row: new Int32Array(count),
    col: new Int32Array(count),
    afterStatus: new Uint8Array(count),
    afterColor: new Uint16Array(count),
    type: new Uint8Array(count),
    beforeStatus: new Uint8Array(count),
    token: tree.token ? new Array<string>(count) : null,
    thumb: tree.thumb ? new Array<string>(count) : null,
    start: count > 0 ? at[0]! : 0,
    end: count > 0 ? latest : 0,
  };
  for (let k = 0; k < count; k++) {
    const i = index[k]!;
    timeline.row[k] = tree.row[i]!;
    timeline.col[k] = tree.col[i]!;
    timeline.afterStatus[k] = tree.status[i]!;
    timeline.afterColor[k] = packColor(tree.color[i]!);
    timeline.type[k] = tree.type[i]!;
    timeline.beforeStatus[k] = statusBefore(tree.type[i]!);
    if (timeline.token) timeline.token[k] = tree.token![i]!;
    if (timeline.thumb) timeline.thumb[k] = tree.thumb![i]!;
  }
  return timeline;
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

/**
 * Whether the replay shows the live tree at `time`: at the timeline's end, now, the tree is shown as it is (its
 * reservations, available squares and branch slots included); any earlier moment shows only its published pieces.
 */
export function showsLiveTree(timeline: ReplayTimeline, time: number): boolean {
  return time >= timeline.end;
}

/**
 * The tree at a past time: its first `published` pieces published, as they look now, and every other cell in the
 * look of a square that is not there yet (statusBefore), with no colour or picture: whether a square was reserved or
 * free on a past day is not known (only publishing is dated), so no square shows today's reservation or availability.
 * A copy: the live tree is untouched.
 */
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
  const shown = new Uint8Array(tree.count);
  for (let k = 0; k < published; k++) shown[timeline.index[k]!] = 1;
  for (let i = 0; i < tree.count; i++) {
    if (shown[i]) continue;
    cells.status[i] = statusBefore(cells.type[i]!);
    cells.color[i] = -1;
    if (cells.thumb) cells.thumb[i] = '';
  }
  return cells;
}

const HEX = '0123456789abcdef';

/**
 * The changes that move a tree shown with `from` pieces published to `to` published (either way in time): a batch
 * (shared/tree/changes.ts) over the pieces in between, so the engine redraws only what they touch.
 */
export function replayChanges(timeline: ReplayTimeline, from: number, to: number): TreeChangesWire {
  const first = Math.min(from, to);
  const count = Math.abs(to - from);
  const forward = to > from;
  const row = new Array<number>(count);
  const col = new Array<number>(count);
  const cell = new Array<string>(count);
  const thumb = new Array<string>(count);
  let status = '';
  let type = '';
  let color = '';
  for (let n = 0; n < count; n++) {
    const k = first + n;
    row[n] = timeline.row[k]!;
    col[n] = timeline.col[k]!;
    cell[n] = timeline.token?.[k] ?? '';
    thumb[n] = forward ? (timeline.thumb?.[k] ?? '') : '';
    status += forward ? timeline.afterStatus[k]! : timeline.beforeStatus[k]!;
    type += timeline.type[k]!;
    const packed = forward ? timeline.afterColor[k]! : 0;
    color += HEX[packed >> 8]! + HEX[(packed >> 4) & 0xf]! + HEX[packed & 0xf]!;
  }
  return {
    format: CHANGES_FORMAT,
    resync: false,
    since: from,
    version: to,
    count,
    row,
    col,
    status,
    type,
    color,
    cell,
    thumb,
  };
}
