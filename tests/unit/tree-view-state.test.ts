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
