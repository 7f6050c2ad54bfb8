/**
 * The tree snapshot's fetch and decode (with its branch slots and the canvas's chunk lists), as both the worker and
 * (without workers) the page run them, and the form the decoded tree takes to cross from the worker: typed arrays
 * handed over, not copied.
 */
import { fetchTreeSnapshot, readTreeSnapshot, SnapshotFetchError } from '#client/api/tree-snapshot.ts';
import { computeBranchSlots, type TreeSettings } from '#shared/tree/geometry.ts';
import { gridOfTreeCells } from '#shared/tree/layout.ts';
import { PositionIndex, type PositionIndexParts } from '#shared/tree/position-index.ts';
import { decodeSnapshot, type TreeCells, type TreeSnapshotWire } from '#shared/tree/snapshot.ts';
import { decodeBinarySnapshot, type BinarySnapshot } from '#shared/tree/snapshot-binary.ts';
import { buildChunkLists, positionsOfPairs, type ChunkLists } from './engine/chunk-index.ts';

export interface SnapshotRequest {
  id: number;
  token: string;
  etag: string | null;
  /** The page asked for the snapshot itself and hands its answer over in a second message (PageResponse). */
  answerFromPage?: boolean;
}

/**
 * The page's own answer to a request marked answerFromPage: the response's status, ETag and body (a stream handed
 * over, or the bytes where streams cannot be); null when the page could not reach the server, and the worker asks.
 */
export interface PageResponse {
  id: number;
  response: { status: number; etag: string | null; body: ReadableStream<Uint8Array> | ArrayBuffer | null } | null;
}

function responseOf(answer: NonNullable<PageResponse['response']>): Response {
  return new Response(answer.body, { status: answer.status, headers: answer.etag ? { etag: answer.etag } : {} });
}

export interface PortableCells extends Omit<TreeCells, 'indexOf'> {
  index: PositionIndexParts;
}

export type SnapshotReply =
  | { id: number; ok: true; status: 'not-modified' }
  | {
      id: number;
      ok: true;
      status: 'fresh';
      etag: string | null;
      version: number;
      settings: TreeSettings;
      cells: PortableCells;
      /** The branch slots (shared/tree/geometry.ts) as row, column pairs: the snapshot carries them, worked out once. */
      slots: Int32Array;
      /** The cells and slots grouped by the canvas's chunks, so the page never walks the tree for them. */
      chunks: ChunkLists;
    }
  | { id: number; ok: false; message: string; httpStatus: number | null };

/**
 * Fetches and decodes one snapshot; never throws (a failure is a reply). `fromPage` is the page's own answer, for a
 * request marked answerFromPage.
 */
export async function fetchAndDecode(
  request: SnapshotRequest,
  signal?: AbortSignal,
  fromPage?: Promise<PageResponse['response']>,
): Promise<SnapshotReply> {
  const { id } = request;
  try {
    const pageAnswer = fromPage ? await fromPage : null;
    const answer = pageAnswer
      ? await readTreeSnapshot(responseOf(pageAnswer), request.etag)
      : await fetchTreeSnapshot(request.token, request.etag, signal);
    if (answer.status === 'not-modified') return { id, ok: true, status: 'not-modified' };
    const { cells, version, settings, slots } = decodeAnswer(answer.bytes);
    const { indexOf, ...columns } = cells;
    return {
      id,
      ok: true,
      status: 'fresh',
      etag: answer.etag,
      version,
      settings,
      cells: { ...columns, index: indexOf.toParts() },
      slots,
      chunks: buildChunkLists(cells, positionsOfPairs(slots)),
    };
  } catch (error) {
    return {
      id,
      ok: false,
      message: error instanceof Error ? error.message : 'The tree could not be loaded.',
      httpStatus: error instanceof SnapshotFetchError ? error.httpStatus : null,
    };
  }
}

const OPEN_BRACE = 0x7b;

/**
 * The snapshot from its bytes: the binary form, or the JSON form that a process not yet updated, or a cache keeping
 * its answer, may still send for a moment during a rolling restart (its slots are then worked out here).
 */
export function decodeAnswer(bytes: Uint8Array): BinarySnapshot {
  if (bytes[0] !== OPEN_BRACE) return decodeBinarySnapshot(bytes);
  const wire = (JSON.parse(new TextDecoder().decode(bytes)) as { r: TreeSnapshotWire }).r;
  const cells = decodeSnapshot(wire);
  const slotList = computeBranchSlots(wire.settings, gridOfTreeCells(cells));
  const slots = new Int32Array(slotList.length * 2);
  slotList.forEach((slot, i) => {
    slots[2 * i] = slot.row;
    slots[2 * i + 1] = slot.column;
  });
  return { token: wire.token, version: wire.version, settings: wire.settings, cells, slots };
}

/** The buffers a reply can hand over without copying. */
export function transferablesOf(reply: SnapshotReply): Transferable[] {
  if (!reply.ok || reply.status !== 'fresh') return [];
  const { cells, chunks } = reply;
  const buffers = [
    cells.row,
    cells.col,
    cells.status,
    cells.type,
    cells.color,
    cells.index.dense,
    cells.index.byRow?.rowStart ?? null,
    cells.index.byRow?.columns ?? null,
    reply.slots,
    chunks.keys,
    chunks.cellsFrom,
    chunks.cellsTo,
    chunks.cellOrder,
    chunks.slotStart,
    chunks.slots,
  ].filter((a) => a !== null);
  return buffers.map((array) => array.buffer as ArrayBuffer);
}

export function cellsFromPortable(cells: PortableCells): TreeCells {
  const { index, ...columns } = cells;
  return { ...columns, indexOf: new PositionIndex(index) };
}

export function slotsFromPairs(pairs: Int32Array): { row: number; column: number }[] {
  const slots = new Array<{ row: number; column: number }>(pairs.length / 2);
  for (let i = 0; i < slots.length; i++) slots[i] = { row: pairs[2 * i]!, column: pairs[2 * i + 1]! };
  return slots;
}
