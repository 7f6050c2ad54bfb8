/** Builds the tRPC request context from a Fastify request (used by the tRPC adapter and the REST adapter). */
import type { FastifyRequest } from 'fastify';
import type { SessionUser, ValidSession } from '../auth/sessions.ts';
import type { AppDeps, RequestContext } from '../trpc.ts';

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
  }
  interface FastifyRequest {
    auth: { user: SessionUser; session: ValidSession } | null;
  }
}

export function contextOf(req: FastifyRequest): RequestContext {
  return {
    ...req.server.deps,
    user: req.auth?.user ?? null,
    session: req.auth?.session ?? null,
    ip: req.ip,
  };
}
