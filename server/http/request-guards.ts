/**
 * The hooks every request passes before any route runs (docs/architecture.md, A request), in order: a stopping
 * process refuses, a host that is not the site's is refused, an address flooding the password links is held off,
 * the session is read, and a mutating request must pass the CSRF check.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/unstable-core-do-not-import';
import { ErrorCode } from '#shared/errors.ts';
import { SESSION_COOKIE, validateSessionToken } from '../auth/sessions.ts';
import { AppError, trpcCodeOf } from '../errors.ts';
import { ok } from '../rest/adapter.ts';
import { LIMITS, secondsPastBatchedLimit } from '../services/rate-limit.ts';
import type { AppDeps } from '../trpc.ts';
import { requestHost } from './behind-a-proxy.ts';
import { csrfRefusal, servesHost } from './csrf.ts';
import { HEALTH_PATH } from './health.ts';
import { RefusalHold, type RefusalHoldOptions } from './refusal-hold.ts';
import { sessionCookieJar } from './request-context.ts';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Files served from folders; any other GET that matches no route is a client route. */
export const FILE_PREFIXES = ['/assets/', '/media/'];

/**
 * A refusal from a hook, before any route has run: in tRPC's error shape on /trpc (as its adapter writes one), in
 * the {r: …} envelope elsewhere, with Retry-After when the error has one. Never kept by a cache: a stopping process's
 * 503 is not the answer the next process gives.
 */
export function sendRefusal(req: FastifyRequest, reply: FastifyReply, error: AppError): FastifyReply {
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

/** Whether the process is stopping: set by the app's stop(), read by the first hook. */
export interface StopState {
  closing: boolean;
}

/** Adds the hooks, in the order they must run. */
export function useRequestGuards(
  server: FastifyInstance,
  deps: AppDeps,
  state: StopState,
  refusalHold?: RefusalHoldOptions,
): void {
  const { db, config } = deps;
  // Stopping (SIGTERM): a request that arrives on a connection still open is refused before anything runs, with
  // Retry-After, so that a proxy can send it to another process; requests already running finish (decision 025).
  server.addHook('onRequest', async (req, reply) => {
    if (!state.closing) return;
    return sendRefusal(
      req,
      reply,
      new AppError(ErrorCode.Busy, 'The server is restarting. Try again in a moment.', undefined, 1),
    );
  });
  // Every answer sent while stopping closes its connection, so that no connection outlives the stop.
  server.addHook('onSend', async (_req, reply) => {
    if (state.closing) reply.header('connection', 'close');
  });

  // DNS rebinding: a request for a host name that is not the site's is refused before anything else runs. The Host
  // header itself, never X-Forwarded-Host (which anyone may write, and Fastify's req.host believes behind a proxy).
  const siteHostname = new URL(config.siteUrl).hostname.toLowerCase();
  server.addHook('onRequest', async (req, reply) => {
    const host = requestHost(req);
    if (servesHost(host, siteHostname)) return;
    req.log.warn({ host }, 'request for another host refused');
    if (!req.url.startsWith('/api/'))
      return reply.code(421).type('text/plain; charset=utf-8').send('Misdirected request');
    return reply
      .code(421)
      .send(ok(new AppError(ErrorCode.BadRequest, 'This server does not answer for that host name.').toBody()));
  });

  // An address already past its limit for setting passwords from links is refused before anything is read: a flood
  // of them would otherwise cost a session lookup, a body parse and a procedure call each; and the refusal is held
  // a moment, so a flooding script waits instead of keeping the event loop busy (decision 024).
  const refusals = new RefusalHold(refusalHold);
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
    const valid = await validateSessionToken(db, deps.clock, token);
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
}
