/**
 * Trees and their snapshot (DESIGN.md §4, §6): creating a tree with its trunk, reading one by token, and the
 * compact snapshot built once per change of the tree (its version), kept with its brotli and gzip bytes.
 */
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { and, asc, between, eq, sql } from 'drizzle-orm';
import { art, cells, pictures, trees } from '#drizzle/schema.ts';
import { ArtStatus, CellStatus, CellType } from '#shared/domain.ts';
import { ErrorCode } from '#shared/errors.ts';
import { DEFAULT_TREE_SETTINGS, bandOfRow, totalRows, type TreeSettings } from '#shared/tree/geometry.ts';
import { extentOf, type CellExtent } from '#shared/tree/layout.ts';
import type { RegionBounds } from '#shared/tree/region.ts';
import { encodeSnapshot, type SnapshotCell, type TreeSnapshotWire } from '#shared/tree/snapshot.ts';
import type { Db, Queryable } from '../db.ts';
import { AppError } from '../errors.ts';
import { MEDIA_URL_PREFIX } from '../media-store.ts';
import { newToken, TOKEN_PATTERN } from '../tokens.ts';
import { mediaNameOf } from './images.ts';

export type TreeRow = typeof trees.$inferSelect;

/** Creates a tree and every trunk cell (all rows, trunk columns): seed rows AVAILABLE, the rest PENDING. */
export function createTree(db: Db, now: number, name: string, settings: TreeSettings = DEFAULT_TREE_SETTINGS): TreeRow {
  return db.transaction((tx) => {
    const tree = tx.insert(trees).values({ token: newToken(), name, settings, version: 1, createdAt: now }).returning().get();
    const rows = totalRows(settings);
    const batch: (typeof cells.$inferInsert)[] = [];
    for (let row = 0; row < rows; row++) {
      const status = bandOfRow(settings, row) === 'seed' ? CellStatus.Available : CellStatus.Pending;
      for (let column = 0; column < settings.trunk.columns; column++) {
        batch.push({ token: newToken(), treeId: tree.id, row, column, type: CellType.Trunk, status, createdAt: now, updatedAt: now });
      }
    }
    for (let i = 0; i < batch.length; i += 500) tx.insert(cells).values(batch.slice(i, i + 500)).run();
    return tree;
  });
}

/** Finds a tree by token: 400 for a malformed token, 404 for an unknown one. */
export function getTreeByToken(db: Db, token: string): TreeRow {
  if (!TOKEN_PATTERN.test(token)) throw new AppError(ErrorCode.BadRequest, 'Malformed tree token.');
  const tree = db.select().from(trees).where(eq(trees.token, token)).get();
  if (!tree) throw new AppError(ErrorCode.TreeNotFound, 'No tree has this token.');
  return tree;
}

/** The tree the site shows by default: the oldest one. */
export function getDefaultTree(db: Db): TreeRow | undefined {
  return db.select().from(trees).orderBy(asc(trees.id)).limit(1).get();
}

/** Every change to a tree's cells calls this inside its transaction, so the snapshot cache knows to rebuild. */
export function bumpTreeVersion(db: Queryable, treeId: number): void {
  db.update(trees).set({ version: sql`${trees.version} + 1` }).where(eq(trees.id, treeId)).run();
}

export interface BuiltSnapshot {
  treeId: number;
  version: number;
  etag: string;
  wire: TreeSnapshotWire;
  /** `{"r": wire}` as bytes: identity, brotli and gzip. */
  body: { identity: Buffer; br: Buffer; gzip: Buffer };
  /** The rows and columns the cells reach (the first sketch's world bounds: tree-sketch.ts). */
  extent: CellExtent | null;
}

/**
 * Reads the cells of a tree in snapshot order, or only those of one rectangle: only published art lends its colour
 * and thumbnail.
 */
export function readSnapshotCells(db: Db, treeId: number, region?: RegionBounds): SnapshotCell[] {
  const inTree = eq(cells.treeId, treeId);
  const rows = db
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
    .where(region ? and(inTree, between(cells.row, region.row0, region.row1), between(cells.column, region.col0, region.col1)) : inTree)
    .orderBy(asc(cells.row), asc(cells.column))
    .values();
  const out = new Array<SnapshotCell>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const [row, column, status, type, token, color, mediaKey] = rows[i] as [
      number, number, number, number, string, number | null, string | null,
    ];
    out[i] = {
      row,
      column,
      status,
      type,
      token,
      color: status === CellStatus.Published ? color : null,
      thumb: mediaKey ? MEDIA_URL_PREFIX + mediaNameOf(mediaKey, 'thumb') : null,
    };
  }
  return out;
}

export function buildSnapshot(db: Db, tree: TreeRow): BuiltSnapshot {
  const cellList = readSnapshotCells(db, tree.id);
  const wire = encodeSnapshot({ token: tree.token, version: tree.version, settings: tree.settings as TreeSettings }, cellList);
  const identity = Buffer.from(`{"r":${JSON.stringify(wire)}}`);
  // Brotli's best levels take seconds on the largest trees; level 9 keeps a million cells well under a second.
  const quality = identity.length > 4_000_000 ? 9 : 11;
  const br = brotliCompressSync(identity, {
    params: {
      [zlibConstants.BROTLI_PARAM_QUALITY]: quality,
      [zlibConstants.BROTLI_PARAM_SIZE_HINT]: identity.length,
      [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
    },
  });
  const gzip = gzipSync(identity, { level: 9 });
  return { treeId: tree.id, version: tree.version, etag: `"t${tree.id}v${tree.version}"`, wire, body: { identity, br, gzip }, extent: extentOf(cellList.length, (i) => cellList[i]!.row, (i) => cellList[i]!.column) };
}

/** One built snapshot per tree, rebuilt when the tree's version moves. */
export class SnapshotCache {
  private readonly built = new Map<number, BuiltSnapshot>();

  constructor(private readonly db: Db) {}

  get(tree: TreeRow): BuiltSnapshot {
    const cached = this.built.get(tree.id);
    if (cached && cached.version === tree.version) return cached;
    const fresh = buildSnapshot(this.db, tree);
    this.built.set(tree.id, fresh);
    return fresh;
  }

  /** The snapshot of the tree's current version if it is built already; never builds it. */
  peek(tree: TreeRow): BuiltSnapshot | null {
    const cached = this.built.get(tree.id);
    return cached && cached.version === tree.version ? cached : null;
  }
}
