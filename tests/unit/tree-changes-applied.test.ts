/**
 * What an open tree shows after the server's changes are applied (decision 023): each changed square's status, type,
 * colour, token and thumbnail as the server sent them, new squares where they were added, and the rest untouched;
 * the changes an event carries are the same changes once whole again.
 */
import { describe, expect, it } from 'vitest';
import { CellStatus, CellType } from '#shared/domain.ts';
import {
  CHANGES_FORMAT,
  applyChanges,
  encodeChanges,
  fromChangesEvent,
  toChangesEvent,
  type TreeChangesWire,
} from '#shared/tree/changes.ts';
import { DEFAULT_TREE_SETTINGS as S } from '#shared/tree/geometry.ts';
import {
  SNAPSHOT_DETAIL_LIMIT,
  colorAsSent,
  decodeSnapshot,
  encodeSnapshot,
  type SnapshotCell,
  type TreeCells,
} from '#shared/tree/snapshot.ts';

const header = { token: 'tree-token-0123456789', version: 7, settings: S };

function cell(row: number, column: number, changes: Partial<SnapshotCell> = {}): SnapshotCell {
  return {
    row,
    column,
    status: CellStatus.Pending,
    type: CellType.Trunk,
    color: null,
    token: `t${row}_${column}`,
    thumb: null,
    ...changes,
  };
}

const STARTING = [
  cell(0, 2, { status: CellStatus.Published, color: 0x336699, thumb: 'media/thumb/a.webp' }),
  cell(1, 1),
  cell(1, 2, { status: CellStatus.Reserved }),
  cell(2, -1, { type: CellType.Branch, status: CellStatus.Available }),
];

const tree = (cells = STARTING) => decodeSnapshot(encodeSnapshot(header, cells));

/** A square as the open tree holds it, found by its position. */
function shown(cells: TreeCells, row: number, column: number) {
  const i = cells.indexOf.at(row, column);
  if (i < 0) return null;
  return {
    row: cells.row[i],
    column: cells.col[i],
    status: cells.status[i],
    type: cells.type[i],
    color: cells.color[i],
    token: cells.token?.[i] ?? null,
    thumb: cells.thumb?.[i] ?? null,
  };
}

describe('changes as the server sends them', () => {
  it('carries each changed square whole, with "no thumbnail" and "no colour" spelt out', () => {
    const wire = encodeChanges(7, 9, [
      cell(1, 1, { status: CellStatus.Published, color: 0xff8800, thumb: 'media/thumb/b.webp' }),
      cell(3, -2, { type: CellType.Branch, status: CellStatus.Reserved }),
    ]);
    expect(wire).toEqual({
      format: CHANGES_FORMAT,
      resync: false,
      since: 7,
      version: 9,
      count: 2,
      row: [1, 3],
      col: [1, -2],
      status: `${CellStatus.Published}${CellStatus.Reserved}`,
      type: `${CellType.Trunk}${CellType.Branch}`,
      color: 'f80000',
      cell: ['t1_1', 't3_-2'],
      thumb: ['media/thumb/b.webp', ''],
    });
    expect(CHANGES_FORMAT).toBe(1);
    expect(encodeChanges(9, 9, [])).toEqual({
      format: 1,
      resync: false,
      since: 9,
      version: 9,
      count: 0,
      row: [],
      col: [],
      status: '',
      type: '',
      color: '',
      cell: [],
      thumb: [],
    });
  });

  it('sends an event without what its id says, and makes it whole again from the id', () => {
    const wire = encodeChanges(7, 9, [cell(1, 1, { status: CellStatus.Published, color: 0x123456 })]);
    const event = toChangesEvent(wire);
    expect(Object.keys(event).sort()).toEqual([
      'cell',
      'col',
      'color',
      'count',
      'row',
      'since',
      'status',
      'thumb',
      'type',
    ]);
    expect(fromChangesEvent(9, event)).toEqual(wire);
    expect(JSON.stringify(event).length).toBeLessThan(200);
  });
});

