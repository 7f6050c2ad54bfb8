/**
 * The server under `npm run bench:server`, in its own process (pinned to a core by the benchmark): the real app over a
 * prepared data folder. Usage: node --import tsx tests/bench/server-process.ts <dataDir> [port]; prints {"url": ...}
 * once listening (on a free port unless one is given); stops on SIGTERM.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { buildApp } from '#server/app.ts';
import { loadConfig } from '#server/config.ts';

/** One trivial JSON route that exists only here: the ceiling the other paths are compared with. */
export const CEILING_PATH = '/bench/ping';
/** The live benchmark's look at what following the live trees has cost so far (tests/bench/live.bench.ts). */
const FEED_WORK_PATH = '/bench/feed-work';
/**
 * The audience benchmark's look at the long-polls that reached this process (tests/bench/audience.bench.ts): how many
 * asked /api/tree/{token}/changes?since=V&wait=S, by V, and when the first answer with changes left (ms since the epoch).
 */
const LONG_POLLS_PATH = '/bench/long-polls';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('server-process needs the data folder as its argument');
const config = {
  ...loadConfig({ ...process.env, DATA_DIR: dataDir, PORT: process.argv[3] ?? '0' }),
  runJobs: false,
};
const app = await buildApp(config);
app.server.get(CEILING_PATH, async () => ({ r: { pong: true } }));
// What following the live trees has cost so far (the live benchmark reads it before and after its writes).
app.server.get(FEED_WORK_PATH, async () => ({
  r: { workMs: app.deps.treeEvents?.workMs ?? 0, sent: app.deps.treeEvents?.sent ?? 0 },
}));
// Counted as each request arrives, before any of the app's own handling (a held poll is counted when it comes in).
const bySince: Record<string, number> = {};
const answeredAt: Record<string, number> = {};
app.server.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
  const url = req.url ?? '';
  if (!url.includes('/changes?') || !url.includes('wait=')) return;
  const since = /[?&]since=(\d+)/.exec(url)?.[1] ?? '?';
  bySince[since] = (bySince[since] ?? 0) + 1;
  // The first answer that brought changes ("nothing new" is no-store).
  res.once('finish', () => {
    if (res.statusCode === 200 && res.getHeader('cache-control') !== 'no-store')
      answeredAt[since] ??= performance.timeOrigin + performance.now();
  });
});
app.server.get(LONG_POLLS_PATH, async () => ({ r: { bySince, answeredAt } }));
const url = await app.start();
process.stdout.write(`${JSON.stringify({ url: url.replace('localhost', '127.0.0.1') })}\n`);
process.once('SIGTERM', () => {
  void app.stop().finally(() => process.exit(0));
});
