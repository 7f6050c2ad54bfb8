/**
 * The formats past a million cells (decision 045), without generating a large tree: the JSON bytes the snapshot and
 * history encoders write for numbers past 2^20, 2^24 and 2^31, the position keys of rows a ten-million-cell tree has,
 * and the generator's tokens in insertion order.
 */
import { describe, expect, it } from 'vitest';
import { orderedToken } from '#server/seed/synthetic.ts';
import { DEFAULT_TREE_SETTINGS, positionKey, positionOfKey } from '#shared/tree/geometry.ts';
import { decodeHistory, encodeHistory, encodeHistoryBytes, HISTORY_STEP_MS } from '#shared/tree/history.ts';
import { differences, jsonBytes } from '#shared/tree/json-bytes.ts';
import { PositionIndex } from '#shared/tree/position-index.ts';
import { decodeSnapshot, SNAPSHOT_DETAIL_LIMIT, SnapshotEncoder } from '#shared/tree/snapshot.ts';
import { TOKEN_PATTERN } from '#shared/validation/common.ts';

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe('JSON written as bytes', () => {
  it('writes whole numbers exactly as JSON.stringify, past 2^20, 2^24, 2^31 and 2^53 - 1', () => {
    const values = [0, 1, -1, 9, 10, -10, 99, 2 ** 20, 2 ** 24 + 7, -(2 ** 24), 2 ** 31, -(2 ** 31) - 1];
    values.push(1_795_721_119_709, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER);
    const bytes = jsonBytes([
      '{"a":',
      { count: values.length, at: (i) => values[i]! },
      ',"e":',
      { count: 0, at: () => 0 },
      '}',
    ]);
    expect(text(bytes)).toBe(JSON.stringify({ a: values, e: [] }));
    expect(bytes.byteLength).toBe(bytes.buffer.byteLength);
  });

  it('takes bytes as they are and differences from the previous value', () => {
    const rows = [285_730, 285_730, 285_731, 285_735];
    const bytes = jsonBytes(['[', new Uint8Array([48, 49]), ',', differences(rows.length, (i) => rows[i]!), ']']);
    expect(text(bytes)).toBe('[01,[285730,0,1,4]]');
  });

  it('refuses what is not a whole number', () => {
    expect(() => jsonBytes([{ count: 1, at: () => 0.5 }])).toThrow(RangeError);
    expect(() => jsonBytes([{ count: 1, at: () => 2 ** 53 }])).toThrow(RangeError);
  });
});

describe('a snapshot past a million cells', () => {
  it('writes the same text as the object it would give, rows past 2^20 and 2^24', () => {
    const settings = { ...DEFAULT_TREE_SETTINGS, trunk: { ...DEFAULT_TREE_SETTINGS.trunk, trunk_rows: 2 ** 24 + 40 } };
    const header = { token: 'tree-token-0123456789', version: 2 ** 33, settings };
    const count = SNAPSHOT_DETAIL_LIMIT + 3;
    const encoder = new SnapshotEncoder(count);
    for (let i = 0; i < count; i++) {
      const row = i < 3 ? i : i === count - 1 ? 2 ** 24 + 12 : 2 ** 20 + Math.floor(i / 35);
      encoder.add(row, (i % 35) - 15, i % 4, i % 2 ? 1 : 3, i % 3 ? (i * 2654435761) >>> 8 : null);
    }
    const bytes = encoder.finishBytes(header, '{"r":', '}');
    const wire = encoder.finish(header);
    expect(text(bytes)).toBe(`{"r":${JSON.stringify(wire)}}`);
    const decoded = decodeSnapshot((JSON.parse(text(bytes)) as { r: typeof wire }).r);
    expect(decoded.row[count - 1]).toBe(2 ** 24 + 12);
    expect(decoded.row[count - 2]).toBe(2 ** 20 + Math.floor((count - 2) / 35));
    expect(decoded.indexOf.at(2 ** 24 + 12, ((count - 1) % 35) - 15)).toBe(count - 1);
  });

  it('keeps the tokens and thumbnails of a small tree as JSON.stringify writes them', () => {
    const encoder = new SnapshotEncoder(2);
    encoder.add(0, 0, 2, 1, 0xabcdef, 'tok-"é"', '/media/a.webp');
    encoder.add(1, -3, 0, 3, null, 'tok-2');
    const header = { token: 't', version: 1, settings: DEFAULT_TREE_SETTINGS };
    expect(text(encoder.finishBytes(header))).toBe(JSON.stringify(encoder.finish(header)));
  });
});