describe('changes applied to an open tree', () => {
  it("shows a changed square's new status, type, colour, token and thumbnail, in place", () => {
    const before = tree();
    const wire = encodeChanges(7, 8, [
      cell(1, 1, { status: CellStatus.Published, color: 0xff8800, thumb: 'media/thumb/b.webp', token: 'new-token' }),
      cell(0, 2, { status: CellStatus.Available, type: CellType.Branch }),
    ]);
    const applied = applyChanges(before, wire);
    expect(applied.cells).toBe(before);
    expect(applied.added).toEqual([]);
    expect(applied.changed).toEqual([before.indexOf.at(1, 1), before.indexOf.at(0, 2)]);
    expect(shown(applied.cells, 1, 1)).toEqual({
      row: 1,
      column: 1,
      status: CellStatus.Published,
      type: CellType.Trunk,
      color: colorAsSent(0xff8800),
      token: 'new-token',
      thumb: 'media/thumb/b.webp',
    });
    // A piece taken down: no colour and no thumbnail any more.
    expect(shown(applied.cells, 0, 2)).toEqual({
      row: 0,
      column: 2,
      status: CellStatus.Available,
      type: CellType.Branch,
      color: -1,
      token: 't0_2',
      thumb: '',
    });
    // The others are as they were.
    expect(shown(applied.cells, 1, 2)).toEqual(shown(tree(), 1, 2));
    expect(shown(applied.cells, 2, -1)).toEqual(shown(tree(), 2, -1));
    expect(applied.cells.count).toBe(4);
  });

  it('adds new squares after the old ones, each where the server put it', () => {
    const before = tree();
    const untouched = STARTING.map((c) => shown(before, c.row, c.column));
    const wire = encodeChanges(7, 8, [
      cell(3, -2, { type: CellType.Branch, status: CellStatus.Reserved, token: 'fresh-1' }),
      cell(1, 2, { status: CellStatus.Pending }),
      cell(4, 6, {
        type: CellType.Branch,
        status: CellStatus.Published,
        color: 0x00ff00,
        thumb: 'media/thumb/c.webp',
        token: 'fresh-2',
      }),
    ]);
    const applied = applyChanges(before, wire);
    expect(applied.cells).not.toBe(before);
    expect(applied.cells.count).toBe(6);
    expect(applied.added).toEqual([4, 5]);
    expect(applied.changed).toEqual([before.indexOf.at(1, 2)]);
    expect(shown(applied.cells, 3, -2)).toEqual({
      row: 3,
      column: -2,
      status: CellStatus.Reserved,
      type: CellType.Branch,
      color: -1,
      token: 'fresh-1',
      thumb: '',
    });
    expect(shown(applied.cells, 4, 6)).toEqual({
      row: 4,
      column: 6,
      status: CellStatus.Published,
      type: CellType.Branch,
      color: colorAsSent(0x00ff00),
      token: 'fresh-2',
      thumb: 'media/thumb/c.webp',
    });
    expect(shown(applied.cells, 1, 2)!.status).toBe(CellStatus.Pending);
    // The squares that were there keep their places and everything else about them.
    for (const [k, c] of STARTING.entries()) {
      if (c.row === 1 && c.column === 2) continue;
      expect(shown(applied.cells, c.row, c.column)).toEqual(untouched[k]);
      expect(applied.cells.indexOf.at(c.row, c.column)).toBe(k);
    }
    // The tree before keeps its own arrays, its count and its squares: the new ones went into copies.
    expect(before.count).toBe(4);
    expect(before.token).toEqual(['t0_2', 't1_1', 't1_2', 't2_-1']);
    expect(before.thumb).toEqual(['media/thumb/a.webp', '', '', '']);
    expect(before.row.length).toBe(4);
    expect([...applied.cells.row]).toEqual([0, 1, 1, 2, 3, 4]);
    expect([...applied.cells.col]).toEqual([2, 1, 2, -1, -2, 6]);
    // Applying the same changes again changes the squares in place and adds none.
    const again = applyChanges(applied.cells, wire);
    expect(again.cells).toBe(applied.cells);
    expect(again.added).toEqual([]);
    expect(again.changed).toEqual([4, 2, 5]);
  });

  it('leaves tokens and thumbnails out of a large tree, which fetches them by region', () => {
    const many: SnapshotCell[] = [];
    for (let i = 0; many.length <= SNAPSHOT_DETAIL_LIMIT; i++) many.push(cell(Math.floor(i / 40), (i % 40) - 15));
    const large = tree(many);
    expect(large.token).toBeNull();
    const wire = encodeChanges(7, 8, [
      cell(0, -15, { status: CellStatus.Published, color: 0xabcdef, thumb: 'media/thumb/d.webp' }),
      cell(5000, 0, { status: CellStatus.Reserved }),
    ]);
    const applied = applyChanges(large, wire);
    expect(applied.cells.token).toBeNull();
    expect(applied.cells.thumb).toBeNull();
    expect(shown(applied.cells, 0, -15)).toMatchObject({ status: CellStatus.Published, color: colorAsSent(0xabcdef) });
    expect(shown(applied.cells, 5000, 0)).toMatchObject({ status: CellStatus.Reserved, color: -1 });
    expect(applied.cells.count).toBe(many.length + 1);
  });

  it('keeps columns in two bytes each, and widens them when a new square needs more', () => {
    const before = tree();
    expect(before.col).toBeInstanceOf(Int16Array);
    const near = applyChanges(before, encodeChanges(7, 8, [cell(5, 19, { status: CellStatus.Available })])).cells;
    expect(near.col).toBeInstanceOf(Int16Array);
    // A square no setting allows today, as a tree whose settings changed since might send.
    const far = applyChanges(near, encodeChanges(8, 9, [cell(6, 40_000)])).cells;
    expect(far.col).toBeInstanceOf(Int32Array);
    expect([shown(far, 6, 40_000)?.column, shown(far, 5, 19)?.column, shown(far, 2, -1)?.column]).toEqual([
      40_000, 19, -1,
    ]);
  });

  it('changes nothing for an empty batch', () => {
    const before = tree();
    const empty: TreeChangesWire = encodeChanges(8, 8, []);
    expect(applyChanges(before, empty)).toEqual({ cells: before, changed: [], added: [] });
  });
});
