/**
 * Running the gallery for real: migrate, seed a new database, serve, and shut down gracefully. Used by
 * `npm start`; every problem that stops start-up is told as one line.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { AppConfig } from './config.ts';
import { buildApp, type App } from './app.ts';
import { createTree, getDefaultTree } from './services/tree.ts';
import { seedDemo, printSeedSummary } from './services/seed/demo.ts';
import { claimJob, finishJob, keepRenewing, newOwnerId, renewJob } from './services/leases.ts';

export interface RunOptions {
  /** Work to finish after the database is ready and before the server listens (the client build). */
  beforeListen?: () => Promise<void>;
}

export async function runServer(config: AppConfig, options: RunOptions = {}): Promise<App> {
  const app = await buildApp(config);
  await seedNewDatabase(app, config);
  await options.beforeListen?.();
  warnAboutLocalDefaults(config, app);
  const url = await app.start();
  console.log(`Gallery Tree is running at ${url.replace('127.0.0.1', 'localhost')} (data in ${config.dataDir}).`);

  stopOnSignals(app);
  return app;
}

/**
 * A new database gets its tree: the demo, or an empty tree with SEED=none. When several processes start together
 * on a new data folder, one claims the seeding (server/services/leases.ts) and the others wait for its tree; if
 * the one seeding dies, its claim runs out and another seeds (decision 025).
 */
async function seedNewDatabase(app: App, config: AppConfig): Promise<void> {
  const { db } = app.deps;
  const owner = newOwnerId();
  let told = false;
  while (!getDefaultTree(db)) {
    if (!claimJob(db, SEED_CLAIM, owner, Date.now(), { anyTime: true })) {
      if (!told) console.log('New database: another process is preparing it; waiting...');
      told = true;
      await sleep(250);
      continue;
    }
    const stopRenewing = keepRenewing(() => renewJob(db, SEED_CLAIM, owner, Date.now()));
    try {
      if (getDefaultTree(db)) return;
      if (config.seed === 'demo') {
        console.log('New database: seeding the demo tree (a few seconds)...');
        printSeedSummary(await seedDemo(app.deps, { adminEmail: config.adminEmail, adminPassword: config.adminPassword }));
      } else {
        createTree(db, Date.now(), 'The Gallery Tree');
        console.log('New database: created an empty tree (SEED=none).');
      }
    } finally {
      stopRenewing();
      finishJob(db, SEED_CLAIM, owner, Date.now(), 0);
    }
  }
}

const SEED_CLAIM = 'seed-new-database';

/**
 * After SIGTERM, how long the server keeps listening while it refuses new requests (503, Retry-After), so that a
 * proxy sends them to another process before this one refuses connections (decision 025).
 */
export const SHUTDOWN_DRAIN_MS = 1000;
/** How long in-flight requests may take to finish after SIGTERM before their connections are cut. */
export const SHUTDOWN_GRACE_MS = 10_000;
/** After the grace, how long the jobs and the database get before the process gives up and exits 1. */
const SHUTDOWN_HARD_LIMIT_MS = SHUTDOWN_GRACE_MS + 5_000;

/**
 * SIGTERM or SIGINT: stop accepting connections, let in-flight requests finish (cutting them after the grace),
 * wait for running jobs, checkpoint and close the database, exit 0. A second signal changes nothing; a shutdown
 * that hangs past the hard limit exits 1.
 */
function stopOnSignals(app: App): void {
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    const log = app.server.log;
    log.info({ signal }, 'shutting down: finishing in-flight requests');
    const cut = setTimeout(() => {
      log.warn(`requests still running after ${SHUTDOWN_GRACE_MS / 1000} s: closing their connections`);
      app.server.server.closeAllConnections();
    }, SHUTDOWN_GRACE_MS);
    const giveUp = setTimeout(() => {
      log.error('shutdown did not finish in time: exiting');
      process.exit(1);
    }, SHUTDOWN_HARD_LIMIT_MS);
    cut.unref();
    giveUp.unref();
    try {
      await app.stop({ drainMs: SHUTDOWN_DRAIN_MS });
    } catch (error) {
      log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
    log.info('stopped: database closed');
    process.exit(0);
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => void stop(signal));
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
