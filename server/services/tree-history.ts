/**
 * The tree's growth history for the replay (shared/tree/history.ts): every piece now published, with its publish
 * time, in publish order, as precompressed bytes. Built by the build worker (build-jobs.ts) and kept by
 * tree-history-store.ts.
 */
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { and, eq, isNotNull } from 'drizzle-orm';
import { art, cells } from '#drizzle/schema.ts';
import { ArtStatus } from '#shared/domain.ts';
import { encodeHistory, type TreeHistoryPieces } from '#shared/tree/history.ts';
import type { Queryable } from '../db.ts';

/** A history's bytes: `{"r": wire}` as identity, brotli and gzip. */
export interface HistoryBytes {
  treeId: number;
  version: number;
  count: number;
  body: { identity: Buffer; br: Buffer; gzip: Buffer };
  builtMs: number;
}

/** The pieces whose cell's current art is published, ordered by publish time, then row, then column. */
export function readHistoryPieces(db: Queryable, treeId: number): TreeHistoryPieces {
  // Read in the index's order and sorted here: SQLite's temporary b-tree for the ORDER BY took 3-4 times longer.
  const rows = db
    .select({ row: cells.row, column: cells.column, at: art.publishedAt })
    .from(cells)
    .innerJoin(art, eq(art.id, cells.artId))
    .where(and(eq(cells.treeId, treeId), eq(art.status, ArtStatus.Published), isNotNull(art.publishedAt)))
    .values() as [number, number, number][];
  const count = rows.length;
  const row = new Int32Array(count);
  const column = new Int32Array(count);
  const at = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const piece = rows[i]!;
    row[i] = piece[0];
    column[i] = piece[1];
    at[i] = piece[2];
  }
  const order = new Uint32Array(count);
  for (let i = 0; i < count; i++) order[i] = i;
  order.sort((a, b) => at[a]! - at[b]! || row[a]! - row[b]! || column[a]! - column[b]!);
  const pieces: TreeHistoryPieces = { count, row: new Int32Array(count), column: new Int32Array(count), at: new Float64Array(count) };
  for (let i = 0; i < count; i++) {
    const from = order[i]!;
    pieces.row[i] = row[from]!;
    pieces.column[i] = column[from]!;
    pieces.at[i] = at[from]!;
  }
  return pieces;
}

/** The whole history of a tree at the version its row gives, encoded and compressed. */
export function buildHistoryBytes(db: Queryable, tree: { id: number; token: string; version: number }): HistoryBytes {
  const started = performance.now();
  const pieces = readHistoryPieces(db, tree.id);
  const identity = Buffer.from(`{"r":${JSON.stringify(encodeHistory(tree, pieces))}}`);
  // Rows and columns repeat with the growth pattern far apart in the text: a large window finds those repeats.
  const br = brotliCompressSync(identity, {
    params: {
      [zlibConstants.BROTLI_PARAM_QUALITY]: identity.length > 4_000_000 ? 9 : 11,
      [zlibConstants.BROTLI_PARAM_LGWIN]: 24,
      [zlibConstants.BROTLI_PARAM_SIZE_HINT]: identity.length,
      [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
    },
  });
  const gzip = gzipSync(identity, { level: 9 });
  return { treeId: tree.id, version: tree.version, count: pieces.count, body: { identity, br, gzip }, builtMs: performance.now() - started };
}
