/**
 * A page and a server one version apart (decision 041): every tRPC answer names the client build the server hands
 * out now, the same id the app's page carries, and it follows a new build installed while the server runs; a client
 * that sends a field this server does not know yet is answered as if it had not (valibot's `v.object` leaves unknown
 * keys out), through the caller, tRPC over HTTP and REST.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_BUILD_HEADER } from '#server/http/client-build.ts';
import { createTree, getDefaultTree } from '#server/services/tree/tree.ts';
import { BrowserLike } from '#tests/helpers/server/browser-like.ts';
import { createTestApp, tempDir, type TestApp } from '#tests/helpers/server/test-app.ts';
import { cellAt } from '../helpers/server/reservation-fixtures.ts';

let t: TestApp;
let clientDir: string;
let cellToken: string;

const page = (build: string) =>
  `<!doctype html><html><head><title>Gallery Tree</title><script type="module" src="/assets/main-${build}.js"></script></head><body><div id="root"></div></body></html>`;

beforeAll(async () => {
  clientDir = tempDir('gallery-client-');
  fs.writeFileSync(path.join(clientDir, 'index.html'), page('first'));
  t = await createTestApp({ clientDir });
  const tree = (await getDefaultTree(t.deps.db)) ?? (await createTree(t.deps.db, t.clock.now(), 'Tree'));
  cellToken = (await cellAt(t.deps.db, tree.id, 33, 1))!.token;
});
afterAll(async () => {
  await t.cleanup();
  fs.rmSync(clientDir, { recursive: true, force: true });
});

const input = (value: unknown) => encodeURIComponent(JSON.stringify(value));
const pageBuild = (html: string) => /<meta name="client-build" content="([^"]+)">/.exec(html)?.[1];

describe('the client build the server hands out', () => {
  it('is named on every tRPC answer, as the page names it, and follows a new build without a restart', async () => {
    const first = pageBuild((await t.server.inject({ url: '/learn' })).body);
    expect(first).toMatch(/^[\w-]{12}$/);
    const query = await t.server.inject({ url: `/trpc/cell.get?input=${input({ token: cellToken })}` });
    expect(query.statusCode).toBe(200);
    expect(query.headers[CLIENT_BUILD_HEADER]).toBe(first);

    // A new build replaces index.html by a rename (scripts/client-build.ts).
    const next = path.join(clientDir, 'index.html.next');
    fs.writeFileSync(next, page('second'));
    fs.renameSync(next, path.join(clientDir, 'index.html'));
    const second = pageBuild((await t.server.inject({ url: '/learn' })).body);
    expect(second).toMatch(/^[\w-]{12}$/);
    expect(second).not.toBe(first);
    const batch = await t.server.inject({
      url: `/trpc/cell.get,cell.get?batch=1&input=${input({ 0: { token: cellToken }, 1: { token: cellToken } })}`,
    });
    expect(batch.headers[CLIENT_BUILD_HEADER]).toBe(second);
    // Mutations (through tRPC's own adapter) say it too.
    const browser = new BrowserLike(t.server);
    const login = await browser.post('/trpc/auth.login', { email: 'nobody@mail.test', password: 'not-the-one-1' });
    expect(login.headers[CLIENT_BUILD_HEADER]).toBe(second);
  });

  it('is not put on REST answers, which shared caches keep for everyone', async () => {
    const rest = await t.server.inject({ url: `/api/cell/${cellToken}` });
    expect(rest.statusCode).toBe(200);
    expect(rest.headers[CLIENT_BUILD_HEADER]).toBeUndefined();
  });
});

describe('a field the server does not know', () => {
  const extra = { sentByANewerPage: 'ignored', nested: { deeper: true } };

  it('is ignored by a procedure called directly', async () => {
    const plain = await t.caller().cell.get({ token: cellToken });
    expect(await t.caller().cell.get({ token: cellToken, ...extra } as { token: string })).toEqual(plain);
  });

  it('is ignored by tRPC over HTTP, in a query and in a mutation', async () => {
    const plain = await t.server.inject({ url: `/trpc/cell.get?input=${input({ token: cellToken })}` });
    const withExtra = await t.server.inject({ url: `/trpc/cell.get?input=${input({ token: cellToken, ...extra })}` });
    expect(withExtra.statusCode).toBe(200);
    expect(withExtra.body).toBe(plain.body);
    const message = {
      subject: 'A question from a newer page',
      reason: 'Question',
      email: 'visitor@mail.test',
      message: 'Does an unknown field stop my message?',
      ...extra,
    };
    const sent = await new BrowserLike(t.server).post('/trpc/misc.contact', message);
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ result: { data: { ok: true } } });
  });

  it('is ignored by the REST paths', async () => {
    const message = {
      subject: 'Another question from a newer page',
      reason: 'Question',
      email: 'visitor2@mail.test',
      message: 'And through REST?',
      ...extra,
    };
    const sent = await new BrowserLike(t.server).post('/api/misc/contact', message);
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ r: { ok: true } });
  });
});
