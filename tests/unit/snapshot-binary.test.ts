import { describe, expect, it, vi } from 'vitest';
import { computeBranchSlots, DEFAULT_TREE_SETTINGS, positionKey } from '#shared/tree/geometry.ts';
import { gridOfTreeCells } from '#shared/tree/layout.ts';
import {
  SNAPSHOT_DETAIL_LIMIT,
  SnapshotEncoder,
  decodeSnapshot,
  encodeSnapshot,
  type SnapshotCell,
} from '#shared/tree/snapshot.ts';
import { decodeBinarySnapshot, encodeBinarySnapshot, SNAPSHOT_BINARY_FORMAT } from '#shared/tree/snapshot-binary.ts';
import { SNAPSHOT_BINARY_TYPE } from '#shared/tree/snapshot-type.ts';
import { requestTreeSnapshot } from '#client/api/tree-snapshot.ts';
import { decodeAnswer, fetchAndDecode, transferablesOf } from '#client/tree/snapshot-decoding.ts';
import { buildChunkIndex, ChunkIndex, chunkKeyOf } from '#client/tree/engine/chunk-index.ts';

const header = { token: 'tree-token-0123456789', version: 12, settings: DEFAULT_TREE_SETTINGS };

function cell(row: number, column: number, status: number, color: number | null, thumb: string | null = null) {
  return { row, column, status, type: column >= 0 && column < 5 ? 1 : 4, color, token: `tok-${row}.${column}`, thumb };
}

function binaryOf(cells: readonly SnapshotCell[]): Uint8Array {
  const encoder = new SnapshotEncoder(cells.length);
  for (const c of cells) encoder.add(c.row, c.column, c.status, c.type, c.color, c.token, c.thumb);
  return encodeBinarySnapshot(header, encoder.cellColumns());
}

