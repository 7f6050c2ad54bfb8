/**
 * What the build worker can build: a tree's snapshot and its growth history, each read in one read transaction (the
 * version and the rows agree) and returned as precompressed bytes: BUILDS on the worker's SQLite connection,
 * AWAITED_BUILDS in the server's process for PostgreSQL and an in-memory database, which a worker cannot open.
 */
import { eq } from 'drizzle-orm';
import { trees } from '#drizzle/tables.ts';
import { readTransaction, type Db } from '../../db.ts';
import type { MediaUrlOf } from '../../storage/index.ts';
import { buildSnapshotBytes, buildSnapshotBytesAwaited, type SnapshotBytes } from './snapshot-build.ts';
import { buildHistoryBytes, buildHistoryBytesAwaited, type HistoryBytes } from './tree-history.ts';

export interface BuiltBytes {
  treeId: number;
  version: number;
  /** `{"r": wire}` as bytes: identity, brotli and gzip. */
  body: { identity: Buffer; br: Buffer; gzip: Buffer };
}

export interface BuildResults {
  snapshot: SnapshotBytes;
  history: HistoryBytes;
}

export type BuildJob = keyof BuildResults;

/** A build, given the database and the maker of picture addresses (thumbnails ride in small trees' snapshots). */
type Build<T> = (db: Db, treeId: number, urlOf: MediaUrlOf) => T;

export const BUILDS: { [J in BuildJob]: Build<BuildResults[J]> } = {
  // One read transaction; the snapshot reads through the connection itself, which is inside it.
  snapshot: (db, treeId, urlOf) => db.transaction(() => buildSnapshotBytes(db, treeRow(db, treeId), urlOf)),
  history: (db, treeId) => db.transaction(() => buildHistoryBytes(db, treeRow(db, treeId))),
};

/**
 * The same builds in what both engines share, each in one read transaction (readTransaction): PostgreSQL's, which run
 * in the server's process (there is no file for a worker to open), and those of an in-memory database.
 */
export const AWAITED_BUILDS: { [J in BuildJob]: Build<Promise<BuildResults[J]>> } = {
  snapshot: (db, treeId, urlOf) =>
    readTransaction(db, async (tx) => buildSnapshotBytesAwaited(tx, await treeRowOf(tx, treeId), urlOf)),
  history: (db, treeId) => readTransaction(db, async (tx) => buildHistoryBytesAwaited(tx, await treeRowOf(tx, treeId))),
};

async function treeRowOf(db: Db, treeId: number) {
  const [tree] = await db.select().from(trees).where(eq(trees.id, treeId)).limit(1);
  if (!tree) throw new Error(`No tree ${treeId}.`);
  return tree;
}

function treeRow(db: Pick<Db, 'select'>, treeId: number) {
  const tree = db.select().from(trees).where(eq(trees.id, treeId)).get();
  if (!tree) throw new Error(`No tree ${treeId}.`);
  return tree;
}

/** What the worker thread is started with. */
export interface BuildWorkerData {
  databaseFile: string;
  /** The media storage's urlBase, from which the thread makes thumbnail addresses (storage/port.ts, mediaUrlOf). */
  mediaUrlBase: string;
}

export interface BuildRequest {
  id: number;
  job: BuildJob;
  treeId: number;
}

export type BuildReply = { id: number; ok: true; built: BuiltBytes } | { id: number; ok: false; message: string };
