/**
 * A gallery server in its own process over an existing data folder, for the reservation race test: two of these
 * share one database file through two separate better-sqlite3 connections, as two processes of a deployment would.
 * Its pictures go where the environment says (MEDIA_STORAGE and the S3_ variables), the data folder's media folder
 * unless told. Usage: node --import tsx tests/helpers/server/race-server.ts <dataDir>. Prints {"url": ...} once
 * listening, then its errors' log lines (a race test shows them beside an answer it did not expect); stops on SIGTERM.
 */
import { buildApp } from '#server/app.ts';
import { loadConfig, testConfig } from '#server/config.ts';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('race-server needs the data folder as its argument');
const { media } = loadConfig({ ...process.env, DATA_DIR: dataDir });
const app = await buildApp(testConfig(dataDir, { port: 0, host: '127.0.0.1', media, logLevel: 'error' }));
const url = await app.start();
process.stdout.write(`${JSON.stringify({ url })}\n`);
process.once('SIGTERM', () => {
  void app.stop().finally(() => process.exit(0));
});
