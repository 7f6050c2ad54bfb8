import fs from 'node:fs';
import path from 'node:path';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '#shared/domain.ts';
import { loadConfig } from '#server/config.ts';
import { initialParams } from '#server/services/tree/initial-params.ts';
import { createTree } from '#server/services/tree/tree.ts';
import { createTestApp, csrfHeaders, tempDir, type TestApp } from '#tests/helpers/server/test-app.ts';

let t: TestApp;
let treeToken: string;

beforeAll(async () => {
  const clientDir = tempDir('gallery-client-');
  fs.writeFileSync(
    path.join(clientDir, 'index.html'),
    '<!doctype html><html><head><title>x</title></head><body><div id="root"></div></body></html>',
  );
  t = await createTestApp({ clientDir });
  treeToken = (await createTree(t.deps.db, t.clock.now(), 'Shell tree')).token;
});
afterAll(() => t.cleanup());

function csrfFrom(setCookie: string | string[] | undefined): string {
  const all = Array.isArray(setCookie) ? setCookie : [setCookie ?? ''];
  const match = all.map((c) => /^csrf=([^;]+)/.exec(c)).find(Boolean);
  if (!match) throw new Error('no csrf cookie');
  return match[1]!;
}

describe('pages', () => {
  it('serves the client with the CSRF meta tag and the initial parameters injected', async () => {
    const res = await t.server.inject({ url: '/observe' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    const token = csrfFrom(res.headers['set-cookie']);
    expect(res.body).toContain(`<meta name="csrf-token" content="${token}">`);
    const json = /<script id="initial-params" type="application\/json">(.*?)<\/script>/.exec(res.body)![1]!;
    const params = JSON.parse(json);
    expect(params.treeToken).toBe(treeToken);
    expect(params.settings).toMatchObject({
      imagePath: '/media/',
      helpEmail: expect.stringContaining('@'),
      siteUrl: expect.stringMatching(/^http/),
      liveTransport: 'events',
    });
  });

  it('tells the page how to follow the live tree, as LIVE_TRANSPORT says (events unless poll is asked)', async () => {
    expect(loadConfig({}).liveTransport).toBe('events');
    expect(loadConfig({ LIVE_TRANSPORT: 'poll' }).liveTransport).toBe('poll');
    expect(() => loadConfig({ LIVE_TRANSPORT: 'websocket' })).toThrow(/^Invalid environment variable LIVE_TRANSPORT/);
    const config = { ...t.deps.config, liveTransport: 'poll' as const };
    expect((await initialParams({ db: t.deps.db, media: t.deps.media, config })).settings.liveTransport).toBe('poll');
  });

  it('sends the usual security headers and a Content Security Policy', async () => {
    const res = await t.server.inject({ url: '/' });
    const csp = res.headers['content-security-policy'] as string;
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBeDefined();
  });

  it('keeps the CSRF cookie HttpOnly and SameSite=Lax, and reuses it on later pages', async () => {
    const first = await t.server.inject({ url: '/' });
    const cookie = ([] as string[]).concat(first.headers['set-cookie'] as string).find((c) => c.startsWith('csrf='))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    const token = csrfFrom(cookie);
    const second = await t.server.inject({ url: '/learn', headers: { cookie: `csrf=${token}` } });
    expect(second.headers['set-cookie']).toBeUndefined();
    expect(second.body).toContain(`content="${token}"`);
  });

  it('escapes the initial parameters so no string can close the script element', async () => {
    const { jsonForScript } = await import('#server/http/index-html.ts');
    expect(jsonForScript({ a: '</script><script>alert(1)</script>' })).not.toContain('</script>');
  });
});

describe('CSRF on mutating requests', () => {
  const token = 'A'.repeat(32);

  it('refuses a REST write without the token, without X-Requested-With, or with the wrong token', async () => {
    for (const headers of [
      {},
      { 'x-csrf-token': token, cookie: `csrf=${token}` },
      { 'x-requested-with': 'XMLHttpRequest', 'x-csrf-token': 'B'.repeat(32), cookie: `csrf=${token}` },
      { 'x-requested-with': 'XMLHttpRequest', 'x-csrf-token': token },
    ]) {
      const res = await t.server.inject({ method: 'POST', url: '/api/anything', headers });
      expect(res.statusCode).toBe(403);
      expect(res.json().r.error).toBe('csrf_failed');
    }
  });

  it('refuses a request from a foreign origin even with the right token', async () => {
    const res = await t.server.inject({
      method: 'POST',
      url: '/api/anything',
      headers: { ...csrfHeaders(token), origin: 'https://evil.example' },
    });
    expect(res.statusCode).toBe(403);
    const site = await t.server.inject({
      method: 'DELETE',
      url: '/api/anything',
      headers: { ...csrfHeaders(token), 'sec-fetch-site': 'cross-site' },
    });
    expect(site.statusCode).toBe(403);
  });

  it('lets a same-origin request with the token through to the route', async () => {
    const res = await t.server.inject({
      method: 'POST',
      url: '/api/anything',
      headers: { ...csrfHeaders(token), origin: 'http://localhost:3000', 'sec-fetch-site': 'same-origin' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().r.error).toBe('not_found');
  });

  it('guards tRPC the same way, answering in tRPC error form', async () => {
    const refused = await t.server.inject({ method: 'POST', url: '/trpc/tree.get', payload: {} });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.data.app.error).toBe('csrf_failed');
    const passed = await t.server.inject({
      method: 'POST',
      url: '/trpc/tree.get',
      payload: {},
      headers: csrfHeaders(token),
    });
    expect(passed.statusCode).not.toBe(403);
  });
});

describe('sessions', () => {
  it('answers the signed-in user for a valid session cookie and 401 for a guest', async () => {
    const { user, cookie } = await t.addUser(Role.Artist);
    const res = await t.server.inject({ url: '/api/user/current', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.json().r).toMatchObject({
      token: user.token,
      firstname: user.firstname,
      role: Role.Artist,
      image: null,
    });
    expect(res.json().r.passwordHash).toBeUndefined();
    const guest = await t.server.inject({ url: '/api/user/current' });
    expect(guest.statusCode).toBe(401);
    expect(guest.json()).toEqual({ r: { error: 'unauthenticated', message: 'Nobody is signed in.' } });
  });

  it('treats a forged or expired session as a guest and clears the cookie', async () => {
    const { cookie } = await t.addUser();
    const forged = cookie.replace(/\.(.)/, (_m, c: string) => `.${c === 'a' ? 'b' : 'a'}`);
    const res = await t.server.inject({ url: '/api/user/current', headers: { cookie: forged } });
    expect(res.statusCode).toBe(401);
    expect(String(res.headers['set-cookie'])).toMatch(/session=;/);
    t.clock.advance(31 * 24 * 60 * 60 * 1000);
    const expired = await t.server.inject({ url: '/api/user/current', headers: { cookie } });
    expect(expired.statusCode).toBe(401);
  });

  it('moves the horizon of a session in use and sends the cookie again', async () => {
    const { cookie } = await t.addUser();
    t.clock.advance(2 * 60 * 60 * 1000);
    const res = await t.server.inject({ url: '/api/user/current', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    const refreshed = String(res.headers['set-cookie']);
    expect(refreshed).toMatch(/session=[^;]+; Max-Age=2592000/);
    expect(refreshed).toMatch(/HttpOnly/);
  });
});

describe('files', () => {
  it('serves built assets with long-lived caching, and 404 (not the page) for a missing asset or medium', async () => {
    const assets = path.join(t.deps.config.clientDir, 'assets');
    fs.writeFileSync(path.join(assets, 'app-abc123.js'), 'console.log(1)');
    const js = await t.server.inject({ url: '/assets/app-abc123.js' });
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toMatch(/javascript/);
    expect(js.headers['cache-control']).toMatch(/immutable/);
    for (const url of ['/assets/missing-1.js', '/media/nothing-thumb.webp']) {
      const missing = await t.server.inject({ url });
      expect(missing.statusCode).toBe(404);
      expect(missing.headers['content-type']).toMatch(/json/);
    }
  });
});

describe('tRPC misused', () => {
  const csrf = 'm'.repeat(32);
  const writer = { cookie: `csrf=${csrf}`, 'x-requested-with': 'XMLHttpRequest', 'x-csrf-token': csrf };
  const cases: [string, InjectOptions, number, string][] = [
    ['a mutation called with GET', { url: '/trpc/auth.logout' }, 405, 'method_not_allowed'],
    [
      'a query called with POST',
      {
        method: 'POST',
        url: '/trpc/misc.initialParams',
        headers: { ...writer, 'content-type': 'application/json' },
        payload: '{}',
      },
      405,
      'method_not_allowed',
    ],
    [
      'a body that is not JSON',
      {
        method: 'POST',
        url: '/trpc/auth.login',
        headers: { ...writer, 'content-type': 'text/plain' },
        payload: 'username=a',
      },
      415,
      'unsupported_media_type',
    ],
    [
      'JSON that does not parse',
      {
        method: 'POST',
        url: '/trpc/auth.login',
        headers: { ...writer, 'content-type': 'application/json' },
        payload: '{"username": <script>',
      },
      400,
      'bad_request',
    ],
    [
      'a batch that is not an object',
      {
        method: 'POST',
        url: '/trpc/auth.login,auth.login?batch=1',
        headers: { ...writer, 'content-type': 'application/json' },
        payload: '"<b>x</b>"',
      },
      400,
      'bad_request',
    ],
    [
      'a batch whose input does not parse',
      { url: '/trpc/tree.get,tree.get?batch=1&input=%7B%3Cscript%3E' },
      400,
      'bad_request',
    ],
  ];
  for (const [what, request, status, code] of cases) {
    it(`answers ${what} with ${status} in tRPC's error shape, in our words, with the security headers`, async () => {
      const res = await t.server.inject(request);
      expect(res.statusCode).toBe(status);
      const body = res.json();
      const errors = (Array.isArray(body) ? body : [body]) as {
        error: { message: string; data: { httpStatus: number; app: { error: string } } };
      }[];
      for (const { error } of errors) {
        expect(error.data.httpStatus).toBe(status);
        expect(error.data.app.error).toBe(code);
        // No parser's own words, and nothing of what was sent, comes back.
        expect(error.message).not.toMatch(/position|Expected|script|<b>|Unsupported|procedure at path|needs to be/);
      }
      expect(res.headers['content-security-policy']).toBeDefined();
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    });
  }
});
