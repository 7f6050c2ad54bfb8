/**
 * `npm start` (server/main.ts: migrations, seeding, the signals and the drained stop) serving a client built
 * somewhere other than dist/client, for browser tests that drive real server processes: they serve the build the
 * browser tests made (E2E_CLIENT_DIR). Usage: node --import tsx tests/helpers/server/client-dir-server.ts <clientDir>,
 * with the environment `npm start` reads.
 */
import path from 'node:path';
import { loadConfig } from '#server/config.ts';
import { runServer } from '#server/main.ts';

const clientDir = process.argv[2];
if (!clientDir) throw new Error('client-dir-server needs the built client folder as its argument');
const root = path.resolve(import.meta.dirname, '../../..');
await runServer({ ...loadConfig(process.env, root), clientDir: path.resolve(clientDir) });
