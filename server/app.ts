/**
 * buildApp(config): the one HTTP server (docs/architecture.md, Layers). tRPC at /trpc, the REST adapter at /api, media
 * at /media (or at the store's public address), the built client with its initial parameters everywhere else; CSRF,
 * sessions, security headers and request logging around all of it. Tests call it with a temporary data folder and
 * `inject` or `listen` on port 0.
 */
import { randomUUID } from 'node:crypto';
import type { Server as HttpServer } from 'node:http';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import { systemClock, type Clock } from './clock.ts';
import type { AppConfig } from './config.ts';
import { ensureWritableDir, type Db } from './db.ts';
import { closeAppDatabase, isPostgres, openAppDatabase } from './open-database.ts';
import { standardOutput } from './log-output.ts';
import { AppError } from './errors.ts';
import type { RefusalHoldOptions } from './http/refusal-hold.ts';
import { useClientBuildHeader } from './http/client-build.ts';
import { registerHealth } from './http/health.ts';
import { useSecurityHeaders } from './http/security-headers.ts';
import { clientErrorAnswer } from './http/client-errors.ts';
import { continueOnlyPastTheChecks } from './http/expect-continue.ts';
import { contextOf } from './http/request-context.ts';
import { registerTrpcRoutes } from './http/trpc-routes.ts';
import { registerPages } from './http/pages.ts';
import { useRequestGuards, type StopState } from './http/request-guards.ts';
import { fastifyTrustProxy, serverTimeouts, useBodyDeadline, warnOfUntrustedProxy } from './http/behind-a-proxy.ts';
import { TreeEventFeed } from './http/tree-events.ts';
import { StartupError } from './startup-error.ts';
import { createMediaStorage, type MediaStorage, type MediaStorageProblem } from './storage/index.ts';
import { frameworkErrors, useRestEnvelope } from './rest/adapter.ts';
import { registerRestRoutes } from './rest/routes.ts';
import { appRouter } from './root.ts';
import { BuildWorker, SnapshotStore, TreeHistoryStore, pruneChangeLog } from './services/tree/index.ts';
import { startJobs, type JobRunner } from './services/jobs.ts';
import { newOwnerId } from './services/leases.ts';
import { closeMailTransports, deliverOutbox } from './services/mail/index.ts';
import { flushRateLimits, pruneRateLimits } from './services/rate-limit.ts';
import { buildQueuedPyramids, PYRAMID_JOB_EVERY_MS, sweepOrphanMedia } from './services/media/index.ts';
import { RESERVATION_JOBS } from './services/reservations/index.ts';
import type { AppDeps } from './trpc.ts';

export interface BuildOptions {
  clock?: Clock;
  /** An already open database (tests share one); otherwise the config's file is opened and migrated. */
  db?: Db;
  /** Where log lines go (standard output unless given). */
  logOutput?: { write: (line: string) => unknown };
  /** How refusals of an address past its limit are held (tests shorten the wait). */
  refusalHold?: RefusalHoldOptions;
  /** Where pictures are kept; otherwise the storage the config names (a test may hand in its own). */
  media?: MediaStorage;
}

export interface App {
  server: FastifyInstance;
  deps: AppDeps;
  /** The job runner, when config.runJobs is on. */
  jobs: JobRunner | null;
  /** Listens on config.host:config.port (port 0 picks a free one) and returns the base URL. */
  start: () => Promise<string>;
  /**
   * Stops: refuses new requests (503, Retry-After) while those running finish, and closes everything. `drainMs`
   * keeps listening (and refusing) that long first, so that a proxy in front learns to send elsewhere before
   * connections are refused outright (npm start's SIGTERM uses it).
   */
  stop: (options?: { drainMs?: number; step?: (what: string) => void }) => Promise<void>;
}

/** How long the start-up's look at the media storage may take before the store counts as not reached. */
const MEDIA_CHECK_AT_START_MS = 10_000;

