/**
 * What changed in a tree since a version (decision 023): the changed cells' current state in the snapshot's columns
 * (absolute rows, tokens and thumbnails always), applied in place by an open tree instead of a whole new snapshot.
 * "resync" says the log no longer reaches back to that version: fetch the snapshot.
 */
import { decodeColor, encodeColor, fitsInt16, type SnapshotCell, type TreeCells } from './snapshot.ts';

export const CHANGES_FORMAT = 1;

/**
 * The longest a long-poll of /changes may ask to be held (`wait`, in seconds; decision 033): under the 30 seconds
 * after which proxies commonly give up on an answer. The page asks for all of it.
 */
export const CHANGES_WAIT_MAX_SECONDS = 25;

export interface TreeChangesWire {
  format: typeof CHANGES_FORMAT;
  resync: false;
  /** The version asked about, and the version these changes bring the tree to. */
  since: number;
  version: number;
  count: number;
  row: number[];
  col: number[];
  /** One digit a cell: the CellStatus. */
  status: string;
  /** One digit a cell: the CellType. */
  type: string;
  /** Three hex digits a cell, as in the snapshot ('000': no published art). */
  color: string;
  /** Each cell's token, and its published piece's thumbnail path ('' for none). */
  cell: string[];
  thumb: string[];
}

/** The log has been pruned past `since` (or a bulk change was made): fetch the whole snapshot again. */
export interface TreeResyncWire {
  format: typeof CHANGES_FORMAT;
  resync: true;
  since: number;
  version: number;
}

export type TreeChangesAnswer = TreeChangesWire | TreeResyncWire;

/**
 * The changes as an event of the live stream carries them: without what the event already says (its id is the
 * version) or what only /changes needs, so a one-square change stays well under 200 bytes on the wire.
 */
export type TreeChangesEvent = Omit<TreeChangesWire, 'format' | 'resync' | 'version'>;

export function toChangesEvent(changes: TreeChangesWire): TreeChangesEvent {
  const { format: _format, resync: _resync, version: _version, ...event } = changes;
  return event;
}

/** The changes an event carries, whole again: `id` is the event's id (the version the changes bring the tree to). */
export function fromChangesEvent(id: number, event: TreeChangesEvent): TreeChangesWire {
  return { format: CHANGES_FORMAT, resync: false, version: id, ...event };
}

export function encodeChanges(since: number, version: number, cells: readonly SnapshotCell[]): TreeChangesWire {
  const count = cells.length;
  // Stryker disable ArrayDeclaration: filled index by index below; sized up front or not, the arrays end the same
  const row = new Array<number>(count);
  const col = new Array<number>(count);
  const cell = new Array<string>(count);
  const thumb = new Array<string>(count);
  // Stryker restore ArrayDeclaration
  let status = '';
  let type = '';
  let color = '';
  for (let i = 0; i < count; i++) {
    const c = cells[i]!;
    row[i] = c.row;
    col[i] = c.column;
    status += c.status;
    type += c.type;
    color += encodeColor(c.color);
    cell[i] = c.token;
    thumb[i] = c.thumb ?? '';
  }
  return { format: CHANGES_FORMAT, resync: false, since, version, count, row, col, status, type, color, cell, thumb };
}

/** What applying changes did: indices of cells that changed in place, and of cells that are new. */
export interface AppliedChanges {
  cells: TreeCells;
  changed: number[];
  added: number[];
}

/**
 * Applies changes to a decoded tree: cells already there change in place (their typed arrays are written); new
 * cells are appended (the arrays are copied once, larger, and the position index learns them). The result's `cells`
 * is the same object when nothing was added. New cells sit after the old ones, not in row-then-column order: code
 * that needs that order sorts (availableSquares does).
 */
export function applyChanges(tree: TreeCells, changes: TreeChangesWire): AppliedChanges {
  const changed: number[] = [];
  const fresh: number[] = [];
  for (let k = 0; k < changes.count; k++) {
    const index = tree.indexOf.at(changes.row[k]!, changes.col[k]!);
    if (index >= 0) {
      writeCell(tree, index, changes, k);
      changed.push(index);
    } else {
      fresh.push(k);
    }
  }
  if (fresh.length === 0) return { cells: tree, changed, added: [] };
  const grown = growCells(
    tree,
    fresh.length,
    fresh.some((k) => !fitsInt16(changes.col[k]!)),
  );
  const added: number[] = [];
  for (const k of fresh) {
    const index = grown.count++;
    grown.row[index] = changes.row[k]!;
    grown.col[index] = changes.col[k]!;
    writeCell(grown, index, changes, k);
    grown.indexOf.set(changes.row[k]!, changes.col[k]!, index);
    added.push(index);
  }
  return { cells: grown, changed, added };
}

function writeCell(tree: TreeCells, index: number, changes: TreeChangesWire, k: number): void {
  tree.status[index] = changes.status.charCodeAt(k) - 48;
  tree.type[index] = changes.type.charCodeAt(k) - 48;
  tree.color[index] = decodeColor(changes.color, k);
  if (tree.token) tree.token[index] = changes.cell[k]!;
  if (tree.thumb) tree.thumb[index] = changes.thumb[k]!;
}

/**
 * A copy of the tree with room for `more` cells (count unchanged; the caller fills and counts them); its columns in
 * two bytes each as before unless `wideColumns` (a new cell's column needs four).
 */
function growCells(tree: TreeCells, more: number, wideColumns: boolean): TreeCells {
  const size = tree.count + more;
  const grow = <T extends Int32Array | Int16Array | Uint8Array>(
    array: Int32Array | Int16Array | Uint8Array,
    make: (n: number) => T,
  ): T => {
    const next = make(size);
    next.set(array.subarray(0, tree.count));
    return next;
  };
  return {
    count: tree.count,
    row: grow(tree.row, (n) => new Int32Array(n)),
    col:
      tree.col instanceof Int16Array && !wideColumns
        ? grow(tree.col, (n) => new Int16Array(n))
        : grow(tree.col, (n) => new Int32Array(n)),
    status: grow(tree.status, (n) => new Uint8Array(n)),
    type: grow(tree.type, (n) => new Uint8Array(n)),
    color: grow(tree.color, (n) => new Int32Array(n)),
    token: tree.token ? tree.token.slice(0, tree.count) : null,
    thumb: tree.thumb ? tree.thumb.slice(0, tree.count) : null,
    // The index is shared, not copied: it only learns the new positions.
    indexOf: tree.indexOf,
  };
}
