/**
 * buildApp(config): the one HTTP server (docs/architecture.md, Layers). tRPC at /trpc, the REST adapter at /api, media
 * at /media, the built client with its initial parameters everywhere else; CSRF, sessions, security headers and request
 * logging around all of it. Tests call it with a temporary data folder and `inject` or `listen` on port 0.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type { Server as HttpServer } from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/unstable-core-do-not-import';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import { ErrorCode } from '#shared/errors.ts';
import { TREE_PAGE_PATH } from '#shared/tree/tree-url.ts';
import { SESSION_COOKIE, validateSessionToken } from './auth/sessions.ts';
import { systemClock, type Clock } from './clock.ts';
import type { AppConfig } from './config.ts';
import { closeDatabase, ensureWritableDir, openDatabase, type Db } from './db.ts';
import { standardOutput } from './log-output.ts';
import { AppError, trpcCodeOf } from './errors.ts';
import { csrfRefusal, ensureCsrfToken, servesHost } from './http/csrf.ts';
import { sendCompressed } from './http/compress.ts';
import { createIndexRenderer } from './http/index-html.ts';
import { artOpenGraphTags } from './http/art-open-graph.ts';
import { registerAdminPage } from './http/admin-page.ts';
import { registerFeed } from './http/feed.ts';
import { RefusalHold, type RefusalHoldOptions } from './http/refusal-hold.ts';
import { HEALTH_PATH, registerHealth } from './http/health.ts';
import { useSecurityHeaders } from './http/security-headers.ts';
import { contextOf, sessionCookieJar } from './http/request-context.ts';
import { registerTrpcRoutes } from './http/trpc-routes.ts';
import { TreeEventFeed } from './http/tree-events.ts';
import { createMediaStore } from './media-store.ts';
import { frameworkErrors, ok, useRestEnvelope } from './rest/adapter.ts';
import { registerRestRoutes } from './rest/routes.ts';
import { appRouter } from './root.ts';
import {
  initialParams,
  getDefaultTree,
  BuildWorker,
  SnapshotStore,
  TreeHistoryStore,
  TreeSketches,
  pruneChangeLog,
} from './services/tree/index.ts';
import { startJobs, type JobRunner } from './services/jobs.ts';
import { newOwnerId } from './services/leases.ts';
import { closeMailTransports, deliverOutbox } from './services/mail/index.ts';
import { flushRateLimits, LIMITS, pruneRateLimits, secondsPastBatchedLimit } from './services/rate-limit.ts';
import { sweepOrphanMedia } from './services/media/index.ts';
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

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Files served from folders; any other GET that matches no route is a client route. */
const FILE_PREFIXES = ['/assets/', '/media/'];
/** While stopping, how often connections with no request in flight are closed (the first time after this long). */
const IDLE_CONNECTIONS_SWEEP_MS = 250;

/**
 * A refusal from a hook, before any route has run: in tRPC's error shape on /trpc (as its adapter writes one), in
 * the {r: …} envelope elsewhere, with Retry-After when the error has one. Never kept by a cache: a stopping process's
 * 503 is not the answer the next process gives.
 */
function sendRefusal(req: FastifyRequest, reply: FastifyReply, error: AppError): FastifyReply {
  reply.header('cache-control', 'no-store');
  if (error.retryAfter !== undefined) reply.header('retry-after', String(error.retryAfter));
  reply.code(error.status);
  if (!req.url.startsWith('/trpc')) return reply.send(ok(error.toBody()));
  const code = trpcCodeOf(error.code);
  return reply.send({
    error: {
      message: error.message,
      code: TRPC_ERROR_CODES_BY_KEY[code],
      data: { code, httpStatus: error.status, app: error.toBody() },
    },
  });
}

/**
 * Answers that are the same for everyone (decision 033): the tree's plain routes (marked `sameForEveryone`), media and
 * built assets. They read no session and so never set a cookie: a shared cache can keep them and hand them to anyone.
 */
function sameForEveryone(req: FastifyRequest): boolean {
  const route = req.routeOptions;
  return route.config.sameForEveryone === true || FILE_PREFIXES.some((prefix) => route.url?.startsWith(prefix));
}

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