describe('a history past a million pieces', () => {
  it('writes the same text as encodeHistory, with rows past 2^24 and hours since a start in 2026', () => {
    const count = 5;
    const start = Date.UTC(2026, 0, 1);
    const pieces = {
      count,
      row: Int32Array.from([2 ** 24 + 3, 2 ** 20, 2 ** 24 + 9, 285_735, 0]),
      column: Int32Array.from([-15, 19, 2, 0, -1]),
      at: Float64Array.from([0, 1, 1, 5000, 900_000].map((hours) => start + hours * HISTORY_STEP_MS + 59_000)),
    };
    const header = { token: 'tree-token', version: 2 ** 31 + 5 };
    const bytes = encodeHistoryBytes(header, pieces, '{"r":', '}');
    const wire = encodeHistory(header, pieces);
    expect(text(bytes)).toBe(`{"r":${JSON.stringify(wire)}}`);
    const decoded = decodeHistory(wire);
    expect(Array.from(decoded.row)).toEqual(Array.from(pieces.row));
    expect(decoded.at[4]).toBe(start + 900_000 * HISTORY_STEP_MS);
  });

  it('writes an empty history, and refuses pieces out of publish order', () => {
    const none = { count: 0, row: new Int32Array(0), column: new Int32Array(0), at: new Float64Array(0) };
    expect(text(encodeHistoryBytes({ token: 't', version: 1 }, none))).toBe(
      JSON.stringify(encodeHistory({ token: 't', version: 1 }, none)),
    );
    const backwards = {
      count: 2,
      row: new Int32Array(2),
      column: new Int32Array(2),
      at: Float64Array.from([2e12, 1e12]),
    };
    expect(() => encodeHistoryBytes({ token: 't', version: 1 }, backwards)).toThrow(RangeError);
  });
});

describe('positions of a ten-million-cell tree', () => {
  it('gives every row up to 2^24 a key of its own, past 2^31, and reads it back', () => {
    for (const row of [32_767, 32_768, 285_735, 2 ** 20 + 1, 2 ** 24]) {
      for (const column of [-15, 0, 19]) {
        const key = positionKey(row, column);
        expect(Number.isSafeInteger(key)).toBe(true);
        expect(positionOfKey(key)).toEqual({ row, column });
      }
    }
    expect(positionKey(32_768, 0)).toBeGreaterThan(2 ** 31);
  });

  it('finds cells in a dense index of 285,735 rows', () => {
    const index = PositionIndex.forBounds(10_000_000, 0, 285_734, -15, 19);
    index.set(285_734, 19, 9_999_999);
    index.set(285_735, 0, 10_000_000);
    expect(index.at(285_734, 19)).toBe(9_999_999);
    expect(index.get(positionKey(285_735, 0))).toBe(10_000_000);
    expect(index.at(0, 0)).toBe(-1);
  });
});

describe("the generator's tokens", () => {
  it('sort as the ids they start with, whatever the random rest, and are tokens like any other', () => {
    const random = (seed: number) => Buffer.alloc(16, seed).toString('base64url');
    const ids = [1, 2, 63, 64, 65, 4095, 4096, 262_143, 1_000_000, 9_999_999, 10_000_000, 2 ** 30 - 1];
    const tokens = ids.map((id, i) => orderedToken(id, random(255 - i * 20)));
    expect([...tokens].sort()).toEqual(tokens);
    for (const token of tokens) {
      expect(token).toMatch(TOKEN_PATTERN);
      expect(token).toHaveLength(22);
    }
    expect(orderedToken(7, random(1)).slice(5)).toBe(random(1).slice(5));
  });
});
