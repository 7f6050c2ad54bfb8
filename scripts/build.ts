/**
 * `npm run build`: builds the client into dist/client beside the builds before it, whose assets stay for pages
 * opened before the upgrade (scripts/client-build.ts, decision 041). `vite build` alone would empty the folder.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildClient } from './client-build.ts';

await buildClient(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'));
