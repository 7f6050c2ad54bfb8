/**
 * `npm start`: build the client if needed, then migrate, seed a new database and serve (server/main.ts).
 * `--no-build` skips the client build (the development server serves the client itself).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from '#server/config.ts';
import { runServer } from '#server/main.ts';
import { StartupError } from '#server/startup-error.ts';
import { ensureClientBuilt } from './client-build.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

try {
  const config = loadConfig(process.env, root);
  const build = !process.argv.includes('--no-build');
  await runServer(config, { beforeListen: build ? () => ensureClientBuilt(root) : undefined });
} catch (error) {
  if (error instanceof StartupError || error instanceof ConfigError) {
    console.error(`Cannot start: ${error.message}`);
    process.exit(1);
  }
  throw error;
}
