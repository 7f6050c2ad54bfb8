/**
 * The tree's change log (docs/decisions/023-live-tree-change-log.md). Every writer of a cell the snapshot shows calls
 * recordCellChanges inside its transaction: one row per changed cell, and the tree's version becomes the log's last
 * sequence number. Open trees then ask what changed since their version (readChanges) instead of the whole tree.
 */
import { and, count, eq, gt, isNull, lt, lte, sql } from 'drizzle-orm';
import { art, cells, treeChanges, trees } from '#drizzle/tables.ts';
import { ArtStatus } from '#shared/domain.ts';
import { encodeChanges, type TreeChangesAnswer } from '#shared/tree/changes.ts';
import { ErrorCode } from '#shared/errors.ts';
import { readTransaction, write, type Db, type Queryable } from '../../db.ts';
import { AppError } from '../../errors.ts';
import { serverMediaUrlOf, type MediaUrlOf } from '../../storage/index.ts';
import { readSnapshotCells } from './snapshot-build.ts';

/** How long, and how many changes, the log keeps per tree; an open tree further behind fetches the snapshot. */
export const CHANGE_LOG_KEEP_MS = 24 * 60 * 60 * 1000;
export const CHANGE_LOG_KEEP_ROWS = 100_000;

/**
 * More changes than this since a version are not sent cell by cell: the answer is "resync", and the snapshot (built
 * bytes, cheap to send) is fetched instead, so no answer reads thousands of cells on the event loop.
 */
export const CHANGES_MAX = 5_000;

/** Log rows of a tree after `version`, counted up to `limit` + 1 (an indexed range, never the whole log). */
export async function changesAfter(db: Queryable, treeId: number, version: number, limit: number): Promise<number> {
  const recent = db
    .select({ one: sql`1` })
    .from(treeChanges)
    .where(and(eq(treeChanges.treeId, treeId), gt(treeChanges.seq, version)))
    .limit(limit + 1)
    .as('recent');
  const [counted] = await db.select({ n: count() }).from(recent);
  return counted!.n;
}

/** Logs changes to the given cells of a tree (inside the caller's transaction) and moves the tree's version. */
export async function recordCellChanges(
  tx: Queryable,
  treeId: number,
  cellIds: readonly number[],
  now: number,
): Promise<number> {
  if (cellIds.length === 0) throw new Error('recordCellChanges needs at least one cell.');
  let seq = 0;
  for (const cellId of cellIds) {
    seq = (await tx.insert(treeChanges).values({ treeId, cellId, at: now }).returning({ seq: treeChanges.seq }))[0]!
      .seq;
  }
  await tx.update(trees).set({ version: seq }).where(eq(trees.id, treeId));
  return seq;
}

/**
 * A renamed person: the cells of their published pieces change, since a tree's region details name the artist, and an
 * address naming a version is cached for good (decision 033). Nothing is logged for someone with no published piece.
 */
export async function recordArtistRenamed(tx: Queryable, authorId: number, now: number): Promise<void> {
  const shown = await tx
    .select({ cellId: cells.id, treeId: cells.treeId })
    .from(cells)
    .innerJoin(art, eq(art.id, cells.artId))
    .where(and(eq(art.authorId, authorId), eq(art.status, ArtStatus.Published)));
  const byTree = new Map<number, number[]>();
  for (const { cellId, treeId } of shown) byTree.set(treeId, [...(byTree.get(treeId) ?? []), cellId]);
  for (const [treeId, cellIds] of byTree) await recordCellChanges(tx, treeId, cellIds, now);
}

/**
 * A change too large to log cell by cell (seeding, a generated tree, a repair): one row without a cell. Every open
 * tree older than it fetches the snapshot again.
 */
export async function recordBulkChange(tx: Queryable, treeId: number, now: number): Promise<number> {
  const { seq } = (
    await tx.insert(treeChanges).values({ treeId, cellId: null, at: now }).returning({ seq: treeChanges.seq })
  )[0]!;
  await tx.update(trees).set({ version: seq, changesFrom: seq }).where(eq(trees.id, treeId));
  return seq;
}

/** A `since` as the address gives it: a whole number from 0 up, or a 400 that says what is wrong. */
export function parseSince(raw: unknown): number {
  if (typeof raw !== 'string' || !/^\d{1,15}$/.test(raw)) {
    throw new AppError(ErrorCode.BadRequest, 'since must be a tree version: a whole number from 0 up.', {
      since: ['Expected a whole number from 0 up.'],
    });
  }
  return Number(raw);
}

/**
 * The cells of `tree` changed after version `since`, as they are now: 400 for a version the tree has not reached,
 * "resync" for one older than the log reaches (or than a bulk change, or more than CHANGES_MAX changes behind). One
 * read transaction, so the version and the cells agree. Thumbnails are linked by `urlOf`, the media storage's; a
 * caller without it links the server's own /media/ address, which answers on every adapter.
 */
