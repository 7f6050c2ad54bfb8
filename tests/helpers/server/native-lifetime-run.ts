/**
 * Run in a process of its own by native-lifetime.test.ts: reads a database the way the server does (every Drizzle
 * query prepares a statement that the collector frees later), on the main thread and on the build worker thread,
 * ends the worker, and says "ended". A native module whose objects cannot be freed by the collector at any moment
 * aborts the whole process (SIGABRT), which the test sees as an exit by signal instead of a crashed test runner.
 */
import { eq } from 'drizzle-orm';
import { trees } from '#drizzle/schema.ts';
import { systemClock } from '#server/clock.ts';
import { closeDatabase, openDatabase } from '#server/db.ts';
import { BuildWorker } from '#server/services/tree/build-worker-client.ts';
import { createTree } from '#server/services/tree/tree.ts';

const file = process.argv[2];
if (!file) throw new Error('usage: native-lifetime-run.ts <database file>');
const db = openDatabase(file);
const tree = await createTree(db, systemClock.now(), 'Worker tree');
for (let read = 0; read < 20_000; read++) {
  if (!db.select().from(trees).where(eq(trees.id, tree.id)).get()) throw new Error('tree gone');
}
for (let round = 0; round < 3; round++) {
  const worker = new BuildWorker(db, file);
  for (let build = 0; build < 10; build++) {
    const snapshot = await worker.build('snapshot', tree.id);
    const history = await worker.build('history', tree.id);
    if (snapshot.body.identity.byteLength === 0 || history.body.identity.byteLength === 0) throw new Error('empty');
  }
  await worker.close();
}
closeDatabase(db);
console.log('ended');
