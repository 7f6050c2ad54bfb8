/**
 * The server under `npm run bench:server`, in its own process (pinned to a core by the benchmark): the real app over a
 * prepared data folder. Usage: node --import tsx tests/bench/server-process.ts <dataDir>; prints {"url": ...} once
 * listening; stops on SIGTERM.
 */
import { buildApp } from '#server/app.ts';
import { loadConfig } from '#server/config.ts';

/** One trivial JSON route that exists only here: the ceiling the other paths are compared with. */
export const CEILING_PATH = '/bench/ping';
/** The live benchmark's look at what following the live trees has cost so far (tests/bench/live.bench.ts). */
const FEED_WORK_PATH = '/bench/feed-work';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('server-process needs the data folder as its argument');
const config = { ...loadConfig({ ...process.env, DATA_DIR: dataDir, PORT: '0' }), runJobs: false };
const app = await buildApp(config);
app.server.get(CEILING_PATH, async () => ({ r: { pong: true } }));
// What following the live trees has cost so far (the live benchmark reads it before and after its writes).
app.server.get(FEED_WORK_PATH, async () => ({
  r: { workMs: app.deps.treeEvents?.workMs ?? 0, sent: app.deps.treeEvents?.sent ?? 0 },
}));
const url = await app.start();
process.stdout.write(`${JSON.stringify({ url: url.replace('localhost', '127.0.0.1') })}\n`);
process.once('SIGTERM', () => {
  void app.stop().finally(() => process.exit(0));
});
