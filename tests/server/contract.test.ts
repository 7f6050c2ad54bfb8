/**
 * The API contract (docs/api.md) over real HTTP, for every declared /api path (decision 036): the {r: …} envelope, a
 * success with its shape, and a documented failure with its code and error shape. A declared path without a row, a
 * path the server holds without one, or a row naming no declared path fails by name; the rows of the account and
 * profile calls live in tests/helpers/server/.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { reservations } from '#drizzle/tables.ts';
import { ArtStatus, CellStatus, CellType } from '#shared/domain.ts';
import { reserveCell } from '#server/services/reservations/reservations.ts';
import { artForm, png, postForm, validFields } from '../helpers/art-fixtures.ts';
import { createApiWorld, PIECE_COLUMN, PIECE_ROW, type ApiWorld } from '../helpers/server/api-world.ts';
import { expectFailure, expectSuccess } from '../helpers/server/envelope.ts';
import { activeReservationOf, SEED_ROW } from '../helpers/server/reservation-fixtures.ts';
import { accountContracts } from '../helpers/server/account-contracts.ts';
import { type Contract, MISSING } from '../helpers/server/contract.ts';
import { profileContracts } from '../helpers/server/profile-contracts.ts';
import { restRoutes } from '#server/rest/routes.ts';
import { listApiRoutes, routeKey, rowFor, tableAgainstDeclared } from '../helpers/server/route-inventory.ts';

let w: ApiWorld;
beforeAll(async () => {
  w = await createApiWorld();
}, 60_000);
afterAll(() => w.t.cleanup());

const as = (asker: Parameters<ApiWorld['browser']>[0]) => w.browser(asker);
const newcomer = () => w.newcomer();
/** A square of the first seed row (AVAILABLE from the start); each row takes its own so rows do not meet. */
const seed = async (column: number) => (await w.cell(SEED_ROW, column)).token;

