/** The /api paths (docs/api.md), each a thin call of a tRPC procedure (decision 003). */
import type { FastifyInstance } from 'fastify';
import type { CellSummary } from '#shared/api-types.ts';
import type { ArtDetails } from '#shared/art-api.ts';
import { CellStatus } from '#shared/domain.ts';
import { ErrorCode } from '#shared/errors.ts';
import { AppError, toAppError } from '../errors.ts';
import { ensureCsrfToken } from '../http/csrf.ts';
import { answer, callerFor } from './adapter.ts';
import { cellWithArt, searchCell } from './shapes.ts';
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

  api.get<{ Params: { cellToken: string } }>('/cell/:cellToken', async (req, reply) => {
    const caller = callerFor(req, reply);
    const cell = await caller.cell.get({ token: req.params.cellToken });
    return answer(cellWithArt(cell, await visibleArt(caller, cell)));
  });
  api.get<{ Querystring: { search?: unknown } }>('/cells/search', async (req, reply) => {
    const hits = await callerFor(req, reply).cell.search({ search: req.query.search as string });
    return answer(hits.map(searchCell));
  });

  // Accounts and sessions.
  api.get('/user/current', async (req, reply) => {
    const user = await callerFor(req, reply).auth.current();
    if (!user) throw new AppError(ErrorCode.Unauthenticated, 'Nobody is signed in.');
    return answer(user);
  });
  api.post<{ Body: Body }>('/register', async (req, reply) =>
    answer(await callerFor(req, reply).auth.register(input(req.body))),
  );
  api.post<{ Body: Body }>('/auth/login', async (req, reply) =>
    answer(await callerFor(req, reply).auth.login(input(req.body))),
  );
  api.post('/auth/logout', async (req, reply) => answer(await callerFor(req, reply).auth.logout()));
  api.post<{ Body: Body }>('/password/reset', async (req, reply) =>
    answer(await callerFor(req, reply).auth.requestReset(input(req.body))),
  );
  api.post<{ Body: Body; Params: { token: string } }>('/password/restore/:token', async (req, reply) =>
    answer(await callerFor(req, reply).auth.restore(input(req.body, { token: req.params.token }))),
  );
  api.post<{ Body: Body; Params: { token: string } }>('/user/:token/account', async (req, reply) =>
    answer(await callerFor(req, reply).user.updateAccount(input(req.body, { token: req.params.token }))),
  );

  // The contact form.
  api.post<{ Body: Body }>('/misc/contact', async (req, reply) =>
    answer(await callerFor(req, reply).misc.contact(input(req.body))),
  );

  /** For the development server, whose index.html the API server does not render. */
  api.get('/initial-params', async (req, reply) => {
    const csrfToken = ensureCsrfToken(req, reply, api.deps.config.secureCookies);
    return answer({ params: await callerFor(req, reply).misc.initialParams(), csrfToken });
  });
}

/** Only a reserved square (a piece in progress or under review) or a published one holds a piece. */
const HOLDS_ART: readonly number[] = [CellStatus.Reserved, CellStatus.Published];

/** The piece on a cell as the viewer may see it (its details), or null when there is none they may see. */
async function visibleArt(caller: ReturnType<typeof callerFor>, cell: CellSummary): Promise<ArtDetails | null> {
  if (!HOLDS_ART.includes(cell.status)) return null;
  try {
    return await caller.art.details({ cellToken: cell.token });
  } catch (error) {
    if (toAppError(error).code === ErrorCode.ArtNotFound) return null;
    throw error;
  }
}

/**
 * A request body (plus path parameters) as a procedure's input. The procedure validates every field, so here a
 * missing or non-object body simply becomes an empty one.
 */
function input(body: unknown, params: Record<string, string> = {}): never {
  const fields = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Body) : {};
  return { ...fields, ...params } as never;
}
