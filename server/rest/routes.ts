/**
 * The /api paths (docs/api.md). Most are a procedure's declared path, registered by the adapter's loop (decision
 * 036); the routes here and in tree-routes.ts, art-routes.ts and user-routes.ts do more, and declare their path all
 * the same, so that `restRoutes()` knows every one.
 */
import type { FastifyInstance } from 'fastify';
import type { CellSummary } from '#shared/api-types.ts';
import type { ArtDetails } from '#shared/art-api.ts';
import { CellStatus } from '#shared/domain.ts';
import { ErrorCode } from '#shared/errors.ts';
import { toAppError } from '../errors.ts';
import { ensureCsrfToken } from '../http/csrf.ts';
import { HEALTH } from '../http/health.ts';
import type { HandWrittenRoute, ProcedureRestRoute, RestRoute } from '../trpc.ts';
import { answer, apiUrl, callerFor, procedureRoutes, registerProcedureRoutes } from './adapter.ts';
import { ART_SAVE, registerArtRoutes } from './art-routes.ts';
import * as examples from './examples.ts';
import { cellWithArt } from './shapes.ts';
import { registerTreeRoutes, TREE_ROUTES } from './tree-routes.ts';
import { PROFILE_SAVE, registerUserRoutes } from './user-routes.ts';

const INITIAL_PARAMS: HandWrittenRoute = {
  method: 'GET',
  path: '/api/initial-params',
  who: 'everyone',
  does: "the page's initial parameters and a CSRF token, for the development server",
  via: '`misc.initialParams`',
  example: examples.initialParams,
};

const CELL_WITH_ART: HandWrittenRoute = {
  method: 'GET',
  path: '/api/cell/:cellToken',
  who: 'everyone',
  does: 'one square, with the piece the viewer may see and its connections',
  via: '`cell.get`',
  example: examples.cellWithArt,
};

/** The routes written by hand: health (server/http/health.ts) and those below. */
const HAND_WRITTEN: readonly HandWrittenRoute[] = [
  HEALTH,
  INITIAL_PARAMS,
  CELL_WITH_ART,
  ...TREE_ROUTES,
  ART_SAVE,
  PROFILE_SAVE,
];

/** An /api route as docs/api.md and the tests list it: its declaration, what it calls, its procedure if one. */
export interface ListedRoute extends RestRoute {
  via: string;
  procedure?: string;
  params?: ProcedureRestRoute['params'];
}

const METHOD_ORDER = ['GET', 'POST', 'PUT', 'DELETE'];

/** Every /api route the server holds, each from its one declaration, by path and then method. */
export function restRoutes(): ListedRoute[] {
  const routes: ListedRoute[] = [
    ...HAND_WRITTEN,
    ...procedureRoutes().map(({ procedure, rest: { shape: _shape, ...rest } }) => ({
      ...rest,
      via: `\`${procedure}\``,
      procedure,
    })),
  ];
  // As the page writes the paths (`{cellToken}`), by code point.
  const sortKey = (route: ListedRoute) => route.path.replace(/:/g, '{');
  return routes.sort((a, b) =>
    sortKey(a) === sortKey(b)
      ? METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method)
      : sortKey(a) < sortKey(b)
        ? -1
        : 1,
  );
}

export function registerRestRoutes(api: FastifyInstance): void {
  registerProcedureRoutes(api);
  registerTreeRoutes(api);
  registerArtRoutes(api);
  registerUserRoutes(api);

  api.route<{ Params: { cellToken: string } }>({
    method: CELL_WITH_ART.method,
    url: apiUrl(CELL_WITH_ART),
    async handler(req, reply) {
      const caller = callerFor(req, reply);
      const cell = await caller.cell.get({ token: req.params.cellToken });
      return answer(cellWithArt(cell, await visibleArt(caller, cell)));
    },
  });

  /** For the development server, whose index.html the API server does not render. */
  api.route({
    method: INITIAL_PARAMS.method,
    url: apiUrl(INITIAL_PARAMS),
    async handler(req, reply) {
      const csrfToken = ensureCsrfToken(req, reply, api.deps.config.secureCookies);
      return answer({ params: await callerFor(req, reply).misc.initialParams(), csrfToken });
    },
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
