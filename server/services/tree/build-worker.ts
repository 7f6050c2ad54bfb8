/**
 * The build worker thread: builds a tree's snapshot or growth history on its own read-only connection, off the
 * server's event loop, and hands the bytes back without copying. Started and ended by BuildWorker
 * (build-worker-client.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import * as schema from '#drizzle/schema.ts';
import { mediaUrlOf } from '../../storage/index.ts';
import { BUILDS, type BuildReply, type BuildRequest, type BuildWorkerData } from './build-jobs.ts';

const { databaseFile, mediaUrlBase } = workerData as BuildWorkerData;
// The thread has no media storage: it makes picture addresses from the storage's base, the way its urlOf does.
const urlOf = mediaUrlOf(mediaUrlBase);
const client = new Database(databaseFile, {
  readonly: true,
  fileMustExist: true,
});
client.pragma('busy_timeout = 5000');
const db = drizzle(client, { schema });

parentPort!.on('message', (request: BuildRequest) => {
  try {
    const built = BUILDS[request.job](db, request.treeId, urlOf);
    const { identity, br, gzip } = built.body;
    // Large buffers that own their memory are handed over; small ones (Node pools them) are copied.
    const own = [identity, br, gzip].filter(
      (b) => b.byteLength >= 65_536 && b.byteOffset === 0 && b.byteLength === b.buffer.byteLength,
    );
    parentPort!.postMessage(
      { id: request.id, ok: true, built } satisfies BuildReply,
      own.map((b) => b.buffer as ArrayBuffer),
    );
  } catch (error) {
    parentPort!.postMessage({
      id: request.id,
      ok: false,
      message: error instanceof Error ? error.message : String(error),
    } satisfies BuildReply);
  }
});
