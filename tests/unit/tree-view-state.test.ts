/**
 * The tree page's pure rules: the view in the address, what a click opens and what a screen reader hears, the
 * keyboard's way from square to square, the position index of a decoded snapshot, and camera flights.
 */
import { describe, expect, it } from 'vitest';
import { CellStatus, Role } from '#shared/domain.ts';
import { positionKey } from '#shared/tree/geometry.ts';
import { PositionIndex } from '#shared/tree/position-index.ts';
import { actionForCell, describeCell } from '#client/tree/cell-actions.ts';
import { cameraCentre, interpolateCamera, type Camera } from '#shared/tree/camera.ts';
import { nearestSquare, stepFocus } from '#client/tree/engine/focus.ts';
import type { CellHit } from '#client/tree/engine/tree-engine.ts';
import { formatTreeUrl, parseTreeUrl } from '#shared/tree/tree-url.ts';

const TOKEN = 'AbCdEfGhIjKlMnOpQrStUv';

describe('the view in the address', () => {
  it('reads a position with a zoom, and a cell token with a zoom', () => {
    expect(parseTreeUrl('?row=34&col=-2&zoom=1.5')).toEqual({ kind: 'position', row: 34, column: -2, scale: 1.5 });
    expect(parseTreeUrl(`?cell=${TOKEN}&zoom=2`)).toEqual({ kind: 'cell', token: TOKEN, scale: 2 });
    expect(parseTreeUrl('?row=3&col=1')).toEqual({ kind: 'position', row: 3, column: 1, scale: 1 });
  });

  it('has no view without its parameters, and an invalid one for anything malformed', () => {
    expect(parseTreeUrl('')).toEqual({ kind: 'none' });
    expect(parseTreeUrl('?bench')).toEqual({ kind: 'none' });
    for (const search of [
      '?row=3&col=1&zoom=9',
      '?row=3&col=1&zoom=0.1',
      '?row=3&col=1&zoom=abc',
      '?row=3&col=1&zoom=',
      '?row=x&col=1',
      '?row=3',
      '?cell=short',
      '?cell=<script>',
      '?row=99999999&col=0',
    ]) {
      expect(parseTreeUrl(search), search).toEqual({ kind: 'invalid' });
    }
  });

  it('writes the view back, keeping other parameters and dropping a cell token', () => {
    expect(formatTreeUrl(`?bench&cell=${TOKEN}`, { row: 7, column: -3, scale: 1.5 })).toBe(
      '?bench=&row=7&col=-3&zoom=1.5',
    );
    const written = formatTreeUrl('', { row: 40, column: 2, scale: 0.5 });
    expect(parseTreeUrl(written)).toEqual({ kind: 'position', row: 40, column: 2, scale: 0.5 });
  });
});

function hit(
  status: number,
  token: string | null = TOKEN,
  kind: CellHit['kind'] = 'cell',
  piece: CellHit['piece'] = null,
): CellHit {
  return { kind, row: 34, column: 2, status, token, piece };
}

