/** The /api paths of spec §7 (and DESIGN.md §7) that exist so far, each a thin call of a tRPC procedure. */
import type { FastifyInstance } from 'fastify';
import { ErrorCode } from '#shared/errors.ts';
import { AppError } from '../errors.ts';
import { ensureCsrfToken } from '../http/csrf.ts';
import { callerFor, ok } from './adapter.ts';
import { registerTreeRoutes } from './tree-routes.ts';

export function registerRestRoutes(api: FastifyInstance): void {
  registerTreeRoutes(api);

  api.get<{ Params: { cellToken: string } }>('/cell/:cellToken', async (req) =>
    ok(await callerFor(req).cell.get({ token: req.params.cellToken })),
  );

  api.get('/user/current', async (req) => {
    const user = await callerFor(req).auth.current();
    if (!user) throw new AppError(ErrorCode.Unauthenticated, 'Nobody is signed in.');
    return ok(user);
  });

  /** For the development server, whose index.html the API server does not render. */
  api.get('/initial-params', async (req, reply) => {
    const csrfToken = ensureCsrfToken(req, reply, api.deps.config.secureCookies);
    return ok({ params: await callerFor(req).misc.initialParams(), csrfToken });
  });
}
