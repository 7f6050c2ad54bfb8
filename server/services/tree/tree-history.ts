/**
 * The tree's growth history for the replay (shared/tree/history.ts): every piece now published, with its publish
 * time, in publish order, as precompressed bytes. Built by the build worker (build-jobs.ts) and kept by
 * tree-history-store.ts.
 */
import { ArtStatus } from '#shared/domain.ts';
import { encodeHistoryBytes, type TreeHistoryPieces } from '#shared/tree/history.ts';
import { and, asc, count, eq, gt, isNotNull } from 'drizzle-orm';
import { art, cells } from '#drizzle/tables.ts';
import type { Db } from '../../db.ts';
import { preparedOnce } from '../prepared.ts';
import { compressBuilt } from './snapshot-build.ts';

/** A history's bytes: `{"r": wire}` as identity, brotli and gzip. */
export interface HistoryBytes {
  treeId: number;
  version: number;
  count: number;
  body: { identity: Buffer; br: Buffer; gzip: Buffer };
  builtMs: number;
}

const publishedCount = preparedOnce<[number], { n: number }>(`
  select count(*) as n from cells c join art a on a.id = c.art_id
  where c.tree_id = ? and a.status = ${ArtStatus.Published} and a.published_at is not null
`);
const publishedPieces = preparedOnce<[number], [number, number, number]>(
  `select c.row, c."column", a.published_at from cells c join art a on a.id = c.art_id
   where c.tree_id = ? and a.status = ${ArtStatus.Published} and a.published_at is not null`,
  { raw: true },
);

/**
 * The pieces whose cell's current art is published, ordered by publish time, then row, then column. Read row by row
 * straight into typed arrays: a million-cell tree's 800,000 pieces never exist as rows of objects (decision 026).
 */
export function readHistoryPieces(db: Db, treeId: number): TreeHistoryPieces {
  const read = new PieceColumns(publishedCount(db).get(treeId)!.n);
  // Read in the index's order and sorted here: SQLite's temporary b-tree for the ORDER BY took 3-4 times longer.
  for (const [row, column, publishedAt] of publishedPieces(db).iterate(treeId)) read.add(row, column, publishedAt);
  return read.inPublishOrder();
}

/** Pieces a history reads at a time when read asynchronously. */
const HISTORY_BATCH = 20_000;

/**
 * As readHistoryPieces, in what both engines share (awaited statements, read in batches by cell id): PostgreSQL's
 * builds, inside a read transaction (build-jobs.ts).
 */
export async function readHistoryPiecesAwaited(db: Db, treeId: number): Promise<TreeHistoryPieces> {
  const published = and(eq(cells.treeId, treeId), eq(art.status, ArtStatus.Published), isNotNull(art.publishedAt));
  const [counted] = await db
    .select({ n: count() })
    .from(cells)
    .innerJoin(art, eq(art.id, cells.artId))
    .where(published);
  const read = new PieceColumns(counted!.n);
  let after = 0;
  for (;;) {
    const batch = await db
      .select({ id: cells.id, row: cells.row, column: cells.column, at: art.publishedAt })
      .from(cells)
      .innerJoin(art, eq(art.id, cells.artId))
      .where(and(published, gt(cells.id, after)))
      .orderBy(asc(cells.id))
      .limit(HISTORY_BATCH);
    for (const piece of batch) read.add(piece.row, piece.column, piece.at!);
    if (batch.length < HISTORY_BATCH) break;
    after = batch.at(-1)!.id;
  }
  return read.inPublishOrder();
}

/** Pieces as they are read, into typed arrays sized by the count read first; then put in publish order. */
class PieceColumns {
  private readonly row: Int32Array;
  private readonly column: Int32Array;
  private readonly at: Float64Array;
  private count = 0;

  constructor(private readonly expected: number) {
    this.row = new Int32Array(expected);
    this.column = new Int32Array(expected);
    this.at = new Float64Array(expected);
  }

  add(row: number, column: number, publishedAt: number): void {
    if (this.count === this.expected) throw new Error('The tree gained pieces while its history was read.');
    this.row[this.count] = row;
    this.column[this.count] = column;
    this.at[this.count] = publishedAt;
    this.count++;
  }

  /**
   * By publish time, then row, then column: the columns are put in that order in place, cycle by cycle, rather than
   * copied (a ten-million-cell tree's 8.5 million pieces are 136 MB a copy; decision 045).
   */
  inPublishOrder(): TreeHistoryPieces {
    const { row, column, at, count } = this;
    const order = new Uint32Array(count);
    for (let i = 0; i < count; i++) order[i] = i;
    order.sort((a, b) => at[a]! - at[b]! || row[a]! - row[b]! || column[a]! - column[b]!);
    // Piece j is to be the piece now at order[j]; a position done is marked by order[j] = j.
    for (let i = 0; i < count; i++) {
      if (order[i] === i) continue;
      const firstRow = row[i]!;
      const firstColumn = column[i]!;
      const firstAt = at[i]!;
      for (let j = i; ;) {
        const from = order[j]!;
        order[j] = j;
        if (from === i) {
          row[j] = firstRow;
          column[j] = firstColumn;
          at[j] = firstAt;
          break;
        }
        row[j] = row[from]!;
        column[j] = column[from]!;
        at[j] = at[from]!;
        j = from;
      }
    }
    return { count, row: row.subarray(0, count), column: column.subarray(0, count), at: at.subarray(0, count) };
  }
}

/** The whole history of a tree at the version its row gives, encoded and compressed. */
export function buildHistoryBytes(db: Db, tree: { id: number; token: string; version: number }): HistoryBytes {
  const started = performance.now();
  return historyBytesOf(tree, readHistoryPieces(db, tree.id), started);
}

/** As buildHistoryBytes, the pieces read by readHistoryPiecesAwaited (PostgreSQL's builds). */
export async function buildHistoryBytesAwaited(
  db: Db,
  tree: { id: number; token: string; version: number },
): Promise<HistoryBytes> {
  const started = performance.now();
  return historyBytesOf(tree, await readHistoryPiecesAwaited(db, tree.id), started);
}

/** The history encoded and compressed. */
function historyBytesOf(
  tree: { id: number; token: string; version: number },
  pieces: TreeHistoryPieces,
  started: number,
): HistoryBytes {
  const json = encodeHistoryBytes(tree, pieces, '{"r":', '}');
  const identity = Buffer.from(json.buffer, json.byteOffset, json.byteLength);
  // Rows and columns repeat with the growth pattern far apart in the text: a large window finds those repeats.
  const { br, gzip } = compressBuilt(identity, 24);
  return {
    treeId: tree.id,
    version: tree.version,
    count: pieces.count,
    body: { identity, br, gzip },
    builtMs: performance.now() - started,
  };
}
