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
  interface FastifyContextConfig {
    /** The route's answer is the same for everyone: no session is read, no cookie set (decision 033). */
    sameForEveryone?: boolean;
  }
}

/** Sets and clears the session cookie on one reply (its methods live on the class: nothing is built per request). */
class ReplySessionCookie implements SessionCookieJar {
  constructor(
    private readonly reply: FastifyReply,
    private readonly secure: boolean,
    private readonly now: () => number,
  ) {}

  set(token: string, expiresAt: number): void {
    this.reply.setCookie(SESSION_COOKIE, token, {
      httpOnly: true,
      sameSite: 'lax',
      path: '/',
      secure: this.secure,
      maxAge: Math.max(0, Math.floor((expiresAt - this.now()) / 1000)),
    });
  }

  clear(): void {
    this.reply.clearCookie(SESSION_COOKIE, { path: '/' });
  }
}

export function sessionCookieJar(reply: FastifyReply, secure: boolean, now: () => number): SessionCookieJar {
  return new ReplySessionCookie(reply, secure, now);
}

/**
 * A request's context: an instance of one class, whose fields are all its own data properties. Not an object literal
 * with getters: a literal's getters are new closures per request, which gave every context its own hidden class,
 * kept (with the request it points to) until a full collection; young collections then copied megabytes and paused
 * the server for ~10 ms every few hundred requests (the p99 the load test holds). Not getters on the class either: a middleware
 * that passes a ctx to `next` has it spread into a plain object, which keeps own properties only, so the address and
 * the cookie jar would silently go missing downstream.
 */
class HttpRequestContext implements RequestContext {
  readonly db: AppDeps['db'];
  readonly clock: AppDeps['clock'];
  readonly media: AppDeps['media'];
  readonly config: AppDeps['config'];
  readonly log: AppDeps['log'];
  readonly snapshots: AppDeps['snapshots'];
  readonly histories: AppDeps['histories'];
  readonly user: SessionUser | null;
  readonly session: ValidSession | null;
  readonly userAgent: string;
  readonly ip: string;
  readonly sessionCookie: SessionCookieJar;

  constructor(req: FastifyRequest, reply: FastifyReply, deps: AppDeps) {
    this.db = deps.db;
    this.clock = deps.clock;
    this.media = deps.media;
    this.config = deps.config;
    this.log = deps.log;
    this.snapshots = deps.snapshots;
    this.histories = deps.histories;
    this.user = req.auth?.user ?? null;
    this.session = req.auth?.session ?? null;
    this.userAgent = req.headers['user-agent'] ?? '';
    this.ip = req.ip;
    this.sessionCookie = new ReplySessionCookie(reply, deps.config.secureCookies, deps.clock.now);
  }
}

export function contextOf(req: FastifyRequest, reply: FastifyReply): RequestContext {
  return new HttpRequestContext(req, reply, req.server.deps);
}
