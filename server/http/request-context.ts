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
 * The address (which behind a trusted proxy means parsing X-Forwarded-For) and the cookie jar are worked out only
 * when a procedure asks for them: most reads need neither.
 */
export function contextOf(req: FastifyRequest, reply: FastifyReply): RequestContext {
  const { deps } = req.server;
  return {
    ...deps,
    user: req.auth?.user ?? null,
    session: req.auth?.session ?? null,
    get ip() {
      return req.ip;
    },
    userAgent: req.headers['user-agent'] ?? '',
    get sessionCookie() {
      return sessionCookieJar(reply, deps.config.secureCookies, deps.clock.now);
    },
  };
}
