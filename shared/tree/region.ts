/**
 * Details of one rectangle of the tree (GET /api/tree/{treeToken}/region): tokens, thumbnails, titles and artists
 * of the cells in it. A large tree's snapshot carries none of these (snapshot.ts, SNAPSHOT_DETAIL_LIMIT), so the
 * canvas asks for them only near the view, in aligned blocks that cache well. Columns of strings, like the snapshot.
 */

/** The largest side a region request may have, in rows or columns: 64 × 64 positions at most. */
export const REGION_MAX_SPAN = 64;

/** The client asks in aligned blocks of REGION_BLOCK × REGION_BLOCK positions. */
export const REGION_BLOCK = 32;

/** Rows row0..row1 and columns col0..col1, both inclusive. */
export interface RegionBounds {
  row0: number;
  row1: number;
  col0: number;
  col1: number;
}

export interface TreeRegionWire extends RegionBounds {
  /** The tree's version these details belong to. */
  version: number;
  /** Where each cell sits in the region, row-major: (row - row0) × width + (column - col0), ascending. */
  at: number[];
  token: string[];
  /** Thumbnail URL of a published piece's main picture; '' for none. */
  thumb: string[];
  /** A published piece's title; '' for any other cell. */
  title: string[];
  /** A published piece's artist; '' for any other cell. */
  artist: string[];
}

export interface RegionCell {
  row: number;
  column: number;
  token: string;
  thumb: string | null;
  title: string | null;
  artist: string | null;
}

export function regionWidth(bounds: RegionBounds): number {
  return bounds.col1 - bounds.col0 + 1;
}

/** The cells of an answer with their positions. */
export function regionCells(wire: TreeRegionWire): RegionCell[] {
  const width = regionWidth(wire);
  const out = new Array<RegionCell>(wire.at.length);
  for (let i = 0; i < wire.at.length; i++) {
    const at = wire.at[i]!;
    out[i] = {
      row: wire.row0 + Math.floor(at / width),
      column: wire.col0 + (at % width),
      token: wire.token[i]!,
      thumb: wire.thumb[i] || null,
      title: wire.title[i] || null,
      artist: wire.artist[i] || null,
    };
  }
  return out;
}

/** The aligned block holding a position. */
export function blockOf(row: number, column: number): { blockRow: number; blockColumn: number } {
  return { blockRow: Math.floor(row / REGION_BLOCK), blockColumn: Math.floor(column / REGION_BLOCK) };
}

export function blockBounds(blockRow: number, blockColumn: number): RegionBounds {
  const row0 = blockRow * REGION_BLOCK;
  const col0 = blockColumn * REGION_BLOCK;
  return { row0, row1: row0 + REGION_BLOCK - 1, col0, col1: col0 + REGION_BLOCK - 1 };
}

/** The query string of a region request. */
export function regionQuery(bounds: RegionBounds): string {
  return `row0=${bounds.row0}&row1=${bounds.row1}&col0=${bounds.col0}&col1=${bounds.col1}`;
}
