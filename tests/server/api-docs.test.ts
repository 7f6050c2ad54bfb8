/**
 * docs/api.md cannot drift: every path the server holds and every tRPC procedure has a row there, the row says who
 * may call it as the permission tests do (tests/helpers/server/rest-access.ts for REST, the access level each
 * procedure is built on for tRPC), and no row names a path or procedure that no longer exists.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Access } from '#server/permissions.ts';
import { createTestApp, type TestApp } from '#tests/helpers/server/test-app.ts';
import {
  listApiRoutes,
  listOtherRoutes,
  listProcedures,
  routeKey,
  routeShape,
  rowFor,
  type HttpRoute,
} from '../helpers/server/route-inventory.ts';
import { REST_ACCESS } from '../helpers/server/rest-access.ts';

const DOC = fs.readFileSync(path.resolve(import.meta.dirname, '../../docs/api.md'), 'utf8');

interface PathRow {
  method: string;
  path: string;
  who: string;
}

/** The `| METHOD | \`/path/{param}\` | who | …` rows of the document. */
const pathRows: PathRow[] = [...DOC.matchAll(/^\| (GET|POST|PUT|PATCH|DELETE) \| `([^`]+)` \| ([^|]+?) \|/gm)].map(
  (m) => ({ method: m[1]!, path: m[2]!, who: m[3]!.trim() }),
);
/** The `| \`router.procedure\` | kind | who | …` rows. */
const procedureRows = new Map(
  [...DOC.matchAll(/^\| `(\w+\.\w+)` \| (query|mutation|subscription) \| ([^|]+?) \|/gm)].map((m) => [
    m[1]!,
    { kind: m[2]!, who: m[3]!.trim() },
  ]),
);

/** `/api/cell/{cellToken}` as a route shape, to compare with the server's `:cellToken`. */
const shapeOfRow = (row: PathRow) => routeShape(`${row.method} ${row.path.replace(/\{(\w+)\}/g, ':$1')}`);
const rowOf = (route: HttpRoute) => pathRows.find((row) => shapeOfRow(row) === routeShape(routeKey(route)));

const WHO_OF_ACCESS: Record<Access, string> = { public: 'everyone', user: 'signed-in', admin: 'admin' };

let t: TestApp;
let apiRoutes: HttpRoute[];
let otherRoutes: HttpRoute[];
beforeAll(async () => {
  t = await createTestApp();
  apiRoutes = await listApiRoutes(t.server);
  otherRoutes = await listOtherRoutes(t.server);
});
afterAll(() => t.cleanup());

describe('docs/api.md', () => {
  it('has a row for every /api path, saying who may call it as the permission table does', () => {
    const problems = apiRoutes.flatMap((route) => {
      const row = rowOf(route);
      if (!row) return [`${routeKey(route)} has no row`];
      const who = rowFor(REST_ACCESS, route)?.who;
      return who === undefined || row.who === who
        ? []
        : [`${routeKey(route)} says "${row.who}", the permission table "${who}"`];
    });
    expect(problems).toEqual([]);
  });

  it('has a row for every other path the server answers by name', () => {
    expect(otherRoutes.filter((route) => !rowOf(route)).map(routeKey)).toEqual([]);
  });

  it('names no path the server does not hold', () => {
    const held = new Set([...apiRoutes, ...otherRoutes].map((route) => routeShape(routeKey(route))));
    expect(pathRows.filter((row) => !held.has(shapeOfRow(row))).map((row) => `${row.method} ${row.path}`)).toEqual([]);
  });

  it('has a row for every tRPC procedure with its kind and access level, and none for a procedure that is gone', () => {
    const procedures = listProcedures();
    const problems = procedures.flatMap((procedure) => {
      const row = procedureRows.get(procedure.name);
      if (!row) return [`${procedure.name} has no row`];
      const expected = { kind: procedure.type, who: WHO_OF_ACCESS[procedure.access] };
      return row.kind === expected.kind && row.who === expected.who
        ? []
        : [`${procedure.name} says ${JSON.stringify(row)}, is ${JSON.stringify(expected)}`];
    });
    const names = new Set(procedures.map((procedure) => procedure.name));
    problems.push(
      ...[...procedureRows.keys()]
        .filter((name) => !names.has(name))
        .map((name) => `${name} is documented but does not exist`),
    );
    expect(problems).toEqual([]);
  });
});
