/**
 * Reading a tree's cells in snapshot order and turning them into the snapshot's bytes. Kept apart from the rest of
 * the tree service so the build worker (build-worker.ts) loads only what building needs.
 */
import { setImmediate } from 'node:timers/promises';
import { threadId } from 'node:worker_threads';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants as zlibConstants, gzip, gzipSync } from 'node:zlib';
import { and, asc, between, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { art, cells, pictures } from '#drizzle/tables.ts';
import { ArtStatus, CellStatus } from '#shared/domain.ts';
import type { TreeSettings } from '#shared/tree/geometry.ts';
import type { CellExtent } from '#shared/tree/layout.ts';
import type { RegionBounds } from '#shared/tree/region.ts';
import { SnapshotEncoder, type SnapshotCell } from '#shared/tree/snapshot.ts';
import { decodeBinarySnapshot, encodeBinarySnapshot } from '#shared/tree/snapshot-binary.ts';
import type { Db, Queryable } from '../../db.ts';
import { serverMediaUrlOf, type MediaUrlOf } from '../../storage/index.ts';
import { mediaNameOf } from '../display/index.ts';
import { preparedOnce } from '../prepared.ts';

/** A snapshot's bytes and what the server keeps beside them; built here or by the worker. */
export interface SnapshotBytes {
  treeId: number;
  version: number;
  /** The binary form (shared/tree/snapshot-binary.ts) as bytes: identity, brotli and gzip. */
  body: { identity: Buffer; br: Buffer; gzip: Buffer };
  /** The rows and columns the cells reach (the first sketch's world bounds: tree-sketch.ts). */
  extent: CellExtent | null;
  count: number;
  builtMs: number;
  /** The thread that built it (0: the server's own event loop). */
  thread: number;
}

/** Which cells to read: one rectangle, or the cells whose ids a subquery gives (the change log's). */
export interface CellFilter {
  region?: RegionBounds;
  cellIds?: SQL | ReturnType<Queryable['select']> | { getSQL: () => SQL };
}

/**
 * Reads the cells of a tree in snapshot order (or those a filter picks): only published art lends its colour and
 * thumbnail, whose address the media storage makes (`urlOf`; without it, the server's own /media/ address, which
 * answers on every adapter).
 */
export async function readSnapshotCells(
  db: Queryable,
  treeId: number,
  filter: CellFilter = {},
  urlOf: MediaUrlOf = serverMediaUrlOf,
): Promise<SnapshotCell[]> {
  const { query, sortHere } = snapshotCellsQuery(db, treeId, filter);
  const rows = sortHere ? (await query).sort(byPosition) : await query.orderBy(asc(cells.row), asc(cells.column));
  return rows.map((row) => snapshotCellOf(row, urlOf));
}

/** As readSnapshotCells, synchronously on SQLite: the build worker's snapshot of a tree within the detail limit. */
function readSnapshotCellsNow(db: Db, treeId: number, urlOf: MediaUrlOf): SnapshotCell[] {
  return snapshotCellsQuery(db, treeId, {})
    .query.orderBy(asc(cells.row), asc(cells.column))
    .all()
    .map((row) => snapshotCellOf(row, urlOf));
}

function snapshotCellsQuery(db: Queryable, treeId: number, { region, cellIds }: CellFilter) {
  // The cells a subquery names are found by id alone: with the tree's condition beside it, SQLite would walk the
  // tree's position index instead (a million rows), and a few cells sort faster here than through that index.
  const where: SQL[] = cellIds ? [inArray(cells.id as SQLiteColumn, cellIds as SQL)] : [eq(cells.treeId, treeId)];
  if (region) where.push(between(cells.row, region.row0, region.row1), between(cells.column, region.col0, region.col1));
  const query = db
    .select({
      row: cells.row,
      column: cells.column,
      status: cells.status,
      type: cells.type,
      token: cells.token,
      color: art.dominantColor,
      mediaKey: pictures.mediaKey,
    })
    .from(cells)
    .leftJoin(art, and(eq(art.id, cells.artId), eq(art.status, ArtStatus.Published)))
    .leftJoin(pictures, and(eq(pictures.artId, art.id), eq(pictures.position, 0)))
    .where(and(...where));
  return { query, sortHere: cellIds !== undefined };
}

interface SnapshotCellRow {
  row: number;
  column: number;
  status: number;
  type: number;
  token: string;
  color: number | null;
  mediaKey: string | null;
}

function snapshotCellOf(
  { row, column, status, type, token, color, mediaKey }: SnapshotCellRow,
  urlOf: MediaUrlOf,
): SnapshotCell {
  return {
    row,
    column,
    status,
    type,
    token,
    color: status === CellStatus.Published ? color : null,
    thumb: mediaKey ? urlOf(mediaNameOf(mediaKey, 'thumb')) : null,
  };
}

function byPosition(a: { row: number; column: number }, b: { row: number; column: number }): number {
  return a.row - b.row || a.column - b.column;
}

/**
 * The whole snapshot of a tree at the version its row gives, encoded and compressed. A tree past the detail limit
 * (whose snapshot carries no tokens or thumbnails) is read row by row straight into the encoder, so a million cells
 * never exist as a million objects at once (decision 026); a smaller one goes through the cell list.
 */
export function buildSnapshotBytes(
  db: Db,
  tree: { id: number; token: string; version: number; settings: unknown },
  urlOf: MediaUrlOf,
): SnapshotBytes {
  const started = performance.now();
  const encoder = new SnapshotEncoder(countCells(db).get(tree.id)!.n);
  if (encoder.carriesDetail) {
    for (const cell of readSnapshotCellsNow(db, tree.id, urlOf))
      encoder.add(cell.row, cell.column, cell.status, cell.type, cell.color, cell.token, cell.thumb);
  } else {
    for (const [row, column, status, type, color] of largeSnapshotRows(db).iterate(tree.id))
      encoder.add(row, column, status, type, color);
  }
  return snapshotBytesOf(tree, encoder, started);
}

/** Rows a large snapshot reads at a time when read asynchronously. */
const SNAPSHOT_BATCH = 20_000;

/**
 * As buildSnapshotBytes, in what both engines share (awaited statements, the large tree read in batches by position):
 * PostgreSQL's builds, which run in the server's process inside a read transaction (build-jobs.ts). SQLite's builds
 * stream through a prepared statement on the build worker instead, which is faster there.
 */
export async function buildSnapshotBytesAwaited(
  db: Db,
  tree: { id: number; token: string; version: number; settings: unknown },
  urlOf: MediaUrlOf,
): Promise<SnapshotBytes> {
  const started = performance.now();
  const [counted] = await db.select({ n: count() }).from(cells).where(eq(cells.treeId, tree.id));
  const encoder = new SnapshotEncoder(counted!.n);
  if (encoder.carriesDetail) {
    for (const cell of await readSnapshotCells(db, tree.id, {}, urlOf))
      encoder.add(cell.row, cell.column, cell.status, cell.type, cell.color, cell.token, cell.thumb);
    return snapshotBytesOf(tree, encoder, started);
  }
  let after: { row: number; column: number } | null = null;
  for (;;) {
    const batch = await db
      .select({
        row: cells.row,
        column: cells.column,
        status: cells.status,
        type: cells.type,
        color: art.dominantColor,
      })
      .from(cells)
      .leftJoin(art, and(eq(art.id, cells.artId), eq(art.status, ArtStatus.Published)))
      .where(
        and(
          eq(cells.treeId, tree.id),
          after ? sql`(${cells.row}, ${cells.column}) > (${after.row}, ${after.column})` : undefined,
        ),
      )
      .orderBy(asc(cells.row), asc(cells.column))
      .limit(SNAPSHOT_BATCH);
    for (const cell of batch)
      encoder.add(
        cell.row,
        cell.column,
        cell.status,
        cell.type,
        cell.status === CellStatus.Published ? cell.color : null,
      );
    if (batch.length < SNAPSHOT_BATCH) break;
    after = batch.at(-1)!;
  }
  return snapshotBytesOf(tree, encoder, started);
}

/** The encoded snapshot in its binary form (decision 050), compressed, with what the server keeps beside it. */
function snapshotBytesOf(
  tree: { id: number; token: string; version: number; settings: unknown },
  encoder: SnapshotEncoder,
  started: number,
): SnapshotBytes {
  const header = { token: tree.token, version: tree.version, settings: tree.settings as TreeSettings };
  const binary = encodeBinarySnapshot(header, encoder.cellColumns());
  const extent = encoder.extent();
  const identity = Buffer.from(binary.buffer, binary.byteOffset, binary.byteLength);
  const { br, gzip } = compressBuilt(identity, SNAPSHOT_WINDOW, 'binary');
  return {
    treeId: tree.id,
    version: tree.version,
    body: { identity, br, gzip },
    extent,
    count: encoder.count,
    builtMs: performance.now() - started,
    thread: threadId,
  };
}

/** Cells the JSON form is written for between two looks at the event loop: about 25 ms of it. */
const JSON_SLICE = 250_000;

/**
 * The JSON form of a binary snapshot, `{"r": wire}` as bytes, written at once: the form snapshotJsonAway writes in
 * slices (which the store uses) must equal it byte for byte.
 */
export function snapshotJsonOf(binary: Uint8Array): Buffer {
  const slices = jsonSlices(binary);
  for (;;) {
    const next = slices.next();
    if (next.done) return next.value;
  }
}

/**
 * The JSON form for the API's readers and tRPC's tree.get, made from the kept bytes when first asked (the page never
 * asks for it), letting other requests in between slices of JSON_SLICE cells: at ten million cells the form takes
 * about a second to write, which would otherwise hold up every request meanwhile.
 */
export async function snapshotJsonAway(binary: Uint8Array): Promise<Buffer> {
  const slices = jsonSlices(binary);
  for (;;) {
    const next = slices.next();
    if (next.done) return next.value;
    await setImmediate();
  }
}

function* jsonSlices(binary: Uint8Array): Generator<void, Buffer> {
  const { cells, token, version, settings } = decodeBinarySnapshot(binary);
  yield;
  const encoder = new SnapshotEncoder(cells.count);
  for (let i = 0; i < cells.count; i++) {
    if (i > 0 && i % JSON_SLICE === 0) yield;
    const color = cells.color[i]!;
    encoder.add(
      cells.row[i]!,
      cells.col[i]!,
      cells.status[i]!,
      cells.type[i]!,
      color < 0 ? null : color,
      cells.token?.[i],
      cells.thumb?.[i] || null,
    );
  }
  const json = encoder.finishBytes({ token, version, settings }, '{"r":', '}');
  return Buffer.from(json.buffer, json.byteOffset, json.byteLength);
}

const brotliCompressAway = promisify(brotliCompress);
const gzipAway = promisify(gzip);

/** Brotli's default window (4 MB) for the snapshot, whose repeats are near each other. */
export const SNAPSHOT_WINDOW = 22;
/** Past this many bytes (trees of several million cells), lighter compression: the best levels took 40 s at 10M. */
const LARGE_BODY = 32 * 2 ** 20;

/**
 * A built answer (snapshot or history) as brotli and gzip. Brotli's best levels take seconds on the largest trees:
 * level 9 keeps a million cells well under a second; past LARGE_BODY, brotli 7 with a 16 MB window and gzip 6 (a
 * ten-million-cell snapshot: 8 s and 3 s instead of 16 s and 24 s, for 4 % and 2 % more bytes; decision 045).
 */
export function compressBuilt(
  identity: Buffer,
  window: number,
  content: 'text' | 'binary' = 'text',
): { br: Buffer; gzip: Buffer } {
  const { brotli, gzip } = compressionOf(identity, window, content);
  return { br: brotliCompressSync(identity, brotli), gzip: gzipSync(identity, gzip) };
}

/** As compressBuilt, on libuv's threads: for the JSON snapshot, made on the event loop when first asked. */
export async function compressBuiltAway(identity: Buffer, window: number): Promise<{ br: Buffer; gzip: Buffer }> {
  const { brotli, gzip } = compressionOf(identity, window, 'text');
  const [br, gz] = await Promise.all([brotliCompressAway(identity, brotli), gzipAway(identity, gzip)]);
  return { br, gzip: gz };
}

function compressionOf(identity: Buffer, window: number, content: 'text' | 'binary') {
  const large = identity.length > LARGE_BODY;
  const brotli = {
    params: {
      [zlibConstants.BROTLI_PARAM_QUALITY]: large ? 7 : identity.length > 4_000_000 ? 9 : 11,
      [zlibConstants.BROTLI_PARAM_LGWIN]: large ? Math.max(window, 24) : window,
      [zlibConstants.BROTLI_PARAM_SIZE_HINT]: identity.length,
      [zlibConstants.BROTLI_PARAM_MODE]:
        content === 'text' ? zlibConstants.BROTLI_MODE_TEXT : zlibConstants.BROTLI_MODE_GENERIC,
    },
  };
  return { brotli, gzip: { level: large ? 6 : 9 } };
}

const countCells = preparedOnce<[number], { n: number }>('select count(*) as n from cells where tree_id = ?');
/** What a large snapshot needs of each cell, in snapshot order: row, column, status, type, published colour. */
const largeSnapshotRows = preparedOnce<[number], [number, number, number, number, number | null]>(
  `select c.row, c."column", c.status, c.type, case when c.status = ${CellStatus.Published} then a.dominant_color end
   from cells c left join art a on a.id = c.art_id and a.status = ${ArtStatus.Published}
   where c.tree_id = ? order by c.row, c."column"`,
  { raw: true },
);
