/**
 * Web security over HTTP (decisions 001, 004, 021): host names (DNS rebinding), the Content Security Policy and the
 * usual headers on pages, API answers and media, and the cookies' attributes.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildApp, type App } from '#server/app.ts';
import { loadConfig } from '#server/config.ts';
import { tempDir } from '#tests/helpers/server/test-app.ts';
import type { FastifyRequest } from 'fastify';
import { csrfRefusal } from '#server/http/csrf.ts';
import { GOOD, SITE, useWebSecurityApp } from '#tests/helpers/server/web-security-app.ts';

const web = useWebSecurityApp();

/**
 * Headers every answer carries, whatever it is. Pictures may be shown by other sites (decision 046): their
 * Cross-Origin-Resource-Policy is cross-origin.
 */
function expectSecurityHeaders(headers: Record<string, unknown>, what: string, resourcePolicy = 'same-origin') {
  const csp = typeof headers['content-security-policy'] === 'string' ? headers['content-security-policy'] : '';
  for (const directive of [
    "default-src 'self'",
    "script-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ]) {
    expect(csp, `${what}: ${directive}`).toContain(directive);
  }
  expect(csp, what).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
  expect(headers['x-content-type-options'], what).toBe('nosniff');
  expect(headers['x-frame-options'], what).toBeDefined();
  expect(headers['referrer-policy'], what).toBeDefined();
  expect(headers['cross-origin-opener-policy'], what).toBe('same-origin');
  expect(headers['cross-origin-resource-policy'], what).toBe(resourcePolicy);
  expect(headers['x-powered-by'], what).toBeUndefined();
}

describe('host names (DNS rebinding)', () => {
  it('refuses a host name that is not the site’s with 421, in the envelope on the API, before anything is read', async () => {
    for (const host of ['evil.example', 'evil.example:3000', 'localhost.evil.example']) {
      const api = await web.w.t.server.inject({
        url: '/api/user/current',
        headers: { host, cookie: `session=${(await web.w.browser('admin')).cookie('session')}` },
      });
      expect(api.statusCode, host).toBe(421);
      expect(api.json(), host).toEqual({
        r: { error: 'bad_request', message: 'This server does not answer for that host name.' },
      });
      expectSecurityHeaders(api.headers, host);
      const page = await web.w.t.server.inject({ url: '/', headers: { host } });
      expect(page.statusCode, host).toBe(421);
      expect(page.body).not.toContain('csrf-token');
    }
  });

  it('takes a write’s Origin as the site’s only when it is SITE_URL’s, or an address’s own that no page elsewhere can have', () => {
    const write = (host: string, origin: string) =>
      csrfRefusal(
        {
          method: 'POST',
          protocol: 'http',
          headers: { host, origin, 'x-requested-with': 'XMLHttpRequest', 'x-csrf-token': GOOD },
          cookies: { csrf: GOOD },
        } as unknown as FastifyRequest,
        [SITE],
      );
    expect(write('localhost:3000', SITE)).toBeNull();
    expect(write('127.0.0.1:3000', 'http://127.0.0.1:3000')).toBeNull();
    // A page on a name made to resolve here: its Origin matches its Host, and is still foreign.
    expect(write('rebound.example:3000', 'http://rebound.example:3000')).toBe('foreign_origin');
    expect(write('127.0.0.1:3000', 'http://127.0.0.1:4000')).toBe('foreign_origin');
  });

  it('serves the site’s own host name, localhost and IP addresses, whatever the port', async () => {
    for (const host of ['localhost:3000', 'LOCALHOST', '127.0.0.1:8080', '10.1.2.3', '[::1]:3000']) {
      expect((await web.w.t.server.inject({ url: '/api/health', headers: { host } })).statusCode, host).toBe(200);
    }
  });
});

describe('security headers on pages, API answers and media', () => {
  const answers: [string, () => string, number][] = [
    ['the welcome page', () => '/', 200],
    ['an art details page (with its Open Graph head)', () => `/observe/cell/${web.w.piece.cellToken}/details`, 200],
    ['a REST answer', () => `/api/cell/${web.w.piece.cellToken}`, 200],
    ['a REST refusal', () => '/api/cell/short', 400],
    ['an unknown /api path', () => '/api/no/such/path', 404],
    [
      'a tRPC answer',
      () => `/trpc/cell.get?input=${encodeURIComponent(JSON.stringify({ token: web.w.piece.cellToken }))}`,
      200,
    ],
    ['a tree snapshot', () => `/api/tree/${web.w.treeToken}`, 200],
    ['a media file', () => web.mediaUrl, 200],
    ['a missing media file', () => `/media/${'0'.repeat(32)}-thumb.webp`, 404],
  ];
  for (const [what, url, status] of answers) {
    it(`${what} carries the CSP and the usual headers, and no HSTS over plain http`, async () => {
      const res = await web.w.t.server.inject({ url: url() });
      expect(res.statusCode).toBe(status);
      expectSecurityHeaders(res.headers, what, what.includes('media') ? 'cross-origin' : 'same-origin');
      expect(res.headers['strict-transport-security']).toBeUndefined();
    });
  }

  // The exact set @fastify/helmet sent with our options before the headers were built once at start (decision 021).
  const POLICY =
    "default-src 'self';script-src 'self';style-src 'self' 'unsafe-inline';img-src 'self' data: blob:;font-src 'self' data:;" +
    "connect-src 'self' data:;worker-src 'self' blob:;object-src 'none';base-uri 'self';form-action 'self';frame-ancestors 'none'";
  const HARDENING = {
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'origin-agent-cluster': '?1',
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'x-dns-prefetch-control': 'off',
    'x-download-options': 'noopen',
    'x-frame-options': 'SAMEORIGIN',
    'x-permitted-cross-domain-policies': 'none',
    'x-xss-protection': '0',
  };
  for (const siteUrl of ['http://localhost:3000', 'https://gallery.example']) {
    const https = siteUrl.startsWith('https://');
    it(`sends exactly the same security headers on a page, an answer, a refusal and a CSRF refusal for ${siteUrl}`, async () => {
      const { app, dir } = await siteAt(siteUrl);
      try {
        const expected = {
          'content-security-policy': https ? `${POLICY};upgrade-insecure-requests` : POLICY,
          ...HARDENING,
          ...(https ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' } : {}),
        };
        const answers = [
          await app.server.inject({ url: '/' }),
          await app.server.inject({ url: '/api/cell/short' }),
          await app.server.inject({ url: '/api/no/such/path' }),
          await app.server.inject({ method: 'POST', url: '/api/auth/logout' }),
        ];
        expect(answers.map((res) => res.statusCode)).toEqual([200, 400, 404, 403]);
        for (const res of answers) {
          const security = Object.fromEntries(
            Object.entries(res.headers).filter(
              ([name]) => name in expected || name === 'strict-transport-security' || name === 'x-powered-by',
            ),
          );
          expect(security, res.raw.req.url).toEqual(expected);
        }
      } finally {
        await app.stop();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  }

  it('serves media as the image it is, cached for good, never sniffed into something else', async () => {
    const res = await web.w.t.server.inject({ url: web.mediaUrl });
    expect(res.headers['content-type']).toBe('image/webp');
    expect(String(res.headers['cache-control'])).toMatch(/immutable/);
  });
});

/** The attributes of the named cookie in a Set-Cookie answer, lower-cased, or null when it is not set. */
function cookieAttributes(
  setCookie: string | string[] | undefined,
  name: string,
): { value: string; attributes: Map<string, string> } | null {
  const line = ([] as string[]).concat(setCookie ?? []).find((c) => c.startsWith(`${name}=`));
  if (!line) return null;
  const [pair, ...rest] = line.split(';').map((part) => part.trim());
  const attributes = new Map(
    rest.map((part) => [part.split('=')[0]!.toLowerCase(), part.split('=').slice(1).join('=')] as [string, string]),
  );
  return { value: pair!.slice(name.length + 1), attributes };
}

async function siteAt(siteUrl: string): Promise<{ app: App; dir: string }> {
  const dir = tempDir('gallery-cookies-');
  const config = {
    ...loadConfig({ DATA_DIR: dir, SITE_URL: siteUrl, LOG_LEVEL: 'silent', NODE_ENV: 'test' }),
    runJobs: false,
  };
  return { app: await buildApp(config), dir };
}

describe('cookies', () => {
  for (const siteUrl of ['http://localhost:3000', 'https://gallery.example']) {
    const secure = siteUrl.startsWith('https://');
    it(`are HttpOnly, SameSite=Lax, Path=/ and ${secure ? '' : 'not '}Secure for ${siteUrl}`, async () => {
      const { app, dir } = await siteAt(siteUrl);
      try {
        const page = await app.server.inject({ url: '/' });
        const csrf = cookieAttributes(page.headers['set-cookie'], 'csrf')!;
        const registered = await app.server.inject({
          method: 'POST',
          url: '/api/register',
          headers: {
            cookie: `csrf=${csrf.value}`,
            'x-requested-with': 'XMLHttpRequest',
            'x-csrf-token': csrf.value,
            origin: siteUrl,
            'content-type': 'application/json',
          },
          payload: JSON.stringify({
            firstname: 'Cookie',
            lastname: 'Test',
            email: 'cookie@web.test',
            password: 'abc&123',
          }),
        });
        expect(registered.statusCode).toBe(200);
        const session = cookieAttributes(registered.headers['set-cookie'], 'session')!;
        for (const [name, cookie] of [
          ['csrf', csrf],
          ['session', session],
        ] as const) {
          expect(cookie, name).not.toBeNull();
          expect(cookie.attributes.has('httponly'), `${name} HttpOnly`).toBe(true);
          expect(cookie.attributes.get('samesite')?.toLowerCase(), `${name} SameSite`).toBe('lax');
          expect(cookie.attributes.get('path'), `${name} Path`).toBe('/');
          expect(cookie.attributes.has('secure'), `${name} Secure`).toBe(secure);
        }
        // The session lasts 30 days without use (decision 001); its secret never appears in the page.
        expect(Number(session.attributes.get('max-age'))).toBeGreaterThan(30 * 24 * 60 * 60 - 60);
        expect(Number(session.attributes.get('max-age'))).toBeLessThanOrEqual(30 * 24 * 60 * 60);
        expect(session.value).toMatch(/^[\w-]+\.[\w-]+$/);
        expect(page.headers['strict-transport-security'] !== undefined).toBe(secure);
        expect(String(page.headers['content-security-policy']).includes('upgrade-insecure-requests')).toBe(secure);

        // Logging out clears the session cookie on the same path.
        const out = await app.server.inject({
          method: 'POST',
          url: '/api/auth/logout',
          headers: {
            cookie: `csrf=${csrf.value}; session=${session.value}`,
            'x-requested-with': 'XMLHttpRequest',
            'x-csrf-token': csrf.value,
            origin: siteUrl,
          },
        });
        expect(out.statusCode).toBe(200);
        const cleared = cookieAttributes(out.headers['set-cookie'], 'session')!;
        expect(cleared.value).toBe('');
        expect(cleared.attributes.get('path')).toBe('/');
      } finally {
        await app.stop();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
