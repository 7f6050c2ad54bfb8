/**
 * docs/api.md cannot drift. Its REST table and example answers are written from the routes' declarations (decision
 * 036) by `npm run docs:api`: the page must be what the script writes. The server holds exactly the declared /api
 * routes, each procedure's route fits its procedure, every other path the server answers by name has a row, every tRPC
 * procedure has one with its kind and access level, and no row names a path or procedure that no longer exists.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Access } from '#server/permissions.ts';
import { restRoutes } from '#server/rest/routes.ts';
import { createTestApp, type TestApp } from '#tests/helpers/server/test-app.ts';
import { API_DOC_FILE, renderApiDoc } from '../../scripts/docs-api.ts';
import {
  declaredKey,
  inputKeys,
  listApiRoutes,
  listOtherRoutes,
  listProcedures,
  routeKey,
  routeShape,
  type HttpRoute,
} from '../helpers/server/route-inventory.ts';

const DOC = fs.readFileSync(API_DOC_FILE, 'utf8');

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

/**
 * The lines one text has and the other lacks (a longest-common-subsequence diff), `-` for the page and `+` for what
 * the script writes, with their line numbers; at most 40.
 */
function linesThatDiffer(page: string, written: string): string[] {
  const a = page.split('\n');
  const b = written.split('\n');
  // common[i][j]: how many lines a[i..] and b[j..] share, in order.
  const common = Array.from({ length: a.length + 1 }, () => new Uint16Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      common[i]![j] = a[i] === b[j] ? common[i + 1]![j + 1]! + 1 : Math.max(common[i + 1]![j]!, common[i]![j + 1]!);
    }
  }
  const found: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      i++;
      j++;
    } else if (i < a.length && (j === b.length || common[i + 1]![j]! >= common[i]![j + 1]!)) {
      found.push(`- ${i + 1}: ${a[i++]}`);
    } else {
      found.push(`+ ${j + 1}: ${b[j++]}`);
    }
  }
  return found.slice(0, 40);
}

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
  it('is what `npm run docs:api` writes from the declarations', () => {
    const differences = linesThatDiffer(DOC, renderApiDoc(DOC));
    expect(differences, 'docs/api.md is behind the declarations: run `npm run docs:api`').toEqual([]);
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

describe('the declared /api routes', () => {
  it('are the /api routes the server holds, each once', () => {
    const declared = restRoutes().map((route) => routeShape(declaredKey(route)));
    const held = apiRoutes.map((route) => routeShape(routeKey(route)));
    expect({
      twice: declared.filter((shape, i) => declared.indexOf(shape) !== i),
      notHeld: declared.filter((shape) => !held.includes(shape)),
      notDeclared: held.filter((shape) => !declared.includes(shape)),
    }).toEqual({ twice: [], notHeld: [], notDeclared: [] });
  });

  it("fit their procedures: GET for a query, another method for a mutation, each path parameter an input's field", () => {
    const procedures = new Map(listProcedures().map((procedure) => [procedure.name, procedure]));
    const problems = restRoutes().flatMap((route) => {
      if (!route.procedure) return [];
      const procedure = procedures.get(route.procedure)!;
      const found: string[] = [];
      if ((route.method === 'GET') !== (procedure.type === 'query')) {
        found.push(`${declaredKey(route)} is a ${route.method} for a ${procedure.type}`);
      }
      const fields = procedure.inputs.flatMap((schema) => inputKeys(schema));
      for (const [, param] of route.path.matchAll(/:(\w+)/g)) {
        const field = route.params?.[param!] ?? param!;
        if (!fields.includes(field)) found.push(`${declaredKey(route)}: :${param} names no field of ${procedure.name}`);
      }
      return found;
    });
    expect(problems).toEqual([]);
  });
});
