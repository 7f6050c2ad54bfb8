/**
 * The example answers cannot drift from the server: each declared /api path (decision 036) carries one, which
 * docs/api.md shows (api-docs.test.ts holds the page to the declarations), and each has the shape of the live answer
 * of a real server on a real database (same keys, same kinds of value at every level; tokens, dates and counts
 * differ), with every key in snake_case. A path without a live call here, or a call for no declared path, fails.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { art, cells, mailOutbox, reservations, users } from '#drizzle/tables.ts';
import { CellStatus } from '#shared/domain.ts';
import { restRoutes } from '#server/rest/routes.ts';
import { reserveCell } from '#server/services/reservations/reservations.ts';
import { reindexArt } from '#server/services/search/search.ts';
import { artForm, png, postForm, validFields } from '../helpers/art-fixtures.ts';
import { createApiWorld, PIECE_ROW, type ApiWorld, type Asker } from '../helpers/server/api-world.ts';
import { openStream } from '../helpers/event-stream.ts';
import { keysOf, shapeDifferences } from '../helpers/server/json-shape.ts';
import { PROFILE_FIELDS } from '../helpers/server/profile-contracts.ts';
import { activeReservationOf } from '../helpers/server/reservation-fixtures.ts';
import { declaredKey, rowFor, tableAgainstDeclared } from '../helpers/server/route-inventory.ts';
import { oneRow } from '#tests/helpers/server/rows.ts';

/** Each declared route's example, keyed `GET /api/cell/:cellToken` as the route tables of the tests name a route. */
const EXAMPLES = restRoutes().map((route) => ({
  key: declaredKey(route),
  method: route.method,
  example: route.example,
}));
const SNAKE_CASE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;

let w: ApiWorld;
beforeAll(async () => {
  w = await createApiWorld();
  await enrich(w);
}, 60_000);
afterAll(() => w.t.cleanup());

/** Gives every list a documented example shows at least one item: a filled-in piece, a connection, a follow. */
async function enrich(world: ApiWorld): Promise<void> {
  const { db } = world.t.deps;
  const details = {
    category: 'Painting',
    subject: 'Landscape',
    style: 'Impressionism',
    medium: ['Oil'],
    materials: ['Canvas'],
    keywords: ['dusk'],
  };
  const size = { description: 'The river at dusk, from the old bridge.', width: '24', height: '18', depth: '1' };
  await db
    .update(art)
    .set({ ...details, ...size })
    .where(eq(art.token, world.piece.artToken));
  const place = {
    zipcode: '97201',
    city: 'Portland',
    state: 'OR',
    country: 'US',
    description: 'I paint rivers.',
    personalUrl: 'https://maya.example.com',
  };
  await db.update(users).set(place).where(eq(users.id, world.people.owner.user.id));
  // Both pieces went live a day apart, so the growth history has them.
  await db
    .update(art)
    .set({ publishedAt: Date.UTC(2026, 0, 1) })
    .where(eq(art.token, world.neighbour.artToken));
  await db
    .update(art)
    .set({ publishedAt: Date.UTC(2026, 0, 2) })
    .where(eq(art.token, world.piece.artToken));
  await reindexArt(
    db,
    (await oneRow(db.select({ id: art.id }).from(art).where(eq(art.token, world.piece.artToken)))).id,
  );
  const owner = await world.browser('owner');
  const saved = await owner.post(`/api/cell/${world.piece.cellToken}/connections`, {
    connections: [{ token: world.neighbour.cellToken, status: 1, description: 'The same river, upstream.' }],
  });
  expect(saved.status).toBe(200);
  const observer = await world.browser('observer');
  const followed = await observer.request(
    'PUT',
    `/api/user/${world.people.observer.user.token}/follow/${world.people.owner.user.token}`,
  );
  expect(followed.status).toBe(200);
}

const as = (asker: Asker) => w.browser(asker);
const body = async (answer: Promise<{ body: unknown }>) => (await answer).body;
const token = (asker: Exclude<Asker, 'guest'>) => w.people[asker].user.token;
/** An AVAILABLE square of the tree (a call that reserves it makes the next call find another). */
const freeSquare = async () =>
  (
    await oneRow(
      w.t.deps.db
        .select({ token: cells.token })
        .from(cells)
        .where(and(eq(cells.treeId, w.treeId), eq(cells.status, CellStatus.Available))),
    )
  ).token;
let registered = 0;
const newEmail = () => `example${++registered}@examples.test`;