describe('binary tree snapshot', () => {
  it('decodes what it encodes, as the JSON form does: negative columns, gaps, colourless cells, the detail', () => {
    const cells = [
      cell(0, -300, 1, null),
      cell(0, -2, 2, 0xff8800, '/media/a-thumb.webp'),
      cell(0, -1, 2, 0x000000),
      cell(0, 4, 3, null),
      cell(5, 0, 0, null),
      cell(200, -40, 2, 0x123456, 'https://cdn.example/é-thumb.webp'),
      cell(200, 70_000, 1, null),
    ];
    const bytes = binaryOf(cells);
    expect(Array.from(bytes.subarray(0, 4))).toEqual([0x47, 0x54, 0x53, SNAPSHOT_BINARY_FORMAT]);
    const decoded = decodeBinarySnapshot(bytes);
    const json = decodeSnapshot(encodeSnapshot(header, cells));
    expect(decoded).toMatchObject({ token: header.token, version: 12, settings: DEFAULT_TREE_SETTINGS });
    const { indexOf, ...columns } = decoded.cells;
    const { indexOf: jsonIndex, ...jsonColumns } = json;
    expect(columns).toEqual(jsonColumns);
    expect(Array.from(columns.col)).toEqual([-300, -2, -1, 4, 0, -40, 70_000]);
    expect(Array.from(columns.color.subarray(1, 4))).toEqual([0xff8800, 0x000011, -1]);
    expect(columns.token).toEqual(cells.map((c) => c.token));
    expect(columns.thumb).toEqual(['', '/media/a-thumb.webp', '', '', '', 'https://cdn.example/é-thumb.webp', '']);
    for (const c of cells)
      expect(indexOf.get(positionKey(c.row, c.column))).toBe(jsonIndex.get(positionKey(c.row, c.column)));
    expect(indexOf.at(200, -40)).toBe(5);
    expect(indexOf.at(1, 0)).toBe(-1);
  });

  it('carries the branch slots the page would work out from the cells', () => {
    const cells = [cell(10, -5, 2, 0x445566), cell(10, -4, 2, null), cell(11, -4, 1, null), cell(20, 10, 2, 0x010203)];
    const { cells: decoded, settings, slots } = decodeBinarySnapshot(binaryOf(cells));
    const expected = computeBranchSlots(settings, gridOfTreeCells(decoded));
    expect(expected.length).toBeGreaterThan(8);
    expect(Array.from(slots)).toEqual(expected.flatMap((slot) => [slot.row, slot.column]));
    expect(decodeBinarySnapshot(binaryOf([cell(10, -5, 3, null)])).slots).toHaveLength(0);
  });

  it('is under two fifths of the JSON form for a large tree (no detail)', () => {
    const cells: SnapshotCell[] = [];
    for (let row = 0; cells.length <= SNAPSHOT_DETAIL_LIMIT; row++)
      for (let column = -100; column < 100; column++)
        cells.push(cell(row, column, 2, (row * 7919 + column) & 0xffffff));
    const json = JSON.stringify(encodeSnapshot(header, cells));
    expect(binaryOf(cells).length).toBeLessThan(json.length * 0.4);
  });

  it('decodes an empty tree', () => {
    const decoded = decodeBinarySnapshot(binaryOf([]));
    expect(decoded.cells.count).toBe(0);
    expect(decoded.cells.row).toHaveLength(0);
    expect(decoded.cells.token).toEqual([]);
    expect(decoded.cells.indexOf.at(0, 0)).toBe(-1);
  });

  it('leaves tokens and thumbnails out of a tree over the detail limit', () => {
    const many: SnapshotCell[] = [];
    for (let i = 0; i <= SNAPSHOT_DETAIL_LIMIT; i++)
      many.push(cell(Math.floor(i / 35), (i % 35) - 15, i % 4, 0xabcdef));
    const { cells } = decodeBinarySnapshot(binaryOf(many));
    expect(cells.count).toBe(SNAPSHOT_DETAIL_LIMIT + 1);
    expect(cells.token).toBeNull();
    expect(cells.thumb).toBeNull();
    expect(cells.row[cells.count - 1]).toBe(Math.floor(SNAPSHOT_DETAIL_LIMIT / 35));
    expect(cells.col[cells.count - 1]).toBe((SNAPSHOT_DETAIL_LIMIT % 35) - 15);
    expect(cells.status[cells.count - 1]).toBe(SNAPSHOT_DETAIL_LIMIT % 4);
    expect(cells.type[0]).toBe(4);
    expect(cells.color[7]).toBe(0xaaccee);
  });

  it('refuses cells out of order, and bytes that are not its form or are cut short', () => {
    expect(() => binaryOf([cell(1, 0, 0, null), cell(0, 0, 0, null)])).toThrow(/out of order/);
    expect(() => binaryOf([cell(0, 3, 0, null), cell(0, 3, 0, null)])).toThrow(/out of order/);
    const bytes = binaryOf([cell(0, 0, 2, 0x808080), cell(0, 1, 2, 0x808080)]);
    expect(() => decodeBinarySnapshot(new TextEncoder().encode('{"r":{}}'))).toThrow(/not a binary tree snapshot/);
    expect(() => decodeBinarySnapshot(Uint8Array.of(0x47, 0x54, 0x53, 1, 0, 0, 0, 0))).toThrow(/format 1/);
    expect(() => decodeBinarySnapshot(bytes.subarray(0, bytes.length - 3))).toThrow();
  });

  it('is the form the page asks for', async () => {
    let accept: string | null = null;
    vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
      accept = new Headers(init.headers).get('accept');
      return new Response(null, { status: 304 });
    });
    try {
      await requestTreeSnapshot('t');
    } finally {
      vi.unstubAllGlobals();
    }
    expect(accept).toBe(`${SNAPSHOT_BINARY_TYPE}, application/json`);
  });

  it('is read by the page, as is the JSON form a process not yet updated may still send', () => {
    const cells = [cell(10, -5, 2, 0x445566), cell(10, -4, 2, null), cell(20, 10, 1, null)];
    const fromBinary = decodeAnswer(binaryOf(cells));
    const fromJson = decodeAnswer(new TextEncoder().encode(JSON.stringify({ r: encodeSnapshot(header, cells) })));
    expect(fromJson.version).toBe(fromBinary.version);
    expect(fromJson.settings).toEqual(fromBinary.settings);
    expect(Array.from(fromJson.slots)).toEqual(Array.from(fromBinary.slots));
    expect(fromBinary.slots.length).toBeGreaterThan(0);
    const { indexOf, ...columns } = fromJson.cells;
    const { indexOf: binaryIndex, ...binaryColumns } = fromBinary.cells;
    expect(columns).toEqual(binaryColumns);
    expect(indexOf.toParts()).toEqual(binaryIndex.toParts());
  });

  it('crosses from the worker with the chunk lists built there, every buffer handed over', async () => {
    const cells = [cell(10, -5, 2, 0x445566), cell(10, -4, 2, null), cell(20, 10, 1, null), cell(40, 3, 2, 0x112233)];
    const page = { status: 200, etag: '"t1v12b"', body: binaryOf(cells).slice().buffer };
    const reply = await fetchAndDecode({ id: 1, token: header.token, etag: null }, undefined, Promise.resolve(page));
    if (!reply.ok || reply.status !== 'fresh') throw new Error('no tree');
    const decoded = decodeAnswer(binaryOf(cells));
    const slots = Array.from({ length: decoded.slots.length / 2 }, (_, i) => ({
      row: decoded.slots[2 * i]!,
      column: decoded.slots[2 * i + 1]!,
    }));
    const onThePage = buildChunkIndex(decoded.cells, slots);
    const fromWorker = new ChunkIndex(reply.chunks, decoded.cells);
    expect(fromWorker.size).toBe(onThePage.size);
    for (const position of [...cells, ...slots]) {
      const key = chunkKeyOf(position.row, position.column);
      expect(fromWorker.get(key)).toEqual(onThePage.get(key));
    }
    const handed = transferablesOf(reply);
    for (const list of Object.values(reply.chunks)) if (list) expect(handed).toContain(list.buffer);
  });
});