/**
 * The media storage, looked at before anything else starts: settings it refuses (wrong keys, no such bucket or
 * folder) stop the start-up with one line; a store that does not answer is only said, since a restart would not
 * mend it and the rest of the site works meanwhile (/api/health says `unreachable` until it answers).
 */
async function openMediaStorage(config: AppConfig, given: MediaStorage | undefined) {
  if (config.media.kind === 'folder') ensureWritableDir(config.media.dir, 'media folder');
  const media = given ?? createMediaStorage(config.media);
  const problem = await media.check(MEDIA_CHECK_AT_START_MS);
  if (problem?.refused) {
    const hint = config.media.kind === 's3' ? ' Check the S3_ variables (README, Environment variables).' : '';
    // A storage handed in is its giver's to close; one made here would keep its connections past the refusal.
    if (!given) await media.close();
    throw new StartupError(`${problem.message}.${hint}`);
  }
  return { media, problem };
}

/** While stopping, how often connections with no request in flight are closed (the first time after this long). */
const IDLE_CONNECTIONS_SWEEP_MS = 250;

/**
 * Stops accepting connections and resolves once every open one has ended. Node's own close() also closes at once
 * every connection with no request in flight, among them one accepted a moment ago whose request has not been read
 * yet, and its client would see ECONNRESET for a request that was never looked at. Here idle connections are closed
 * only after IDLE_CONNECTIONS_SWEEP_MS, and again each time it passes; answers sent while stopping close theirs.
 */
function stopListening(http: HttpServer): Promise<void> {
  return new Promise((resolve) => {
    const sweep = setInterval(() => http.closeIdleConnections(), IDLE_CONNECTIONS_SWEEP_MS);
    net.Server.prototype.close.call(http, () => {
      clearInterval(sweep);
      resolve();
    });
  });
}

function warnOfUnreachableMedia(server: FastifyInstance, problem: MediaStorageProblem): void {
  server.log.warn(
    { media: problem.message },
    'the media storage does not answer: starting all the same; pictures can be neither saved nor served until it does',
  );
}

