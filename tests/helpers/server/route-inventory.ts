/**
 * What the server answers, enumerated at run time so that a route or procedure added later is covered by the
 * contract, permission, fuzz and CSRF tests without anyone remembering to list it: the HTTP routes Fastify holds
 * (read from its route tree) and the tRPC procedures of the app router.
 */
import type { FastifyInstance } from 'fastify';
import { appRouter } from '#server/root.ts';
import { createTestApp } from '#tests/helpers/server/test-app.ts';
import type { Access } from '#server/permissions.ts';

export interface HttpRoute {
  method: string;
  /** Fastify's pattern, e.g. /api/cell/:cellToken/reserve */
  url: string;
}

/** `GET /api/cell/:cellToken`: the key the route tables of the tests use. */
export const routeKey = (route: HttpRoute): string => `${route.method} ${route.url}`;

/** The same key for a declared route (server/rest/routes.ts `restRoutes`, decision 036). */
export const declaredKey = (route: { method: string; path: string }): string => `${route.method} ${route.path}`;

/**
 * What a table of the tests keyed by route lacks and holds too many of, by shape: the declared routes without a row,
 * and the rows that name no declared route.
 */
export function tableAgainstDeclared(
  table: Record<string, unknown>,
  declared: readonly { method: string; path: string }[],
): { missing: string[]; stale: string[] } {
  const rows = new Set(Object.keys(table).map(routeShape));
  const shapes = new Set(declared.map((route) => routeShape(declaredKey(route))));
  return {
    missing: declared.map(declaredKey).filter((key) => !rows.has(routeShape(key))),
    stale: Object.keys(table).filter((key) => !shapes.has(routeShape(key))),
  };
}

/**
 * A route key with its parameters' names blanked (`GET /api/cell/:`), so a table may name a parameter as docs/api.md
 * does ({cellToken}, {token}) whatever the route file calls it.
 */
export const routeShape = (key: string): string => key.replace(/:\w+/g, ':');

/** Finds the row of a table for a route, by shape; undefined when the table has none. */
export function rowFor<T>(table: Record<string, T>, route: HttpRoute): T | undefined {
  const shape = routeShape(routeKey(route));
  const key = Object.keys(table).find((candidate) => routeShape(candidate) === shape);
  return key === undefined ? undefined : table[key];
}

const LINE = /^((?:│ {3}| {4})*)(?:├── |└── )(.+?)(?: \(([A-Z, ]+)\))?$/;

/**
 * Every route the server holds, one entry per method (HEAD, which Fastify adds to each GET, left out). Read from
 * `printRoutes`, whose tree nests a route under the one whose path it extends; a line this parser does not know
 * fails loudly rather than dropping a route.
 */
export async function listHttpRoutes(server: FastifyInstance): Promise<HttpRoute[]> {
  await server.ready();
  const stack: string[] = [];
  const routes: HttpRoute[] = [];
  for (const line of server.printRoutes({ commonPrefix: false }).split('\n')) {
    if (line.trim() === '') continue;
    const match = LINE.exec(line);
    if (!match) throw new Error(`Unrecognised line in Fastify's route tree: ${JSON.stringify(line)}`);
    const depth = match[1]!.length / 4;
    stack.length = depth;
    // Two routes naming one parameter differently print as `:token|:userToken`: keep the first name.
    const url = (stack[depth - 1] ?? '') + match[2]!.replace(/(:\w+)(?:\|:\w+)+/g, '$1');
    stack[depth] = url;
    for (const method of (match[3] ?? '').split(',').map((m) => m.trim())) {
      if (method && method !== 'HEAD') routes.push({ method, url });
    }
  }
  return routes;
}

/** The REST adapter's routes: everything under /api. */
export async function listApiRoutes(server: FastifyInstance): Promise<HttpRoute[]> {
  return (await listHttpRoutes(server)).filter((route) => route.url.startsWith('/api/'));
}

/** The /api routes a freshly built server holds, for test files that make one test per route when collected. */
export async function collectApiRoutes(): Promise<HttpRoute[]> {
  const t = await createTestApp();
  try {
    return await listApiRoutes(t.server);
  } finally {
    await t.cleanup();
  }
}

/** The routes a browser page calls outside /api and /trpc (pages with their own head, files, health and the like). */
export async function listOtherRoutes(server: FastifyInstance): Promise<HttpRoute[]> {
  return (await listHttpRoutes(server)).filter(
    (route) => !route.url.startsWith('/api/') && !route.url.startsWith('/trpc/') && !route.url.endsWith('*'),
  );
}

export const MUTATING_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export interface ProcedureInfo {
  name: string;
  type: 'query' | 'mutation' | 'subscription';
  access: Access;
  /** The input schemas (valibot, as Standard Schema) the procedure validates with. */
  inputs: unknown[];
}

/** Every tRPC procedure, with its kind and the access level it declares (server/permissions.ts). */
export function listProcedures(): ProcedureInfo[] {
  return Object.entries(
    appRouter._def.procedures as unknown as Record<
      string,
      { _def: { type: ProcedureInfo['type']; meta?: { access?: Access }; inputs: unknown[] } }
    >,
  )
    .map(([name, procedure]) => {
      const access = procedure._def.meta?.access;
      if (!access)
        throw new Error(
          `Procedure ${name} declares no access level: build it on publicProcedure, userProcedure or adminProcedure.`,
        );
      return { name, type: procedure._def.type, access, inputs: procedure._def.inputs };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The field names an input schema knows (object entries, through optional, intersect, union and pipe). */
export function inputKeys(schema: unknown, seen = new Set<unknown>()): string[] {
  if (typeof schema !== 'object' || schema === null || seen.has(schema)) return [];
  seen.add(schema);
  const node = schema as {
    entries?: Record<string, unknown>;
    wrapped?: unknown;
    item?: unknown;
    options?: unknown[];
    pipe?: unknown[];
  };
  const keys = new Set<string>(Object.keys(node.entries ?? {}));
  for (const child of [
    node.wrapped,
    node.item,
    ...(node.options ?? []),
    ...(node.pipe ?? []),
    ...Object.values(node.entries ?? {}),
  ]) {
    if (child !== schema) for (const key of inputKeys(child, seen)) keys.add(key);
  }
  return [...keys];
}