const CONTRACTS: Record<string, Contract> = {
  'GET /api/tree/:treeToken': {
    spec: true,
    success: async () => {
      const r = expectSuccess(await (await as('guest')).get(`/api/tree/${w.treeToken}`));
      expect(r).toMatchObject({ token: w.treeToken, settings: expect.any(Object) });
    },
    failure: async () => {
      expectFailure(await (await as('guest')).get(`/api/tree/${MISSING}`), 'tree_not_found');
    },
  },
  'GET /api/tree/:treeToken/changes': {
    spec: false,
    success: async () => {
      const version = expectSuccess(await (await as('guest')).get(`/api/tree/${w.treeToken}`)) as { version: number };
      const r = expectSuccess(
        await (await as('guest')).get(`/api/tree/${w.treeToken}/changes?since=${version.version}`),
      );
      expect(r).toMatchObject({ format: 1, since: version.version });
    },
    failure: async () => {
      expectFailure(await (await as('guest')).get(`/api/tree/${w.treeToken}/changes?since=-1`), 'bad_request');
      expectFailure(await (await as('guest')).get(`/api/tree/${MISSING}/changes?since=1`), 'tree_not_found');
    },
  },
  'GET /api/tree/:treeToken/events': {
    spec: false,
    success: async () => {
      // A stream never ends by itself: read its head over a real connection, then hang up.
      if (!w.t.server.server.listening) await w.t.server.listen({ port: 0, host: '127.0.0.1' });
      const base = `http://127.0.0.1:${(w.t.server.server.address() as AddressInfo).port}`;
      const head = await new Promise<{ status: number; type: string }>((resolve, reject) => {
        const req = http.get(`${base}/api/tree/${w.treeToken}/events`, (res) => {
          resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']) });
          req.destroy();
        });
        req.on('error', reject);
      });
      expect(head).toEqual({ status: 200, type: 'text/event-stream; charset=utf-8' });
    },
    failure: async () => {
      expectFailure(await (await as('guest')).get(`/api/tree/${w.treeToken}/events?since=abc`), 'bad_request');
      expectFailure(await (await as('guest')).get(`/api/tree/${MISSING}/events`), 'tree_not_found');
    },
  },
  'GET /api/tree/:treeToken/history': {
    spec: false,
    success: async () => {
      const r = expectSuccess(await (await as('guest')).get(`/api/tree/${w.treeToken}/history`));
      expect(r).toMatchObject({ format: 1, token: w.treeToken, count: expect.any(Number), step: 3_600_000 });
    },
    failure: async () => {
      expectFailure(await (await as('guest')).get(`/api/tree/${MISSING}/history`), 'tree_not_found');
    },
  },
  'GET /api/tree/:treeToken/region': {
    spec: false,
    success: async () => {
      const r = expectSuccess(
        await (
          await as('guest')
        ).get(`/api/tree/${w.treeToken}/region?row0=${PIECE_ROW}&row1=${PIECE_ROW}&col0=0&col1=4`),
      );
      expect(r).toBeTypeOf('object');
    },
    failure: async () => {
      expectFailure(
        await (await as('guest')).get(`/api/tree/${MISSING}/region?row0=0&row1=1&col0=0&col1=1`),
        'tree_not_found',
      );
    },
  },
  'GET /api/cell/:cellToken': {
    spec: true,
    success: async () => {
      const r = expectSuccess(await (await as('guest')).get(`/api/cell/${w.piece.cellToken}`));
      expect(r).toMatchObject({
        token: w.piece.cellToken,
        row: PIECE_ROW,
        column: PIECE_COLUMN,
        type: CellType.Trunk,
        status: CellStatus.Published,
        tree_token: w.treeToken,
      });
      expect(r.art).toMatchObject({
        token: w.piece.artToken,
        status: ArtStatus.Published,
        author: { token: w.people.owner.user.token },
        picture: { thumb: expect.any(String) },
      });
      expect(r.connections).toBeInstanceOf(Array);
      // A square with no piece carries none; a held square shows its draft to its holder only.
      expect(
        expectSuccess(await (await as('guest')).get(`/api/cell/${(await w.cell(PIECE_ROW + 7, 2)).token}`)),
      ).toMatchObject({ art: null, connections: [] });
      expect(expectSuccess(await (await as('owner')).get(`/api/cell/${w.holding.cellToken}`)).art).toMatchObject({
        status: ArtStatus.Draft,
      });
      expect(expectSuccess(await (await as('guest')).get(`/api/cell/${w.holding.cellToken}`)).art).toBeNull();
    },
    failure: async () => {
      expectFailure(await (await as('guest')).get(`/api/cell/${MISSING}`), 'cell_not_found');
      const malformed = expectFailure(await (await as('guest')).get('/api/cell/short'), 'validation_failed');
      expect(malformed.errors?.token).toEqual(['Malformed token.']);
    },
  },
  'POST /api/cell/:cellToken': {
    spec: true,
    success: async () => {
      const { browser } = await newcomer();
      const answer = await postForm(
        w.t,
        browser,
        `/api/cell/${await seed(0)}`,
        artForm(validFields(), [{ bytes: await png(), name: 'a.png', type: 'image/png' }]),
      );
      const r = expectSuccess(answer);
      expect(r.art).toMatchObject({
        status: ArtStatus.Draft,
        title: 'Blue Hour',
        pictures: [expect.objectContaining({ token: expect.any(String) })],
      });
    },
    failure: async () => {
      const { browser } = await newcomer();
      const answer = await postForm(
        w.t,
        browser,
        `/api/cell/${await seed(1)}`,
        artForm(validFields({ title: '' }), [{ bytes: await png(), name: 'a.png', type: 'image/png' }]),
      );
      expect(expectFailure(answer, 'validation_failed').errors?.title).toHaveLength(1);
      const guest = await as('guest');
      expectFailure(
        await postForm(w.t, guest, `/api/cell/${await seed(1)}`, artForm(validFields())),
        'unauthenticated',
      );
    },
  },
  'GET /api/cell/:cellToken/art': {
    spec: false,
    success: async () => {
      const r = expectSuccess(await (await as('guest')).get(`/api/cell/${w.piece.cellToken}/art`));
      expect(r).toMatchObject({
        token: w.piece.artToken,
        status: ArtStatus.Published,
        author: { token: w.people.owner.user.token },
        activity: expect.any(Object),
      });
    },
    failure: async () => {
      expectFailure(
        await (await as('guest')).get(`/api/cell/${(await w.cell(SEED_ROW + 1, 2)).token}/art`),
        'art_not_found',
      );
    },
  },
  'GET /api/cell/:cellToken/art/edit': {
    spec: false,
    success: async () => {
      const r = expectSuccess(await (await as('owner')).get(`/api/cell/${w.piece.cellToken}/art/edit`));
      expect(r).toMatchObject({
        may_edit: true,
        is_new: false,
        cell: { token: w.piece.cellToken },
        art: { token: w.piece.artToken },
      });
    },
    failure: async () => {
      expectFailure(await (await as('guest')).get(`/api/cell/${w.piece.cellToken}/art/edit`), 'unauthenticated');
    },
  },
  'POST /api/cell/:cellToken/reserve': {
    spec: true,
    success: async () => {
      const { browser } = await newcomer();
      const r = expectSuccess(await browser.post(`/api/cell/${await seed(2)}/reserve`));
      expect(r).toMatchObject({
        token: await seed(2),
        status: CellStatus.Reserved,
        art: { status: ArtStatus.Draft },
        reminder: 0,
        extended: false,
      });
    },
    failure: async () => {
      const { browser } = await newcomer();
      const pending = (await w.cell(PIECE_ROW + 5, 1)).token;
      expect(
        expectFailure(await browser.post(`/api/cell/${pending}/reserve`), 'cell_not_available').message,
      ).toBeTypeOf('string');
    },
  },
  'GET /api/cell/:cellToken/reserve/:reserveId': {
    spec: true,
    success: async () => {
      const { browser, user } = await newcomer();
      await reserveCell(w.t.deps, user, await seed(3));
      const held = (await activeReservationOf(w.t.deps.db, user.id))!;
      const r = expectSuccess(await browser.get(`/api/cell/${await seed(3)}/reserve/${held.token}`));
      expect(r).toMatchObject({
        cell_token: await seed(3),
        state: 'active',
        reminder: 0,
        extension_allowed: true,
        refusal: null,
      });
    },
    failure: async () => {
      expectFailure(
        await (await newcomer()).browser.get(`/api/cell/${await seed(3)}/reserve/${MISSING}`),
        'reservation_not_found',
      );
    },
  },
  'POST /api/cell/:cellToken/reserve/:reserveId': {
    spec: true,
    success: async () => {
      const { browser, user } = await newcomer();
      await reserveCell(w.t.deps, user, await seed(4));
      const held = (await activeReservationOf(w.t.deps.db, user.id))!;
      const now = w.t.clock.now();
      // A reminder went out three days before the deadline: the extension is allowed now, once.
      await w.t.deps.db
        .update(reservations)
        .set({ reminderCount: 1, updatedAt: now, expiresAt: now + 3 * 86_400_000 })
        .where(eq(reservations.id, held.id));
      const r = expectSuccess(await browser.post(`/api/cell/${await seed(4)}/reserve/${held.token}`));
      expect(r).toMatchObject({ cell_token: await seed(4), extended: true, extension_allowed: false });
      expectFailure(await browser.post(`/api/cell/${await seed(4)}/reserve/${held.token}`), 'extension_not_allowed');
    },
    failure: async () => {
      const { browser, user } = await newcomer();
      await reserveCell(w.t.deps, user, (await w.cell(SEED_ROW + 1, 0)).token);
      const held = (await activeReservationOf(w.t.deps.db, user.id))!;
      // The one extension has been used already.
      await w.t.deps.db.update(reservations).set({ extended: true }).where(eq(reservations.id, held.id));
      expectFailure(
        await browser.post(`/api/cell/${(await w.cell(SEED_ROW + 1, 0)).token}/reserve/${held.token}`),
        'extension_not_allowed',
      );
    },
  },
  'POST /api/cell/:cellToken/subscribe/available': {
    spec: true,
    success: async () => {
      const { browser } = await newcomer();
      const pending = (await w.cell(PIECE_ROW + 6, 1)).token;
      expect(expectSuccess(await browser.post(`/api/cell/${pending}/subscribe/available`))).toMatchObject({
        cell_token: pending,
        created_at: expect.any(Number),
      });
      expectFailure(await browser.post(`/api/cell/${pending}/subscribe/available`), 'already_subscribed');
    },
    failure: async () => {
      expectFailure(
        await (await newcomer()).browser.post(`/api/cell/${(await w.cell(SEED_ROW + 1, 4)).token}/subscribe/available`),
        'already_available',
      );
    },
  },
  'POST /api/cell/subscribe/available': {
    spec: true,
    success: async () => {
      const { browser } = await newcomer();
      expect(expectSuccess(await browser.post('/api/cell/subscribe/available'))).toMatchObject({ cell_token: null });
    },
    failure: async () => {
      const { browser } = await newcomer();
      await browser.post('/api/cell/subscribe/available');
      expectFailure(await browser.post('/api/cell/subscribe/available'), 'already_subscribed');
      expectFailure(await (await as('guest')).post('/api/cell/subscribe/available'), 'unauthenticated');
    },
  },
  'POST /api/branch/reserve': {
    spec: true,
    success: async () => {
      const { browser } = await newcomer();
      const r = expectSuccess(
        await browser.post('/api/branch/reserve', { treeToken: w.treeToken, row: PIECE_ROW + 1, column: -1 }),
      );
      expect(r).toMatchObject({
        token: expect.stringMatching(/^[\w-]{16,64}$/),
        row: PIECE_ROW + 1,
        column: -1,
        type: CellType.Branch,
        status: CellStatus.Reserved,
      });
    },
    failure: async () => {
      const { browser } = await newcomer();
      expectFailure(
        await browser.post('/api/branch/reserve', { treeToken: w.treeToken, row: PIECE_ROW, column: -1 }),
        'slot_too_connected',
      );
      expectFailure(
        await browser.post('/api/branch/reserve', { treeToken: w.treeToken, row: 40, column: -30 }),
        'outside_branch_area',
      );
      expect(
        expectFailure(
          await browser.post('/api/branch/reserve', { treeToken: w.treeToken, row: 'x', column: -1 }),
          'validation_failed',
        ).errors?.row,
      ).toHaveLength(1);
    },
  },
  'GET /api/cells/search': {
    spec: true,
    success: async () => {
      const r = expectSuccess(await (await as('guest')).get('/api/cells/search?search=Neighbour'));
      expect(r).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            token: w.piece.cellToken,
            art: expect.objectContaining({
              token: w.piece.artToken,
              author: expect.objectContaining({ token: w.people.owner.user.token }),
              title: expect.any(String),
            }),
          }),
        ]),
      );
    },
    failure: async () => {
      const r = expectFailure(await (await as('guest')).get('/api/cells/search?search=ab'), 'validation_failed');
      expect(r.errors?.search).toEqual(['Minimal length is 3 symbols.']);
    },
  },
  'GET /api/cell/:cellToken/connections': {
    spec: true,
    success: async () => {
      const r = expectSuccess(await (await as('owner')).get(`/api/cell/${w.piece.cellToken}/connections`));
      expect(r).toEqual(expect.arrayContaining([expect.objectContaining({ token: w.neighbour.cellToken, status: 0 })]));
    },
    failure: async () => {
      expectFailure(await (await as('guest')).get(`/api/cell/${w.piece.cellToken}/connections`), 'unauthenticated');
    },
  },
  'GET /api/cell/:cellToken/connections/active': {
    spec: true,
    success: async () => {
      expect(
        expectSuccess(await (await as('guest')).get(`/api/cell/${w.piece.cellToken}/connections/active`)),
      ).toBeInstanceOf(Array);
    },
    failure: async () => {
      expectFailure(await (await as('guest')).get(`/api/cell/${MISSING}/connections/active`), 'cell_not_found');
    },
  },
  'POST /api/cell/:cellToken/connections': {
    spec: true,
    success: async () => {
      const r = expectSuccess(
        await (await as('owner')).post(`/api/cell/${w.piece.cellToken}/connections`, { connections: [] }),
      );
      expect(r).toBeInstanceOf(Array);
    },
    failure: async () => {
      const neighbour = w.neighbour.cellToken;
      const answer = await (
        await as('owner')
      ).post(`/api/cell/${w.piece.cellToken}/connections`, {
        connections: [{ token: neighbour, status: 1, description: '' }],
      });
      expect(Object.keys(expectFailure(answer, 'validation_failed').errors ?? {})).not.toHaveLength(0);
    },
  },
  'POST /api/cell/:cellToken/removal': {
    spec: false,
    success: async () => {
      const r = expectSuccess(
        await (await as('owner')).post(`/api/cell/${w.piece.cellToken}/removal`, { reason: 'I painted over it.' }),
      );
      expect(r).toMatchObject({ token: expect.any(String), state: 'open' });
    },
    failure: async () => {
      expectFailure(
        await (await as('observer')).post(`/api/cell/${w.piece.cellToken}/removal`, { reason: 'Not mine.' }),
        'forbidden',
      );
    },
  },
  'GET /api/art/:artToken/like': {
    spec: true,
    success: async () => {
      expect(expectSuccess(await (await as('observer')).get(`/api/art/${w.piece.artToken}/like`))).toEqual({
        liked: expect.any(Number),
        likes: expect.any(Number),
      });
    },
    failure: async () => {
      expectFailure(await (await as('guest')).get(`/api/art/${w.piece.artToken}/like`), 'unauthenticated');
    },
  },
  'PUT /api/art/:artToken/like': {
    spec: true,
    success: async () => {
      expect(
        expectSuccess(await (await as('artist')).request('PUT', `/api/art/${w.piece.artToken}/like`)),
      ).toMatchObject({ liked: 1 });
    },
    failure: async () => {
      expectFailure(await (await as('owner')).request('PUT', `/api/art/${w.piece.artToken}/like`), 'own_art');
    },
  },
  'DELETE /api/art/:artToken/like': {
    spec: true,
    success: async () => {
      expect(
        expectSuccess(await (await as('artist')).request('DELETE', `/api/art/${w.piece.artToken}/like`)),
      ).toMatchObject({ liked: 0 });
    },
    failure: async () => {
      expectFailure(await (await as('observer')).request('DELETE', `/api/art/${MISSING}/like`), 'art_not_found');
    },
  },
  'PUT /api/art/:artToken/review': {
    spec: true,
    success: async () => {
      expect(expectSuccess(await (await as('guest')).request('PUT', `/api/art/${w.piece.artToken}/review`))).toEqual({
        reviews: expect.any(Number),
      });
    },
    failure: async () => {
      expectFailure(await (await as('guest')).request('PUT', `/api/art/${MISSING}/review`), 'art_not_found');
    },
  },
  ...accountContracts(() => w),
  ...profileContracts(() => w),
};

describe('the API contract', () => {
  for (const [key, contract] of Object.entries(CONTRACTS)) {
    describe(`${key}${contract.spec ? '' : ' (beyond the original paths)'}`, () => {
      it('answers a success in the {r: …} envelope', contract.success);
      it('answers a documented failure with its code and the error shape', contract.failure);
    });
  }

  it('has a contract for every declared /api route, and none for a route not declared', () => {
    expect(
      tableAgainstDeclared(CONTRACTS, restRoutes()),
      'contract rows: missing for a declared route, or naming none',
    ).toEqual({ missing: [], stale: [] });
  });

  it('has a contract for every /api route the server holds', async () => {
    const missing = (await listApiRoutes(w.t.server)).filter((route) => !rowFor(CONTRACTS, route)).map(routeKey);
    expect(missing, `routes without a contract row in tests/server/contract.test.ts: ${missing.join(', ')}`).toEqual(
      [],
    );
  });

  it('answers an unknown /api path with the envelope, not the page', async () => {
    expectFailure(await (await as('guest')).get('/api/no/such/path'), 'not_found');
  });
});