export async function buildApp(config: AppConfig, options: BuildOptions = {}): Promise<App> {
  ensureWritableDir(config.dataDir, 'data folder');
  ensureWritableDir(config.mediaDir, 'media folder');
  const ownsDb = !options.db;
  const db = options.db ?? openDatabase(config.databaseFile);

  const server = Fastify({
    // Written without ever blocking: a log reader that stalls or goes away does not stop the server (decision 026).
    logger: { level: config.logLevel, stream: options.logOutput ?? standardOutput },
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{8,64}$/.test(given) ? given : randomUUID();
    },
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    routerOptions: { maxParamLength: 200 },
    frameworkErrors,
    // Requests that arrive while the server stops are refused by the hook below, in our envelope; idle connections
    // are closed by stopListening() once requests sent just before the stop have had time to arrive.
    return503OnClosing: false,
    forceCloseConnections: false,
  });

  // Snapshots and histories of large trees are built by a worker thread, off the event loop.
  const builds = new BuildWorker(db, db.$client.memory ? null : db.$client.name);
  const histories = new TreeHistoryStore(builds, {
    warn: (err, treeId) => server.log.warn({ err, treeId }, 'the growth history could not be built'),
  });
  const deps: AppDeps = {
    db,
    clock: options.clock ?? systemClock,
    media: createMediaStore(config.mediaDir),
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
  deps.treeEvents = new TreeEventFeed(db, server.log, { longPolls: config.longPollsMax });
  server.decorate('deps', deps);
  server.decorateRequest('auth', null);

  await server.register(fastifyCookie);
  useSecurityHeaders(server, config.secureCookies);

  // Stopping (SIGTERM): a request that arrives on a connection still open is refused before anything runs, with
  // Retry-After, so that a proxy can send it to another process; requests already running finish (decision 025).
  let closing = false;
  server.addHook('onRequest', async (req, reply) => {
    if (!closing) return;
    return sendRefusal(
      req,
      reply,
      new AppError(ErrorCode.Busy, 'The server is restarting. Try again in a moment.', undefined, 1),
    );
  });
  // Every answer sent while stopping closes its connection, so that no connection outlives the stop.
  server.addHook('onSend', async (_req, reply) => {
    if (closing) reply.header('connection', 'close');
  });

  // DNS rebinding: a request for a host name that is not the site's is refused before anything else runs.
  const siteHostname = new URL(config.siteUrl).hostname.toLowerCase();
  server.addHook('onRequest', async (req, reply) => {
    if (servesHost(req.host, siteHostname)) return;
    req.log.warn({ host: req.host }, 'request for another host refused');
    if (!req.url.startsWith('/api/'))
      return reply.code(421).type('text/plain; charset=utf-8').send('Misdirected request');
    return reply
      .code(421)
      .send(ok(new AppError(ErrorCode.BadRequest, 'This server does not answer for that host name.').toBody()));
  });

  // An address already past its limit for setting passwords from links is refused before anything is read: a flood
  // of them would otherwise cost a session lookup, a body parse and a procedure call each; and the refusal is held
  // a moment, so a flooding script waits instead of keeping the event loop busy (decision 024).
  const refusals = new RefusalHold(options.refusalHold);
  server.addHook('onRequest', async (req, reply) => {
    if (
      req.method !== 'POST' ||
      !(req.url.startsWith('/api/password/restore/') || req.url.startsWith('/trpc/auth.restore'))
    )
      return;
    const waitSeconds = secondsPastBatchedLimit(db, deps.clock.now(), LIMITS.restorePerIp, req.ip);
    if (waitSeconds === null) return;
    if (!(await refusals.hold(req.ip))) reply.header('connection', 'close');
    return sendRefusal(
      req,
      reply,
      new AppError(ErrorCode.RateLimited, 'Too many attempts. Try again later.', undefined, waitSeconds),
    );
  });

  // Who is asking: the session cookie, validated the Lucia way; a moved expiry re-sends the cookie. Not asked where
  // the answer is the same for everyone, so that no viewer's cookie rides on an answer a cache shares.
  server.addHook('onRequest', async (req, reply) => {
    const token = req.cookies[SESSION_COOKIE];
    if (!token || req.routeOptions.url === HEALTH_PATH || sameForEveryone(req)) return;
    const valid = validateSessionToken(db, deps.clock, token);
    if (!valid) {
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return;
    }
    req.auth = { user: valid.user, session: valid.session };
    if (valid.session.refreshed) {
      sessionCookieJar(reply, config.secureCookies, deps.clock.now).set(token, valid.session.expiresAt);
    }
  });

  // CSRF for every mutating request, tRPC and REST alike.
  const siteOrigin = new URL(config.siteUrl).origin;
  server.addHook('onRequest', async (req, reply) => {
    if (!MUTATING.has(req.method)) return;
    const refusal = csrfRefusal(req, [siteOrigin]);
    if (!refusal) return;
    req.log.warn({ refusal }, 'csrf refused');
    return sendRefusal(
      req,
      reply,
      new AppError(ErrorCode.CsrfFailed, 'This request could not be verified. Reload the page and try again.'),
    );
  });

  registerHealth(server, db, config);

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

  await server.register(fastifyStatic, {
    root: config.mediaDir,
    prefix: '/media/',
    decorateReply: false,
    index: false,
    immutable: true,
    maxAge: '365d',
  });

  const renderIndex = createIndexRenderer(config.clientDir);
  const sketches = new TreeSketches(db, deps.snapshots);
  /** A first visit to the tree opens with its sketch already in the page (server/services/tree/tree-sketch.ts). */
  const sketchFor = (req: FastifyRequest): string => {
    const [pathname, search = ''] = req.url.split('?', 2);
    if (pathname !== TREE_PAGE_PATH) return '';
    try {
      const tree = getDefaultTree(db);
      return tree ? sketches.forVisit(tree, search) : '';
    } catch (error) {
      // The page works without it: the engine draws the tree as it always does.
      req.log.warn({ err: error }, 'the tree sketch could not be drawn');
      return '';
    }
  };
  const sendPage = (req: FastifyRequest, reply: FastifyReply, extraHead = '') => {
    const csrfToken = ensureCsrfToken(req, reply, config.secureCookies);
    reply.header('cache-control', 'no-store').type('text/html; charset=utf-8');
    return sendCompressed(
      req,
      reply,
      Buffer.from(renderIndex(initialParams(deps), csrfToken, extraHead, sketchFor(req))),
    );
  };
  // A shared art details link previews the piece (Open Graph); the page itself is the client's as everywhere else.
  server.get<{ Params: { cellToken: string } }>('/observe/cell/:cellToken/details', (req, reply) =>
    sendPage(req, reply, artOpenGraphTags(deps, req.params.cellToken)),
  );

  // The folder may not exist yet: `npm start` builds the client after the app is built, just before listening.
  const assetsDir = path.join(config.clientDir, 'assets');
  fs.mkdirSync(assetsDir, { recursive: true });
  await server.register(fastifyStatic, {
    root: assetsDir,
    prefix: '/assets/',
    decorateReply: false,
    index: false,
    immutable: true,
    maxAge: '365d',
  });
  for (const file of ['favicon.svg', 'robots.txt']) {
    server.get(`/${file}`, (_req, reply) => {
      const full = path.join(config.clientDir, file);
      if (!fs.existsSync(full)) return reply.code(404).send();
      return reply.type(file.endsWith('.svg') ? 'image/svg+xml' : 'text/plain').send(fs.createReadStream(full));
    });
  }

  registerAdminPage(server);
  registerFeed(server);

  // Every other GET is a client route: the app decides what to show (its own not-found page included).
  server.setNotFoundHandler((req, reply) => {
    const isFile = FILE_PREFIXES.some((prefix) => req.url.startsWith(prefix));
    if ((req.method !== 'GET' && req.method !== 'HEAD') || isFile) {
      return reply.code(404).send(ok(new AppError(ErrorCode.NotFound).toBody()));
    }
    return sendPage(req, reply);
  });

  const jobs = config.runJobs
    ? startJobs(
        deps,
        [
          { name: 'mail-outbox', everyMs: 5_000, run: deliverOutbox },
          { name: 'rate-limit-prune', everyMs: 60 * 60_000, run: (ctx) => pruneRateLimits(ctx.db, ctx.clock.now()) },
          { name: 'orphan-media-sweep', everyMs: 60 * 60_000, run: sweepOrphanMedia },
          {
            name: 'tree-change-log-prune',
            everyMs: 10 * 60_000,
            run: (ctx) => void pruneChangeLog(ctx.db, ctx.clock.now()),
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
      closing = true;
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
      step('closing the database');
      flushRateLimits(db);
      if (ownsDb) closeDatabase(db);
    },
  };
}
