/** The /api paths of spec §7 (and DESIGN.md §7) that exist so far, each a thin call of a tRPC procedure. */
import type { FastifyInstance } from 'fastify';
import { ErrorCode } from '#shared/errors.ts';
import { AppError } from '../errors.ts';
import { ensureCsrfToken } from '../http/csrf.ts';
import { callerFor, ok } from './adapter.ts';
import { registerReservationRoutes } from './reservation-routes.ts';
import { registerTreeRoutes } from './tree-routes.ts';
import { registerArtRoutes } from './art-routes.ts';
import { registerUserRoutes } from './user-routes.ts';

type Body = Record<string, unknown>;

export function registerRestRoutes(api: FastifyInstance): void {
  registerTreeRoutes(api);
  registerArtRoutes(api);
  registerReservationRoutes(api);
  registerUserRoutes(api);

  api.get<{ Params: { cellToken: string } }>('/cell/:cellToken', async (req, reply) =>
    ok(await callerFor(req, reply).cell.get({ token: req.params.cellToken })),
  );
  api.get<{ Querystring: { search?: unknown } }>('/cells/search', async (req, reply) =>
    ok(await callerFor(req, reply).cell.search({ search: req.query.search as string })),
  );

  // Accounts and sessions.
  api.get('/user/current', async (req, reply) => {
    const user = await callerFor(req, reply).auth.current();
    if (!user) throw new AppError(ErrorCode.Unauthenticated, 'Nobody is signed in.');
    return ok(user);
  });
  api.post<{ Body: Body }>('/register', async (req, reply) => ok(await callerFor(req, reply).auth.register(input(req.body))));
  api.post<{ Body: Body }>('/auth/login', async (req, reply) => ok(await callerFor(req, reply).auth.login(input(req.body))));
  api.post('/auth/logout', async (req, reply) => ok(await callerFor(req, reply).auth.logout()));
  api.post<{ Body: Body }>('/password/reset', async (req, reply) =>
    ok(await callerFor(req, reply).auth.requestReset(input(req.body))),
  );
  api.post<{ Body: Body; Params: { token: string } }>('/password/restore/:token', async (req, reply) =>
    ok(await callerFor(req, reply).auth.restore(input(req.body, { token: req.params.token }))),
  );
  api.post<{ Body: Body; Params: { token: string } }>('/user/:token/account', async (req, reply) =>
    ok(await callerFor(req, reply).user.updateAccount(input(req.body, { token: req.params.token }))),
  );

  // The contact form.
  api.post<{ Body: Body }>('/misc/contact', async (req, reply) => ok(await callerFor(req, reply).misc.contact(input(req.body))));

  /** For the development server, whose index.html the API server does not render. */
  api.get('/initial-params', async (req, reply) => {
    const csrfToken = ensureCsrfToken(req, reply, api.deps.config.secureCookies);
    return ok({ params: await callerFor(req, reply).misc.initialParams(), csrfToken });
  });
}

/**
 * A request body (plus path parameters) as a procedure's input. The procedure validates every field, so here a
 * missing or non-object body simply becomes an empty one.
 */
function input(body: unknown, params: Record<string, string> = {}): never {
  const fields = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Body) : {};
  return { ...fields, ...params } as never;
}
