/**
 * The role table over REST (docs/api.md, Who may call): every declared /api route (decision 036) is called by a guest,
 * an observer, an artist, the owner (the person its path names) and an admin with its row of
 * tests/helpers/server/rest-access.ts, and must let through or refuse each as its declaration's `who` says. A route
 * without a row, or a row without a route, fails here by name.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restRoutes } from '#server/rest/routes.ts';
import { ASKERS, createApiWorld, type ApiWorld } from '../helpers/server/api-world.ts';
import { artForm, postForm } from '../helpers/art-fixtures.ts';
import {
  declaredKey,
  listApiRoutes,
  routeKey,
  rowFor,
  tableAgainstDeclared,
} from '../helpers/server/route-inventory.ts';
import { outcomeOf, REST_ACCESS, type RestAccessRow } from '../helpers/server/rest-access.ts';

let w: ApiWorld;
beforeAll(async () => {
  w = await createApiWorld();
}, 60_000);
afterAll(() => w.t.cleanup());

/** Codes that refuse on who is asking; any other answer (a success, or a refusal on the input) got through. */
const ROLE_REFUSALS = new Set<string>(['unauthenticated', 'forbidden', 'own_art', 'own_profile', 'own_account']);

async function call(
  method: string,
  row: RestAccessRow,
  asker: (typeof ASKERS)[number],
): Promise<{ status: number; error?: string }> {
  const browser = await w.browser(asker);
  const url = await row.url(w);
  if (row.multipart) {
    const answer = await postForm(w.t, browser, url, artForm((row.body?.(w) ?? {}) as Record<string, string>));
    return { status: answer.status, error: answer.body?.r?.error };
  }
  const answer = await browser.request(method as 'GET', url, method === 'GET' ? undefined : (row.body?.(w) ?? {}));
  return { status: answer.status, error: answer.body?.r?.error };
}

function verdict(answer: { status: number; error?: string }): string {
  if (answer.status >= 500) return `failed with ${answer.status}`;
  if (answer.error && ROLE_REFUSALS.has(answer.error)) return answer.error;
  return 'through';
}

const DECLARED = restRoutes();

describe('the role table over REST', () => {
  it('has a row for every declared /api route, and none for a route not declared', () => {
    expect(
      tableAgainstDeclared(REST_ACCESS, DECLARED),
      'rows of tests/helpers/server/rest-access.ts: missing for a declared route, or naming none',
    ).toEqual({ missing: [], stale: [] });
  });

  it('has a row for every /api route the server holds', async () => {
    const missing = (await listApiRoutes(w.t.server)).filter((route) => !rowFor(REST_ACCESS, route)).map(routeKey);
    expect(missing, `routes without a row in tests/helpers/server/rest-access.ts: ${missing.join(', ')}`).toEqual([]);
  });

  for (const route of DECLARED) {
    const key = declaredKey(route);
    const row = rowFor(REST_ACCESS, { method: route.method, url: route.path });
    if (!row) continue;
    for (const asker of ASKERS) {
      const expected = outcomeOf(route.who, asker);
      it(`${key} (${route.who}): ${asker} ${expected === 'through' ? 'gets through' : `is refused with ${expected}`}`, async () => {
        const answer = await call(route.method, row, asker);
        expect(verdict(answer), JSON.stringify(answer)).toBe(expected);
        if (expected === 'unauthenticated') expect(answer.status).toBe(401);
        if (expected === 'forbidden' || expected === 'own_art') expect(answer.status).toBe(403);
      });
    }
  }
});
