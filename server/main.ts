/**
 * Running the gallery for real: migrate, seed a new database, serve, and shut down gracefully. Used by
 * `npm start`; every problem that stops start-up is told as one line.
 */
import type { AppConfig } from './config.ts';
import { buildApp, type App } from './app.ts';
import { createTree, getDefaultTree } from './services/tree.ts';
import { seedDemo, printSeedSummary } from './services/seed/demo.ts';

export interface RunOptions {
  /** Work to finish after the database is ready and before the server listens (the client build). */
  beforeListen?: () => Promise<void>;
}

export async function runServer(config: AppConfig, options: RunOptions = {}): Promise<App> {
  const app = await buildApp(config);
  const { db } = app.deps;

  if (!getDefaultTree(db) && config.seed === 'demo') {
    console.log('New database: seeding the demo tree (a few seconds)...');
    const result = await seedDemo(
      app.deps,
      { adminEmail: config.adminEmail, adminPassword: config.adminPassword },
    );
    printSeedSummary(result);
  } else if (!getDefaultTree(db)) {
    createTree(db, Date.now(), 'The Gallery Tree');
    console.log('New database: created an empty tree (SEED=none).');
  }

  await options.beforeListen?.();
  warnAboutLocalDefaults(config, app);
  const url = await app.start();
  console.log(`Gallery Tree is running at ${url.replace('127.0.0.1', 'localhost')} (data in ${config.dataDir}).`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.server.log.info({ signal }, 'shutting down: finishing in-flight requests');
    await app.stop();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
  return app;
}

function warnAboutLocalDefaults(config: AppConfig, app: App): void {
  const warn = (message: string) => app.server.log.warn(`LOCAL-ONLY DEFAULT: ${message}`);
  if (!config.smtpUrl) warn(`SMTP_URL is not set: e-mails are written to ${config.outboxDir} instead of being sent.`);
  if (!config.siteUrl.startsWith('https://')) {
    warn(`SITE_URL is ${config.siteUrl}: cookies are not marked Secure. Serve the site over HTTPS and set SITE_URL for real use.`);
  }
  if (config.host !== '127.0.0.1' && config.host !== 'localhost' && !config.siteUrl.startsWith('https://')) {
    warn(`HOST is ${config.host}: the gallery is reachable from the network over plain HTTP.`);
  }
}
