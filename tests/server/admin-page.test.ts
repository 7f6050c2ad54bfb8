/**
 * The dashboard's page (decision 013): /admin/dashboard and its section paths serve the admin entry's HTML,
 * with the CSRF meta tag and initial parameters, to admins only; everyone else (a guest included) is sent to the
 * app's forbidden page and never receives the dashboard's page.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '#shared/domain.ts';
import { createTree } from '#server/services/tree/tree.ts';
import { createTestApp, tempDir, type TestApp } from '#tests/helpers/server/test-app.ts';

let t: TestApp;

const page = (title: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><div id="root"></div></body></html>`;

beforeAll(async () => {
  const clientDir = tempDir('gallery-client-');
  fs.writeFileSync(path.join(clientDir, 'index.html'), page('the app'));
  fs.mkdirSync(path.join(clientDir, 'admin'));
  fs.writeFileSync(path.join(clientDir, 'admin', 'index.html'), page('the dashboard'));
  t = await createTestApp({ clientDir });
  await createTree(t.deps.db, t.clock.now(), 'Dashboard tree');
});
afterAll(() => t.cleanup());

describe('the dashboard page', () => {
  it('serves the admin entry to an admin, with the CSRF token and initial parameters, never cached', async () => {
    const { cookie } = await t.addUser(Role.Admin);
    for (const url of ['/admin/dashboard', '/admin/dashboard/review', '/admin/dashboard/review/some-art-token']) {
      const res = await t.server.inject({ url, headers: { cookie } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toContain('<title>the dashboard</title>');
      expect(res.body).toMatch(/<meta name="csrf-token" content="[^"]{16,}">/);
      expect(res.body).toMatch(/<script id="initial-params" type="application\/json">\{.*"treeToken":/);
    }
  });

  it.each([
    ['a guest', null],
    ['an observer', Role.Observer],
    ['an artist', Role.Artist],
  ])('sends %s to the forbidden page without the dashboard', async (_who, role) => {
    const headers = role === null ? {} : { cookie: (await t.addUser(role)).cookie };
    for (const url of ['/admin/dashboard', '/admin/dashboard/users']) {
      const res = await t.server.inject({ url, headers });
      expect(res.statusCode, url).toBe(302);
      expect(res.headers.location).toBe('/forbidden');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).not.toContain('the dashboard');
    }
  });

  it('leaves the app’s own pages to the app', async () => {
    const res = await t.server.inject({ url: '/forbidden' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<title>the app</title>');
  });
});
