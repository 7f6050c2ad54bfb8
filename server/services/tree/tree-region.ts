/**
 * Region details of a tree (shared/tree/region.ts): tokens, thumbnails, titles and artists of the cells in one
 * bounded rectangle, read through the cells' position index. What a large tree's snapshot leaves out, per region.
 */
import { personName } from '#shared/people.ts';
import { and, asc, between, eq } from 'drizzle-orm';
import { art, cells, pictures, trees, users } from '#drizzle/tables.ts';
import { ArtStatus } from '#shared/domain.ts';
import { ErrorCode } from '#shared/errors.ts';
import { REGION_MAX_SPAN, regionWidth, type RegionBounds, type TreeRegionWire } from '#shared/tree/region.ts';
import { readTransaction, type Db, type Queryable } from '../../db.ts';
import { AppError } from '../../errors.ts';
import type { MediaUrlOf } from '../../storage/index.ts';
import { mediaNameOf } from '../display/index.ts';
import type { TreeRow } from './tree.ts';

const LIMIT = 1_000_000;

/** Reads row0, row1, col0, col1 from a query string: integers, ordered, at most REGION_MAX_SPAN a side. */
export function parseRegionBounds(query: Record<string, unknown>): RegionBounds {
  const read = (name: keyof RegionBounds): number => {
    const raw = query[name];
    const value = typeof raw === 'string' && /^-?\d{1,7}$/.test(raw) ? Number(raw) : NaN;
    if (!Number.isInteger(value) || Math.abs(value) > LIMIT) {
      throw new AppError(ErrorCode.BadRequest, `${name} must be a whole number.`, { [name]: ['Invalid value.'] });
    }
    return value;
  };
  const bounds = { row0: read('row0'), row1: read('row1'), col0: read('col0'), col1: read('col1') };
  const rows = bounds.row1 - bounds.row0 + 1;
  const columns = bounds.col1 - bounds.col0 + 1;
  if (rows < 1 || columns < 1 || rows > REGION_MAX_SPAN || columns > REGION_MAX_SPAN) {
    throw new AppError(ErrorCode.BadRequest, `A region is 1 to ${REGION_MAX_SPAN} rows and columns, first to last.`);
  }
  return bounds;
}

/**
 * The region's cells and the tree's version, read in one transaction: the answer is exactly that version's (another
 * process may commit between two reads), so an address naming the version may be cached for good (decision 033).
 */
export async function readRegion(
  db: Db,
  tree: Pick<TreeRow, 'id'>,
  bounds: RegionBounds,
  urlOf: MediaUrlOf,
): Promise<TreeRegionWire> {
  return readTransaction(db, async (tx) => {
    const [row] = await tx.select({ version: trees.version }).from(trees).where(eq(trees.id, tree.id)).limit(1);
    return regionAt(tx, tree.id, row!.version, bounds, urlOf);
  });
}

/**
 * The cells of a tree within `bounds`, by row then column, each with what is shown of its published piece (none
 * for a piece not published): title, colour, first picture and artist. Read through the cells' position index.
 */
export function cellsWithin(q: Queryable, treeId: number, bounds: RegionBounds) {
  return q
    .select({
      row: cells.row,
      column: cells.column,
      token: cells.token,
      status: cells.status,
      color: art.dominantColor,
      title: art.title,
      firstname: users.firstname,
      lastname: users.lastname,
      mediaKey: pictures.mediaKey,
    })
    .from(cells)
    .leftJoin(art, and(eq(art.id, cells.artId), eq(art.status, ArtStatus.Published)))
    .leftJoin(users, eq(users.id, art.authorId))
    .leftJoin(pictures, and(eq(pictures.artId, art.id), eq(pictures.position, 0)))
    .where(
      and(
        eq(cells.treeId, treeId),
        between(cells.row, bounds.row0, bounds.row1),
        between(cells.column, bounds.col0, bounds.col1),
      ),
    )
    .orderBy(asc(cells.row), asc(cells.column));
}

async function regionAt(
  db: Queryable,
  treeId: number,
  version: number,
  bounds: RegionBounds,
  urlOf: MediaUrlOf,
): Promise<TreeRegionWire> {
  const rows = await cellsWithin(db, treeId, bounds);
  const width = regionWidth(bounds);
  const wire: TreeRegionWire = {
    version,
    ...bounds,
    at: [],
    token: [],
    thumb: [],
    title: [],
    artist: [],
  };
  for (const cell of rows) {
    wire.at.push((cell.row - bounds.row0) * width + (cell.column - bounds.col0));
    wire.token.push(cell.token);
    wire.thumb.push(cell.mediaKey ? urlOf(mediaNameOf(cell.mediaKey, 'thumb')) : '');
    wire.title.push(cell.title ?? '');
    wire.artist.push(cell.firstname ? personName({ firstname: cell.firstname, lastname: cell.lastname! }) : '');
  }
  return wire;
}