// What a tap opens: docs/product.md, Squares (cells).
describe('a click on a square', () => {
  const guest = { asker: null, ownTokens: new Set<string>() };

  it("opens a published piece's details, and says so when its token is not known", () => {
    expect(actionForCell(hit(CellStatus.Published), guest)).toEqual({
      kind: 'navigate',
      to: `/observe/cell/${TOKEN}/details`,
    });
    expect(actionForCell(hit(CellStatus.Published, null), guest)).toEqual({ kind: 'unreachable' });
  });

  it('opens the subscribe popup on a pending square and the reserve popup on an available one or a branch slot', () => {
    expect(actionForCell(hit(CellStatus.Pending), guest)).toEqual({ kind: 'popup', popup: 'subscribe' });
    expect(actionForCell(hit(CellStatus.Available), guest)).toEqual({ kind: 'popup', popup: 'reserve' });
    expect(actionForCell(hit(CellStatus.Available, null, 'slot'), guest)).toEqual({ kind: 'popup', popup: 'reserve' });
  });

  it('opens the editor on a reserved square for an admin or its own artist, the subscribe popup for anyone else', () => {
    expect(actionForCell(hit(CellStatus.Reserved), guest)).toEqual({ kind: 'popup', popup: 'subscribe' });
    expect(
      actionForCell(hit(CellStatus.Reserved), { asker: { role: Role.Admin }, ownTokens: new Set<string>() }),
    ).toEqual({
      kind: 'navigate',
      to: `/observe/cell/${TOKEN}/edit`,
    });
    expect(
      actionForCell(hit(CellStatus.Reserved), { asker: { role: Role.Observer }, ownTokens: new Set([TOKEN]) }),
    ).toEqual({
      kind: 'navigate',
      to: `/observe/cell/${TOKEN}/edit`,
    });
  });

  it('names the focused square for a screen reader', () => {
    expect(describeCell(hit(CellStatus.Published, TOKEN, 'cell', { title: 'Quiet Orchard', artist: 'Ada Lee' }))).toBe(
      'row 34, column 2: published — Quiet Orchard by Ada Lee',
    );
    expect(describeCell(hit(CellStatus.Published))).toBe('row 34, column 2: published piece');
    expect(describeCell(hit(CellStatus.Available, null, 'slot'))).toMatch(/^row 34, column 2: available branch slot/);
    expect(describeCell(hit(CellStatus.Reserved), true)).toMatch(/reserved by you/);
    expect(describeCell(hit(CellStatus.Pending))).toMatch(/^row 34, column 2: unavailable/);
  });
});

describe('the keyboard focus', () => {
  const squares = new Set(['0,0', '0,1', '0,4', '2,1', '5,5'].map((s) => s));
  const has = (row: number, column: number) => squares.has(`${row},${column}`);

  it('steps to the next square in a direction, over gaps, and stays when there is none', () => {
    expect(stepFocus(has, { row: 0, column: 1 }, 0, 1)).toEqual({ row: 0, column: 4 });
    expect(stepFocus(has, { row: 0, column: 1 }, 1, 0)).toEqual({ row: 2, column: 1 });
    expect(stepFocus(has, { row: 0, column: 0 }, -1, 0)).toBeNull();
  });

  it('starts from the square nearest the middle', () => {
    expect(nearestSquare(has, { row: 1, column: 1 })).toEqual({ row: 0, column: 1 });
    expect(nearestSquare(has, { row: 5, column: 5 })).toEqual({ row: 5, column: 5 });
    expect(nearestSquare(() => false, { row: 0, column: 0 }, 3)).toBeNull();
  });
});

