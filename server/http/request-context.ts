/** Builds the tRPC request context from a Fastify request (used by the tRPC adapter and the REST adapter). */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE, type SessionUser, type ValidSession } from '../auth/sessions.ts';
import type { AppDeps, RequestContext, SessionCookieJar } from '../trpc.ts';

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
  }
  interface FastifyRequest {
    auth: { user: SessionUser; session: ValidSession } | null;
  }
}

export function sessionCookieJar(reply: FastifyReply, secure: boolean, now: () => number): SessionCookieJar {
  return {
    set(token, expiresAt) {
      reply.setCookie(SESSION_COOKIE, token, {
        httpOnly: true,
        sameSite: 'lax',
        path: '/',
        secure,
        maxAge: Math.max(0, Math.floor((expiresAt - now()) / 1000)),
      });
    },
    clear() {
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
    },
  };
}

/**
 * A request's context. The address (which behind a trusted proxy means parsing X-Forwarded-For) and the cookie jar
 * are worked out only when a procedure asks for them: most reads need neither. They are getters of this class, not
 * of an object literal: a literal's getters are new closures per request, which gave every context its own hidden
 * class, kept (with the request it points to) until a full collection; young collections then copied megabytes and
 * paused the server for ~10 ms every few hundred requests (issue 10's p99).
 */
class HttpRequestContext implements RequestContext {
  readonly db: AppDeps['db'];
  readonly clock: AppDeps['clock'];
  readonly media: AppDeps['media'];
  readonly config: AppDeps['config'];
  readonly log: AppDeps['log'];
  readonly snapshots: AppDeps['snapshots'];
  readonly user: SessionUser | null;
  readonly session: ValidSession | null;
  readonly userAgent: string;
  readonly #req: FastifyRequest;
  readonly #reply: FastifyReply;

  constructor(req: FastifyRequest, reply: FastifyReply, deps: AppDeps) {
    this.db = deps.db;
    this.clock = deps.clock;
    this.media = deps.media;
    this.config = deps.config;
    this.log = deps.log;
    this.snapshots = deps.snapshots;
    this.user = req.auth?.user ?? null;
    this.session = req.auth?.session ?? null;
    this.userAgent = req.headers['user-agent'] ?? '';
    this.#req = req;
    this.#reply = reply;
  }

  get ip(): string {
    return this.#req.ip;
  }

  get sessionCookie(): SessionCookieJar {
    return sessionCookieJar(this.#reply, this.config.secureCookies, this.clock.now);
  }
}

export function contextOf(req: FastifyRequest, reply: FastifyReply): RequestContext {
  return new HttpRequestContext(req, reply, req.server.deps);
}
