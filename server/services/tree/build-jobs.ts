/**
 * What the build worker can build: a tree's snapshot and its growth history, each read in one read transaction (the
 * version and the rows agree) and returned as precompressed bytes. The same functions run in-process for an
 * in-memory database, which a worker cannot open.
 */
import { eq } from 'drizzle-orm';
import { trees } from '#drizzle/tables.ts';
import type { Db } from '../../db.ts';
import { buildSnapshotBytes, type SnapshotBytes } from './snapshot-build.ts';
import { buildHistoryBytes, type HistoryBytes } from './tree-history.ts';

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

export const BUILDS: { [J in BuildJob]: (db: Db, treeId: number) => BuildResults[J] } = {
  // One read transaction; the snapshot reads through the connection itself, which is inside it.
  snapshot: (db, treeId) => db.transaction(() => buildSnapshotBytes(db, treeRow(db, treeId))),
  history: (db, treeId) => db.transaction(() => buildHistoryBytes(db, treeRow(db, treeId))),
};

function treeRow(db: Pick<Db, 'select'>, treeId: number) {
  const tree = db.select().from(trees).where(eq(trees.id, treeId)).get();
  if (!tree) throw new Error(`No tree ${treeId}.`);
  return tree;
}

export interface BuildRequest {
  id: number;
  job: BuildJob;
  treeId: number;
}

export type BuildReply = { id: number; ok: true; built: BuiltBytes } | { id: number; ok: false; message: string };