describe('the position index of a decoded snapshot', () => {
  it('finds cells by position, densely and sparsely, and survives the trip to and from a worker', () => {
    const dense = PositionIndex.forBounds(3, 10, 12, -2, 3);
    dense.set(10, -2, 0);
    dense.set(12, 3, 2);
    expect(dense.at(10, -2)).toBe(0);
    expect(dense.at(12, 3)).toBe(2);
    expect(dense.at(11, 0)).toBe(-1);
    expect(dense.at(99, 0)).toBe(-1);
    expect(dense.get(positionKey(12, 3))).toBe(2);
    expect(new PositionIndex(dense.toParts()).at(12, 3)).toBe(2);

    const sparse = PositionIndex.forBounds(2, 0, 900_000, -15, 900_000);
    expect(sparse.toParts().dense).toBeNull();
    sparse.set(900_000, 900_000, 1);
    expect(sparse.at(900_000, 900_000)).toBe(1);
    expect(new PositionIndex(sparse.toParts()).has(positionKey(900_000, 900_000))).toBe(true);
  });

  /** A tree of `rows` full rows of columns -15 to 19, but for the cells `gaps` leaves out, in row-then-column order. */
  function rowOrdered(rows: number, gaps: (row: number, column: number) => boolean) {
    const row = new Int32Array(rows * 35);
    const col = new Int32Array(rows * 35);
    let count = 0;
    for (let r = 0; r < rows; r++) {
      for (let c = -15; c <= 19; c++) {
        if (gaps(r, c)) continue;
        row[count] = r;
        col[count++] = c;
      }
    }
    return { row: row.subarray(0, count), col: col.subarray(0, count), count };
  }
  const bounds = (rows: number) => ({ rowMin: 0, rowMax: rows - 1, colMin: -15, colMax: 19 });

  it('finds the cells of a tree of millions by row, with one byte a cell instead of the grid', () => {
    // Row 7 lacks every third column, row 9 all but column 4: rows that are not full are searched.
    const gaps = (r: number, c: number) => (r === 7 && c % 3 === 0) || (r === 9 && c !== 4);
    const cells = rowOrdered(60_000, gaps);
    const index = PositionIndex.byRows(cells.row, cells.col, cells.count, bounds(60_000))!;
    expect(index).not.toBeNull();
    const parts = index.toParts();
    expect(parts.dense).toBeNull();
    expect(parts.byRow!.columns.byteLength).toBe(cells.count);
    for (const i of [0, 1, 34, 35, 250, 251, 280, 281, 300, cells.count - 1])
      expect(index.at(cells.row[i]!, cells.col[i]!)).toBe(i);
    expect(index.at(7, 3)).toBe(-1);
    // Rows 0 to 6 full (245 cells), row 7 without its 12 columns divisible by 3, row 8 full: row 9's cell is 303.
    expect([index.at(8, -15), index.at(9, 4), index.at(9, 5), index.at(10, -15)]).toEqual([268, 303, -1, 304]);
    expect([index.at(-1, 0), index.at(60_000, 0), index.at(5, 20)]).toEqual([-1, -1, -1]);

    // A cell the live tree adds later is found too, also after the trip to and from a worker and in a copy.
    index.set(7, 3, cells.count);
    expect(index.at(7, 3)).toBe(cells.count);
    const crossed = new PositionIndex(index.toParts());
    expect([crossed.at(7, 3), crossed.at(cells.row[300]!, cells.col[300]!)]).toEqual([cells.count, 300]);
    const copy = index.clone();
    copy.set(9, 5, cells.count + 1);
    expect([copy.at(9, 5), index.at(9, 5)]).toEqual([cells.count + 1, -1]);
    // A position the rows hold, set to another cell, answers that cell, as the grid's would.
    copy.set(8, -15, cells.count + 2);
    expect([copy.at(8, -15), index.at(8, -15)]).toEqual([cells.count + 2, 268]);
  });

  it('keeps the grid for a smaller tree, and for cells out of row-then-column order', () => {
    const small = rowOrdered(1_000, () => false);
    expect(PositionIndex.byRows(small.row, small.col, small.count, bounds(1_000))).toBeNull();
    const cells = rowOrdered(60_000, () => false);
    [cells.col[100], cells.col[101]] = [cells.col[101]!, cells.col[100]!];
    expect(PositionIndex.byRows(cells.row, cells.col, cells.count, bounds(60_000))).toBeNull();
  });
});

describe('camera flights', () => {
  it('glide the screen centre in a straight line and land exactly', () => {
    const from: Camera = { x: 0, y: 0, scale: 1 };
    const to: Camera = { x: 1000, y: 500, scale: 2 };
    expect(interpolateCamera(from, to, 0, 800, 600)).toEqual(from);
    expect(interpolateCamera(from, to, 1, 800, 600)).toEqual(to);
    const half = interpolateCamera(from, to, 0.5, 800, 600);
    const a = cameraCentre(from, 800, 600);
    const b = cameraCentre(to, 800, 600);
    const m = cameraCentre(half, 800, 600);
    expect(m.x).toBeCloseTo((a.x + b.x) / 2);
    expect(m.y).toBeCloseTo((a.y + b.y) / 2);
    expect(half.scale).toBeCloseTo(1.5);
  });
});