export async function readChanges(
  db: Db,
  treeId: number,
  since: number,
  urlOf: MediaUrlOf = serverMediaUrlOf,
): Promise<TreeChangesAnswer> {
  const answer = await readChangesUpTo(db, treeId, since, CHANGES_MAX, urlOf);
  return 'overLimit' in answer ? { format: 1, resync: true, since, version: answer.version } : answer;
}

/** More changes after `since` than the caller would read: only the version they bring the tree to. */
export interface ChangesOverLimit {
  overLimit: true;
  since: number;
  version: number;
}

/**
 * As readChanges, but reads the cells only when the log holds at most `max` changes after `since`; past that it
 * answers the version alone, decided from an indexed count of at most `max` + 1 log rows, before any cell is read
 * (decision 040). The live stream asks with its inline limit: a larger catch-up is only a `version` event anyway.
 * Log rows are counted, not cells: a cell changed twice counts twice, so the answer errs towards the version alone.
 */
export async function readChangesUpTo(
  db: Db,
  treeId: number,
  since: number,
  max: number,
  urlOf: MediaUrlOf = serverMediaUrlOf,
): Promise<TreeChangesAnswer | ChangesOverLimit> {
  return readTransaction(db, async (tx) => {
    const [tree] = await tx
      .select({ version: trees.version, changesFrom: trees.changesFrom })
      .from(trees)
      .where(eq(trees.id, treeId));
    if (!tree) throw new AppError(ErrorCode.TreeNotFound, 'No tree has this token.');
    if (since > tree.version) {
      throw new AppError(ErrorCode.BadRequest, `since is ahead of the tree, whose version is ${tree.version}.`, {
        since: ['Ahead of the tree.'],
      });
    }
    if (since === tree.version) return encodeChanges(since, tree.version, []);
    const resync = { format: 1, resync: true, since, version: tree.version } as const;
    if (since < tree.changesFrom) return resync;
    if ((await changesAfter(tx, treeId, since, max)) > max) return { overLimit: true, since, version: tree.version };
    const after = and(eq(treeChanges.treeId, treeId), gt(treeChanges.seq, since));
    const [bulk] = await tx
      .select({ seq: treeChanges.seq })
      .from(treeChanges)
      .where(and(after, isNull(treeChanges.cellId)))
      .limit(1);
    if (bulk) return resync;
    const changedIds = tx.selectDistinct({ id: treeChanges.cellId }).from(treeChanges).where(after);
    return encodeChanges(since, tree.version, await readSnapshotCells(tx, treeId, { cellIds: changedIds }, urlOf));
  });
}

/** The newest sequence number in the whole log (0 when empty): what the live feed watches. */
export async function lastChangeSeq(db: Db): Promise<number> {
  return (await db.select({ seq: sql<number>`coalesce(max(${treeChanges.seq}), 0)` }).from(treeChanges))[0]!.seq;
}

/** Trees whose version moved past `seq`, with their versions. */
export async function treesChangedAfter(
  db: Db,
  seq: number,
): Promise<Pick<typeof trees.$inferSelect, 'id' | 'token' | 'version'>[]> {
  return await db
    .select({ id: trees.id, token: trees.token, version: trees.version })
    .from(trees)
    .where(gt(trees.version, seq));
}

/**
 * Drops what the log no longer needs to keep: rows older than CHANGE_LOG_KEEP_MS, and all but the newest
 * CHANGE_LOG_KEEP_ROWS of each tree. A tree's changesFrom moves up to the last dropped row.
 */
export async function pruneChangeLog(
  db: Db,
  now: number,
  keep = { ms: CHANGE_LOG_KEEP_MS, rows: CHANGE_LOG_KEEP_ROWS },
): Promise<number> {
  let dropped = 0;
  for (const tree of await db.select({ id: trees.id }).from(trees)) {
    const inTree = eq(treeChanges.treeId, tree.id);
    const oldByAge = (
      await db
        .select({ seq: sql<number | null>`max(${treeChanges.seq})` })
        .from(treeChanges)
        .where(and(inTree, lte(treeChanges.at, now - keep.ms)))
    )[0]?.seq;
    const oldByCount = (
      await db
        .select({ seq: treeChanges.seq })
        .from(treeChanges)
        .where(inTree)
        .orderBy(sql`${treeChanges.seq} desc`)
        .limit(1)
        .offset(keep.rows)
    )[0]?.seq;
    const cutoff = Math.max(oldByAge ?? 0, oldByCount ?? 0);
    if (cutoff <= 0) continue;
    await write(db, async (tx) => {
      const gone = await tx
        .delete(treeChanges)
        .where(and(inTree, lte(treeChanges.seq, cutoff)))
        .returning({ seq: treeChanges.seq });
      dropped += gone.length;
      // changesFrom as it is now, not as read before the write: it only moves up.
      await tx
        .update(trees)
        .set({ changesFrom: cutoff })
        .where(and(eq(trees.id, tree.id), lt(trees.changesFrom, cutoff)));
    });
  }
  return dropped;
}
