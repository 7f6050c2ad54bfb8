/**
 * The snapshot worker: builds a tree's whole snapshot on its own read-only connection, off the server's event loop,
 * and hands the bytes back without copying (snapshot-store.ts starts it and keeps it for the next build).
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { eq } from 'drizzle-orm';
import * as schema from '#drizzle/schema.ts';
import { buildSnapshotBytes } from './snapshot-build.ts';

export interface BuildRequest {
  id: number;
  treeId: number;
}

export type BuildReply = { id: number; ok: true; built: import('./snapshot-build.ts').SnapshotBytes } | { id: number; ok: false; message: string };

const client = new Database((workerData as { databaseFile: string }).databaseFile, { readonly: true, fileMustExist: true });
client.pragma('busy_timeout = 5000');
const db = drizzle(client, { schema });

parentPort!.on('message', (request: BuildRequest) => {
  let reply: BuildReply;
  try {
    // One read transaction: the tree's version and its cells agree.
    const built = db.transaction((tx) => {
      const tree = tx.select().from(schema.trees).where(eq(schema.trees.id, request.treeId)).get();
      if (!tree) throw new Error(`No tree ${request.treeId}.`);
      return buildSnapshotBytes(tx, tree);
    });
    reply = { id: request.id, ok: true, built };
    const { identity, br, gzip } = built.body;
    // Large buffers that own their memory are handed over; small ones (Node pools them) are copied.
    const own = [identity, br, gzip].filter((b) => b.byteLength >= 65_536 && b.byteOffset === 0 && b.byteLength === b.buffer.byteLength);
    parentPort!.postMessage(reply, own.map((b) => b.buffer as ArrayBuffer));
  } catch (error) {
    reply = { id: request.id, ok: false, message: error instanceof Error ? error.message : String(error) };
    parentPort!.postMessage(reply);
  }
});
