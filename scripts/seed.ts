/**
 * `npm run seed`: seeds the demo tree (generated artworks, demo artists, a demo admin) into a new database and
 * prints the admin's credentials once. A database that already has a tree is left alone.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { systemClock } from '#server/clock.ts';
import { ConfigError, loadConfig } from '#server/config.ts';
import { closeDatabase, ensureWritableDir, openDatabase } from '#server/db.ts';
import type { ServiceContext } from '#server/services/context.ts';
import { printSeedSummary, seedDemo } from '#server/seed/demo.ts';
import { getDefaultTree } from '#server/services/tree/index.ts';
import { StartupError } from '#server/startup-error.ts';
import { createMediaStorage } from '#server/storage/index.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const log = {
  info() {},
  debug() {},
  warn: (message: unknown) => console.error(`warning: ${String(message)}`),
  error: (message: unknown) => console.error(`error: ${String(message)}`),
} as unknown as ServiceContext['log'];

try {
  const config = loadConfig(process.env, root);
  ensureWritableDir(config.dataDir, 'data folder');
  if (config.media.kind === 'folder') ensureWritableDir(config.media.dir, 'media folder');
  const db = openDatabase(config.databaseFile);
  try {
    if (await getDefaultTree(db)) {
      console.log(`The database ${config.databaseFile} is already seeded: nothing to do.`);
    } else {
      console.log('Seeding the demo tree (generating artworks, a few seconds)...');
      const started = performance.now();
      const media = createMediaStorage(config.media);
      const result = await seedDemo(
        { db, clock: systemClock, media, config, log },
        { adminEmail: config.adminEmail, adminPassword: config.adminPassword },
      ).finally(() => media.close());
      printSeedSummary(result);
      console.log(`Done in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
    }
  } finally {
    closeDatabase(db);
  }
} catch (error) {
  if (error instanceof StartupError || error instanceof ConfigError) {
    console.error(`Cannot seed: ${error.message}`);
    process.exit(1);
  }
  throw error;
}
