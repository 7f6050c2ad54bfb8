/**
 * Web security over HTTP (decisions 001, 004, 021): CSRF refused on every mutating route and tRPC mutation (both
 * enumerated at run time) however it is forged, and user text escaped in the feed. Headers, host names and cookies
 * are in security-headers.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { art, users } from '#drizzle/tables.ts';
import {
  listHttpRoutes,
  listProcedures,
  MUTATING_METHODS,
  routeKey,
  type HttpRoute,
} from '../helpers/server/route-inventory.ts';
import { GOOD, SITE, useWebSecurityApp } from '#tests/helpers/server/web-security-app.ts';

const web = useWebSecurityApp();

/** A real value for each path parameter, so that the same request with the token would reach the route. */
function filled(url: string): string {
  const values: Record<string, string> = {
    cellToken: web.w.piece.cellToken,
    artToken: web.w.piece.artToken,
    treeToken: web.w.treeToken,
    reserveId: web.w.holding.reminderToken,
    otherToken: web.w.people.observer.user.token,
    zip: '10001',
  };
  return url.replace(/:(\w+)/g, (_m, name: string) => values[name] ?? web.w.people.admin.user.token);
}

/** Each way a forged request can come, as headers on top of the admin's session cookie. */
const ATTACKS: Record<string, Record<string, string>> = {
  'no token and no X-Requested-With': { cookie: `csrf=${GOOD}` },
  'no token header': { cookie: `csrf=${GOOD}`, 'x-requested-with': 'XMLHttpRequest' },
  'a wrong token': { cookie: `csrf=${GOOD}`, 'x-requested-with': 'XMLHttpRequest', 'x-csrf-token': 'W'.repeat(32) },
  'a token but no CSRF cookie': { 'x-requested-with': 'XMLHttpRequest', 'x-csrf-token': GOOD },
  'the token without X-Requested-With': { cookie: `csrf=${GOOD}`, 'x-csrf-token': GOOD },
  'a foreign Origin, with the right token': {
    cookie: `csrf=${GOOD}`,
    'x-requested-with': 'XMLHttpRequest',
    'x-csrf-token': GOOD,
    origin: 'https://evil.example',
  },
  'Origin null, with the right token': {
    cookie: `csrf=${GOOD}`,
    'x-requested-with': 'XMLHttpRequest',
    'x-csrf-token': GOOD,
    origin: 'null',
  },
  'Sec-Fetch-Site cross-site, with the right token': {
    cookie: `csrf=${GOOD}`,
    'x-requested-with': 'XMLHttpRequest',
    'x-csrf-token': GOOD,
    'sec-fetch-site': 'cross-site',
  },
  'Sec-Fetch-Site same-site (a sibling subdomain), with the right token': {
    cookie: `csrf=${GOOD}`,
    'x-requested-with': 'XMLHttpRequest',
    'x-csrf-token': GOOD,
    'sec-fetch-site': 'same-site',
  },
};

/** Every mutating route but tRPC's catch-all, plus every tRPC mutation by its own path. */
const targets: HttpRoute[] = await (async () => {
  const { createTestApp } = await import('#tests/helpers/server/test-app.ts');
  const t = await createTestApp();
  try {
    const rest = (await listHttpRoutes(t.server)).filter(
      (route) => MUTATING_METHODS.has(route.method) && route.url !== '/trpc/:path',
    );
    const mutations = listProcedures()
      .filter((procedure) => procedure.type === 'mutation')
      .map((procedure) => ({ method: 'POST', url: `/trpc/${procedure.name}` }));
    return [...rest, ...mutations];
  } finally {
    await t.cleanup();
  }
})();

describe('CSRF on every mutating route', () => {
  it('finds mutating routes and tRPC mutations to check', () => {
    expect(targets.some((route) => route.url.startsWith('/api/'))).toBe(true);
    expect(targets.some((route) => route.url.startsWith('/trpc/'))).toBe(true);
  });

  for (const route of targets) {
    it(`${routeKey(route)}: refused with csrf_failed however it is forged, writing nothing`, async () => {
      const session = `session=${(await web.w.browser('admin')).cookie('session')}`;
      const url = filled(route.url);
      for (const [attack, headers] of Object.entries(ATTACKS)) {
        const mark = await web.store.mark();
        const res = await web.w.t.server.inject({
          method: route.method as 'POST',
          url,
          headers: {
            ...headers,
            cookie: [headers.cookie, session].filter(Boolean).join('; '),
            'content-type': 'application/json',
          },
          payload: '{}',
        });
        expect(res.statusCode, `${attack}: ${res.body.slice(0, 200)}`).toBe(403);
        const body = res.json();
        expect(route.url.startsWith('/trpc/') ? body.error.data.app.error : body.r.error, attack).toBe('csrf_failed');
        expect(await web.store.changedSince(mark), attack).toEqual([]);
      }
      // The same request, sent as the page sends it, gets past the check: the refusals above are the CSRF check's.
      const genuine = await web.w.t.server.inject({
        method: route.method as 'POST',
        url,
        headers: {
          cookie: `csrf=${GOOD}; ${session}`,
          'x-requested-with': 'XMLHttpRequest',
          'x-csrf-token': GOOD,
          origin: SITE,
          'sec-fetch-site': 'same-origin',
          'content-type': 'application/json',
        },
        payload: '{}',
      });
      expect(genuine.body).not.toContain('csrf_failed');
    });
  }
});

describe('user text in the Atom feed', () => {
  it('is escaped once in the text elements and twice inside the HTML content', async () => {
    const title = '<img src=x onerror=alert(1)>';
    const name = '<script>alert(2)</script>';
    const { db } = web.w.t.deps;
    await db.update(art).set({ title, publishedAt: web.w.t.clock.now() }).where(eq(art.token, web.w.piece.artToken));
    await db.update(users).set({ firstname: name }).where(eq(users.id, web.w.people.owner.user.id));
    const feed = (await web.w.t.server.inject({ url: '/feed.xml' })).body;
    expect(feed).not.toContain(title);
    expect(feed).not.toContain(name);
    expect(feed).toContain(`<title type="text">&lt;img src=x onerror=alert(1)&gt;</title>`);
    expect(feed).toContain('<name>&lt;script&gt;alert(2)&lt;/script&gt;');
    // Inside type="html" content the title is an attribute of the HTML, so a reader decoding the XML still gets text.
    expect(feed).toContain('alt=&quot;&amp;lt;img src=x onerror=alert(1)&amp;gt;&quot;');
  });
});
