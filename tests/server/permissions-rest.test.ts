/**
 * The role table over REST (docs/api.md, Who may call): every /api route the server holds (enumerated at run time) is
 * called by a guest, an observer, an artist, the owner (the person its path names) and an admin, and must let through
 * or refuse each as tests/helpers/server/rest-access.ts says. A route without a row fails here, by name.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASKERS, createApiWorld, type ApiWorld } from '../helpers/server/api-world.ts';
import { artForm, postForm } from '../helpers/art-fixtures.ts';
import {
  existingApiRouteShapes,
  listApiRoutes,
  routeKey,
  routeShape,
  rowFor,
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
  const url = row.url(w);
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

const existing = await existingApiRouteShapes();

describe('the role table over REST', () => {
  it('has a row for every /api route the server holds', async () => {
    const missing = (await listApiRoutes(w.t.server)).filter((route) => !rowFor(REST_ACCESS, route)).map(routeKey);
    expect(missing, `routes without a row in tests/helpers/server/rest-access.ts: ${missing.join(', ')}`).toEqual([]);
  });

  for (const [key, row] of Object.entries(REST_ACCESS)) {
    if (!existing.has(routeShape(key))) continue;
    const method = key.split(' ')[0]!;
    for (const asker of ASKERS) {
      const expected = outcomeOf(row.who, asker);
      it(`${key} (${row.who}): ${asker} ${expected === 'through' ? 'gets through' : `is refused with ${expected}`}`, async () => {
        const answer = await call(method, row, asker);
        expect(verdict(answer), JSON.stringify(answer)).toBe(expected);
        if (expected === 'unauthenticated') expect(answer.status).toBe(401);
        if (expected === 'forbidden' || expected === 'own_art') expect(answer.status).toBe(403);
      });
    }
  }
});
