import { describe, expect, it } from 'vitest';
import { DEFAULT_TREE_SETTINGS, positionKey } from '#shared/tree/geometry.ts';
import { SNAPSHOT_DETAIL_LIMIT, decodeSnapshot, encodeSnapshot, type SnapshotCell } from '#shared/tree/snapshot.ts';

const header = { token: 'tree-token-0123456789', version: 3, settings: DEFAULT_TREE_SETTINGS };

function cell(
  row: number,
  column: number,
  status: number,
  color: number | null,
  thumb: string | null = null,
): SnapshotCell {
  return { row, column, status, type: column >= 0 && column < 5 ? 1 : 3, color, token: `tok-${row}-${column}`, thumb };
}

describe('tree snapshot', () => {
  it('decodes what it encodes: positions, statuses, types, tokens and thumbnails', () => {
    const cells = [
      cell(3, -2, 2, 0xff8800, '/media/a-thumb.webp'),
      cell(3, 1, 3, null),
      cell(7, 4, 0, null),
      cell(40, 19, 1, null),
    ];
    const decoded = decodeSnapshot(encodeSnapshot(header, cells));
    expect(decoded.count).toBe(4);
    expect(Array.from(decoded.row)).toEqual([3, 3, 7, 40]);
    expect(Array.from(decoded.col)).toEqual([-2, 1, 4, 19]);
    expect(Array.from(decoded.status)).toEqual([2, 3, 0, 1]);
    expect(Array.from(decoded.type)).toEqual([3, 1, 1, 3]);
    expect(decoded.token).toEqual(cells.map((c) => c.token));
    expect(decoded.thumb).toEqual(['/media/a-thumb.webp', '', '', '']);
    expect(decoded.indexOf.get(positionKey(7, 4))).toBe(2);
  });

  it('keeps colours at 12 bits and marks cells without art', () => {
    const decoded = decodeSnapshot(
      encodeSnapshot(header, [cell(0, 0, 2, 0xf0a050), cell(0, 1, 2, 0x000000), cell(0, 2, 3, null)]),
    );
    expect(decoded.color[0]).toBe(0xffaa55);
    expect(decoded.color[1]).not.toBe(-1); // black art is still art
    expect(decoded.color[2]).toBe(-1);
  });

  it('leaves tokens and thumbnails out of large trees', () => {
    const many: SnapshotCell[] = [];
    for (let i = 0; i <= SNAPSHOT_DETAIL_LIMIT; i++) many.push(cell(Math.floor(i / 35), (i % 35) - 15, 2, 0x123456));
    const wire = encodeSnapshot(header, many);
    expect(wire.detail).toBeUndefined();
    const decoded = decodeSnapshot(wire);
    expect(decoded.token).toBeNull();
    expect(decoded.count).toBe(SNAPSHOT_DETAIL_LIMIT + 1);
    expect(decoded.row[decoded.count - 1]).toBe(Math.floor(SNAPSHOT_DETAIL_LIMIT / 35));
  });
});