export async function buildApp(config: AppConfig, options: BuildOptions = {}): Promise<App> {
  ensureWritableDir(config.dataDir, 'data folder');
  const { media, problem: mediaProblem } = await openMediaStorage(config, options.media);
  const ownsDb = !options.db;
  const db = options.db ?? (await openAppDatabase(config));

  const server = Fastify({
    // Written without ever blocking: a log reader that stalls or goes away does not stop the server (decision 026).
    logger: { level: config.logLevel, stream: options.logOutput ?? standardOutput },
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{8,64}$/.test(given) ? given : randomUUID();
    },
    trustProxy: fastifyTrustProxy(config.trustProxy),
    // A client that sends its request slowly, or half of it, is cut (decision 038).
    ...serverTimeouts(config.httpTimeouts),
    bodyLimit: 1024 * 1024,
    routerOptions: { maxParamLength: 200 },
    frameworkErrors,
    clientErrorHandler: clientErrorAnswer(config.secureCookies),
    // Requests that arrive while the server stops are refused by the hook below, in our envelope; idle connections
    // are closed by stopListening() once requests sent just before the stop have had time to arrive.
    return503OnClosing: false,
    forceCloseConnections: false,
  });

  // Snapshots and histories of large trees are built by a worker thread, off the event loop.
  if (mediaProblem) warnOfUnreachableMedia(server, mediaProblem);
  const builds = new BuildWorker(db, isPostgres(db) || db.$client.memory ? null : db.$client.name, media.urlBase);
  const clock = options.clock ?? systemClock;
  const histories = new TreeHistoryStore(builds, {
    now: () => clock.now(),
    warn: (err, treeId) => server.log.warn({ err, treeId }, 'the growth history could not be built'),
  });
  const deps: AppDeps = {
    db,
    clock,
    media,
    config,
    log: server.log,
    snapshots: new SnapshotStore(db, builds, {
      log: server.log,
      // With a worker, the first replay of a large tree should not wait seconds for its history: build it after
      // the tree's first snapshot, in the same thread's spare time.
      built: builds.offThread ? (tree) => histories.warm(tree) : undefined,
    }),
    histories,
  };
  deps.treeEvents = new TreeEventFeed(db, server.log, { longPolls: config.longPollsMax, urlOf: deps.media.urlOf });
  server.decorate('deps', deps);
  server.decorateRequest('auth', null);

  await server.register(fastifyCookie);
  useSecurityHeaders(server, config.secureCookies, media.urlBase);
  const stopState: StopState = { closing: false };
  // Before the guards: a request they refuse may still be sending its body, which Node reads to the end.
  useBodyDeadline(server, config.httpTimeouts.bodyMs);
  useRequestGuards(server, deps, stopState, options.refusalHold);
  continueOnlyPastTheChecks(server);
  if (config.trustProxy === false) warnOfUntrustedProxy(server);
  registerHealth(server, db, { dataDir: config.dataDir, minFreeBytes: config.minFreeBytes, media });
  useClientBuildHeader(server, config.clientDir);

  await server.register(
    async (scope) =>
      registerTrpcRoutes(scope, {
        router: appRouter,
        createContext: ({ req, res }) => contextOf(req, res),
        onError: ({ error, path: procedure }) => {
          if (error.code === 'INTERNAL_SERVER_ERROR' && !(error.cause instanceof AppError)) {
            server.log.error({ err: error.cause ?? error, procedure }, 'procedure failed');
          }
        },
      }),
    { prefix: '/trpc' },
  );

  await server.register(
    async (api) => {
      useRestEnvelope(api);
      registerRestRoutes(api);
    },
    { prefix: '/api' },
  );
  await registerPages(server, deps);

  const jobs = config.runJobs
    ? startJobs(
        deps,
        [
          { name: 'mail-outbox', everyMs: 5_000, run: deliverOutbox },
          { name: 'rate-limit-prune', everyMs: 60 * 60_000, run: (ctx) => pruneRateLimits(ctx.db, ctx.clock.now()) },
          { name: 'orphan-media-sweep', everyMs: 60 * 60_000, run: sweepOrphanMedia },
          { name: 'picture-pyramids', everyMs: PYRAMID_JOB_EVERY_MS, run: buildQueuedPyramids },
          {
            name: 'tree-change-log-prune',
            everyMs: 10 * 60_000,
            run: async (ctx) => void (await pruneChangeLog(ctx.db, ctx.clock.now())),
          },
          ...RESERVATION_JOBS,
        ],
        { owner: newOwnerId(), leaseMs: config.jobLeaseMs },
      )
    : null;

  return {
    server,
    deps,
    jobs,
    async start() {
      const address = await server.listen({ port: config.port, host: config.host });
      return address.replace('[::1]', 'localhost');
    },
    async stop({ drainMs = 0, step = () => {} } = {}) {
      stopState.closing = true;
      // Live streams never end by themselves: end them first, or closing would wait for them.
      deps.treeEvents?.close();
      // A running job is told to stop at its next step (the outbox after the message it is sending).
      const jobsStopped = jobs?.stop();
      step('refusing new requests while a proxy moves on');
      if (drainMs > 0) await sleep(drainMs);
      step('waiting for requests in flight');
      await stopListening(server.server);
      step('waiting for running jobs');
      await Promise.all([server.close(), jobsStopped]);
      step('stopping the build worker');
      await builds.close();
      closeMailTransports();
      step('closing the media storage and the database');
      // Every request that streamed a picture has ended: the store's connections can go (one handed in is the giver's).
      if (!options.media) await media.close();
      // On a full disk the last writes fail (SQLITE_FULL): say so and close all the same, so that the process ends
      // cleanly and the file opens without a lock at the next start.
      try {
        await flushRateLimits(db);
      } catch (error) {
        server.log.warn({ err: error }, 'the last rate-limit counts could not be saved; closing the database anyway');
      }
      if (!ownsDb) return;
      try {
        await closeAppDatabase(db);
      } catch (error) {
        server.log.warn(
          { err: error },
          'the database is closed, but its write-ahead log could not be folded back: it is replayed at the next start',
        );
      }
    },
  };
}