/** The live answer of each /api path, from a call that succeeds. */
const LIVE: Record<string, () => Promise<unknown>> = {
  'GET /api/health': async () => body((await as('guest')).get('/api/health')),
  'GET /api/initial-params': async () => body((await as('guest')).get('/api/initial-params')),
  'GET /api/tree/:treeToken': async () => body((await as('guest')).get(`/api/tree/${w.treeToken}`)),
  'GET /api/tree/:treeToken/changes': async () => {
    const { version } = ((await (await as('guest')).get(`/api/tree/${w.treeToken}`)).body as { r: { version: number } })
      .r;
    const { user } = await w.newcomer();
    await reserveCell(w.t.deps, user, await freeSquare());
    return body((await as('guest')).get(`/api/tree/${w.treeToken}/changes?since=${version}`));
  },
  'GET /api/tree/:treeToken/events': async () => {
    if (!w.t.server.server.listening) await w.t.server.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(w.t.server.server.address() as AddressInfo).port}`;
    const stream = await openStream(base, `/api/tree/${w.treeToken}/events`);
    try {
      const { user } = await w.newcomer();
      await reserveCell(w.t.deps, user, await freeSquare());
      return JSON.parse((await stream.next((event) => event.event === 'changes')).data);
    } finally {
      stream.close();
    }
  },
  'GET /api/tree/:treeToken/history': async () => body((await as('guest')).get(`/api/tree/${w.treeToken}/history`)),
  'GET /api/tree/:treeToken/region': async () =>
    body(
      (await as('guest')).get(`/api/tree/${w.treeToken}/region?row0=${PIECE_ROW - 1}&row1=${PIECE_ROW}&col0=0&col1=1`),
    ),
  'GET /api/cells/search': async () => body((await as('guest')).get('/api/cells/search?search=Neighbour')),
  'GET /api/cell/:cellToken': async () => body((await as('guest')).get(`/api/cell/${w.piece.cellToken}`)),
  'POST /api/cell/:cellToken': async () => {
    const { browser } = await w.newcomer();
    const form = artForm(validFields(), [{ bytes: await png(), name: 'a.png', type: 'image/png' }]);
    return (await postForm(w.t, browser, `/api/cell/${await freeSquare()}`, form)).body;
  },
  'GET /api/cell/:cellToken/art': async () => body((await as('guest')).get(`/api/cell/${w.piece.cellToken}/art`)),
  'GET /api/cell/:cellToken/art/edit': async () =>
    body((await as('owner')).get(`/api/cell/${w.piece.cellToken}/art/edit`)),
  'GET /api/cell/:cellToken/connections': async () =>
    body((await as('owner')).get(`/api/cell/${w.piece.cellToken}/connections`)),
  'GET /api/cell/:cellToken/connections/active': async () =>
    body((await as('guest')).get(`/api/cell/${w.piece.cellToken}/connections/active`)),
  'POST /api/cell/:cellToken/connections': async () =>
    body(
      (await as('owner')).post(`/api/cell/${w.piece.cellToken}/connections`, {
        connections: [{ token: w.neighbour.cellToken, status: 1, description: 'The same river, upstream.' }],
      }),
    ),
  'POST /api/cell/:cellToken/removal': async () =>
    body((await as('owner')).post(`/api/cell/${w.piece.cellToken}/removal`, { reason: 'I painted over it.' })),
  'POST /api/cell/:cellToken/reserve': async () =>
    body((await w.newcomer()).browser.post(`/api/cell/${await freeSquare()}/reserve`)),
  'GET /api/cell/:cellToken/reserve/:reserveId': async () =>
    body((await as('owner')).get(`/api/cell/${w.holding.cellToken}/reserve/${w.holding.reminderToken}`)),
  'POST /api/cell/:cellToken/reserve/:reserveId': async () => {
    const { browser, user } = await w.newcomer();
    const square = await freeSquare();
    await reserveCell(w.t.deps, user, square);
    const held = (await activeReservationOf(w.t.deps.db, user.id))!;
    const now = w.t.clock.now();
    // A reminder went out three days before the deadline: the extension is allowed now.
    await w.t.deps.db
      .update(reservations)
      .set({ reminderCount: 1, updatedAt: now, expiresAt: now + 3 * 86_400_000 })
      .where(eq(reservations.id, held.id));
    return body(browser.post(`/api/cell/${square}/reserve/${held.token}`));
  },
  'POST /api/cell/:cellToken/subscribe/available': async () =>
    body((await w.newcomer()).browser.post(`/api/cell/${(await w.cell(PIECE_ROW + 6, 1)).token}/subscribe/available`)),
  'POST /api/cell/subscribe/available': async () =>
    body((await w.newcomer()).browser.post('/api/cell/subscribe/available')),
  'POST /api/branch/reserve': async () =>
    body(
      (await w.newcomer()).browser.post('/api/branch/reserve', {
        treeToken: w.treeToken,
        row: PIECE_ROW + 1,
        column: -1,
      }),
    ),
  'GET /api/art/:artToken/like': async () => body((await as('observer')).get(`/api/art/${w.piece.artToken}/like`)),
  'PUT /api/art/:artToken/like': async () =>
    body((await as('artist')).request('PUT', `/api/art/${w.piece.artToken}/like`)),
  'DELETE /api/art/:artToken/like': async () =>
    body((await as('artist')).request('DELETE', `/api/art/${w.piece.artToken}/like`)),
  'PUT /api/art/:artToken/review': async () =>
    body((await as('guest')).request('PUT', `/api/art/${w.piece.artToken}/review`)),
  'GET /api/user/current': async () => body((await as('observer')).get('/api/user/current')),
  'POST /api/register': async () =>
    body(
      (await as('guest')).post('/api/register', {
        firstname: 'Ada',
        lastname: 'Lane',
        email: newEmail(),
        password: 'abc&123',
      }),
    ),
  'POST /api/auth/login': async () => {
    const email = newEmail();
    await (await as('guest')).post('/api/register', { firstname: 'Bo', lastname: 'Lane', email, password: 'abc&123' });
    return body((await as('guest')).post('/api/auth/login', { username: email, password: 'abc&123' }));
  },
  'POST /api/auth/logout': async () => body((await w.newcomer()).browser.post('/api/auth/logout')),
  'POST /api/password/reset': async () =>
    body((await as('guest')).post('/api/password/reset', { username: 'nobody@examples.test' })),
  'POST /api/password/restore/:token': async () => {
    const email = newEmail();
    await (await as('guest')).post('/api/register', { firstname: 'Cy', lastname: 'Lane', email, password: 'abc&123' });
    await (await as('guest')).post('/api/password/reset', { username: email });
    const mail = (await w.t.deps.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email))).at(-1)!;
    const reset = /\/restore-password\/([\w-]+)/.exec(mail.textBody)![1]!;
    return body((await as('guest')).post(`/api/password/restore/${reset}`, { password: 'new&better9' }));
  },
  'POST /api/misc/contact': async () =>
    body(
      (await as('guest')).post('/api/misc/contact', {
        subject: 'Hi',
        reason: 'Question',
        email: 'me@examples.test',
        message: 'How do branches grow?',
      }),
    ),
  'GET /api/misc/zip/:zip': async () => body((await as('guest')).get('/api/misc/zip/10001')),
  'POST /api/user/:token/account': async () => {
    const { browser, user } = await w.newcomer();
    const fields = {
      firstname: 'New',
      lastname: 'Name',
      email: user.email,
      show_email: true,
      password: '',
      confirm_password: '',
    };
    return body(browser.post(`/api/user/${user.token}/account`, fields));
  },
  'GET /api/user/:token/reserve': async () => body((await as('owner')).get(`/api/user/${token('owner')}/reserve`)),
  'GET /api/user/:token/profile': async () => body((await as('guest')).get(`/api/user/${token('owner')}/profile`)),
  'POST /api/user/:token/profile': async () => {
    const { browser, user } = await w.newcomer();
    return (await postForm(w.t, browser, `/api/user/${user.token}/profile`, artForm(PROFILE_FIELDS))).body;
  },
  'GET /api/user/:token/fullprofile': async () =>
    body((await as('owner')).get(`/api/user/${token('owner')}/fullprofile`)),
  'GET /api/user/:token/art': async () => body((await as('owner')).get(`/api/user/${token('owner')}/art`)),
  'GET /api/user/:token/art/published': async () =>
    body((await as('guest')).get(`/api/user/${token('owner')}/art/published`)),
  'GET /api/user/:userToken/like/:otherToken': async () =>
    body((await as('observer')).get(`/api/user/${token('observer')}/like/${token('owner')}`)),
  'PUT /api/user/:userToken/like/:otherToken': async () =>
    body((await as('artist')).request('PUT', `/api/user/${token('artist')}/like/${token('owner')}`)),
  'DELETE /api/user/:userToken/like/:otherToken': async () =>
    body((await as('artist')).request('DELETE', `/api/user/${token('artist')}/like/${token('owner')}`)),
  'GET /api/user/:token/follow': async () => body((await as('observer')).get(`/api/user/${token('observer')}/follow`)),
  'GET /api/user/:token/follow/:otherToken': async () =>
    body((await as('observer')).get(`/api/user/${token('observer')}/follow/${token('owner')}`)),
  'PUT /api/user/:token/follow/:otherToken': async () => {
    const { browser, user } = await w.newcomer();
    return body(browser.request('PUT', `/api/user/${user.token}/follow/${token('owner')}`));
  },
  'DELETE /api/user/:token/follow/:otherToken': async () => {
    const { browser, user } = await w.newcomer();
    await browser.request('PUT', `/api/user/${user.token}/follow/${token('owner')}`);
    return body(browser.request('DELETE', `/api/user/${user.token}/follow/${token('owner')}`));
  },
};

describe('the example answers of docs/api.md', () => {
  it('have a live call here for every declared /api path, and none for a path not declared', () => {
    expect(tableAgainstDeclared(LIVE, restRoutes()), 'live calls: missing, or naming no declared path').toEqual({
      missing: [],
      stale: [],
    });
  });

  it('name every field in snake_case', () => {
    const problems = EXAMPLES.flatMap((example) =>
      keysOf(example.example)
        .filter(({ key }) => !SNAKE_CASE.test(key))
        .map(({ at }) => `${example.key}: ${at}`),
    );
    expect(problems).toEqual([]);
  });

  for (const example of EXAMPLES) {
    it(`${example.key} has the shape of the live answer`, async () => {
      const call = rowFor(LIVE, { method: example.method, url: example.key.split(' ')[1]! });
      expect(call, `no live call for ${example.key} in this test`).toBeDefined();
      const live = await call!();
      expect(shapeDifferences(example.example, live)).toEqual([]);
    });
  }
});
