/**
 * Running the gallery for real: migrate, seed a new database, serve, and shut down gracefully. Used by
 * `npm start`; every problem that stops start-up is told as one line.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import type { AppConfig } from './config.ts';
import { say, standardOutput } from './log-output.ts';
import { buildApp, type App } from './app.ts';
import { createTree, getDefaultTree } from './services/tree/index.ts';
import { seedDemo, printSeedSummary } from './seed/demo.ts';
import { claimJob, finishJob, keepRenewing, newOwnerId, renewJob } from './services/leases.ts';

export interface RunOptions {
  /** Work to finish after the database is ready and before the server listens (the client build). */
  beforeListen?: () => Promise<void>;
}

export async function runServer(config: AppConfig, options: RunOptions = {}): Promise<App> {
  // Anything still written through Node's own streams (a warning, a stray write) must not end the process when
  // its reader has gone: the loss is told by the log output (server/log-output.ts).
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});
  const app = await buildApp(config);
  await seedNewDatabase(app, config);
  await options.beforeListen?.();
  warnAboutLocalDefaults(config, app);
  const url = await app.start();
  say(`Gallery Tree is running at ${url.replace('127.0.0.1', 'localhost')} (data in ${config.dataDir}).`);

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
  while (!(await getDefaultTree(db))) {
    if (!(await claimJob(db, SEED_CLAIM, owner, Date.now(), { anyTime: true }))) {
      if (!told) say('New database: another process is preparing it; waiting...');
      told = true;
      await sleep(250);
      continue;
    }
    const stopRenewing = keepRenewing(() => renewJob(db, SEED_CLAIM, owner, Date.now()));
    try {
      if (await getDefaultTree(db)) return;
      if (config.seed === 'demo') {
        say('New database: seeding the demo tree (a few seconds)...');
        printSeedSummary(
          await seedDemo(app.deps, { adminEmail: config.adminEmail, adminPassword: config.adminPassword }),
          say,
        );
      } else {
        await createTree(db, Date.now(), 'The Gallery Tree');
        say('New database: created an empty tree (SEED=none).');
      }
    } finally {
      stopRenewing();
      await finishJob(db, SEED_CLAIM, owner, Date.now(), 0);
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
export const SHUTDOWN_HARD_LIMIT_MS = SHUTDOWN_GRACE_MS + 5_000;
/**
 * The last resort, from a thread of its own: if even the hard limit's timer cannot run (the event loop stuck in
 * synchronous work), the process is killed this long after the signal.
 */
const SHUTDOWN_BACKSTOP_MS = SHUTDOWN_HARD_LIMIT_MS + 2_000;
/** How long the last log lines get to be written before the process exits. */
const LOG_FLUSH_MS = 500;

/**
 * SIGTERM or SIGINT: refuse new requests for a moment, stop accepting connections, let in-flight requests finish
 * (cutting them after the grace), stop running jobs, checkpoint and close the database, exit 0. A second signal
 * changes nothing; a shutdown that hangs past the hard limit says which step hangs and exits 1 (decision 026).
 */
function stopOnSignals(app: App): void {
  let stopping = false;
  const exit = (code: number) => void standardOutput.flush(LOG_FLUSH_MS).finally(() => process.exit(code));
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    const log = app.server.log;
    log.info({ signal }, 'shutting down: finishing in-flight requests');
    startBackstop(SHUTDOWN_BACKSTOP_MS);
    let current = 'starting';
    const cut = setTimeout(() => {
      log.warn(`requests still running after ${SHUTDOWN_GRACE_MS / 1000} s: closing their connections`);
      app.server.server.closeAllConnections();
    }, SHUTDOWN_GRACE_MS);
    const giveUp = setTimeout(() => {
      log.error(
        { step: current },
        `shutdown did not finish in ${SHUTDOWN_HARD_LIMIT_MS / 1000} s (still ${current}): exiting`,
      );
      exit(1);
    }, SHUTDOWN_HARD_LIMIT_MS);
    cut.unref();
    giveUp.unref();
    try {
      await app.stop({ drainMs: SHUTDOWN_DRAIN_MS, step: (what) => (current = what) });
    } catch (error) {
      log.error({ err: error }, 'shutdown failed');
      return exit(1);
    }
    log.info('stopped: database closed');
    exit(0);
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => void stop(signal));
}

/** Kills the process after `ms` from a worker thread, which runs even when the main thread is stuck. */
function startBackstop(ms: number): void {
  const source = `
    const { workerData } = require('node:worker_threads');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, workerData.ms);
    process.kill(workerData.pid, 'SIGKILL');
  `;
  new Worker(source, { eval: true, workerData: { ms, pid: process.pid } }).unref();
}

function warnAboutLocalDefaults(config: AppConfig, app: App): void {
  const warn = (message: string) => app.server.log.warn(`LOCAL-ONLY DEFAULT: ${message}`);
  if (!config.smtpUrl) warn(`SMTP_URL is not set: e-mails are written to ${config.outboxDir} instead of being sent.`);
  if (!config.siteUrl.startsWith('https://')) {
    warn(
      `SITE_URL is ${config.siteUrl}: cookies are not marked Secure. Serve the site over HTTPS and set SITE_URL for real use.`,
    );
  }
  if (config.host !== '127.0.0.1' && config.host !== 'localhost' && !config.siteUrl.startsWith('https://')) {
    warn(`HOST is ${config.host}: the gallery is reachable from the network over plain HTTP.`);
  }
}
