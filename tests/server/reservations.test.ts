/**
 * Reserving over REST (docs/product.md, Reservations; decision 008): a square, a branch slot, the viewer's held
 * square, and reserving again after a released hold. Every bad input answers its code and changes nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { art } from '#drizzle/tables.ts';
import { ArtStatus, CellStatus, CellType, Role } from '#shared/domain.ts';
import { RESERVATION_DAYS } from '#shared/constants.ts';
import {
  activeReservationOf,
  browserOf,
  cellAt,
  publishAt,
  releaseHold,
  SEED_ROW,
} from '../helpers/server/reservation-fixtures.ts';
import { DAY, useReservationsApp } from '#tests/helpers/server/reservations-app.ts';
import { oneRow } from '#tests/helpers/server/rows.ts';

const app = useReservationsApp();

describe('reserving a square (POST /api/cell/{cellToken}/reserve)', () => {
  it('holds an AVAILABLE square for 14 days with a draft piece, and moves the tree version', async () => {
    const { user, browser } = await app.member();
    const token = (await cellAt(app.t.deps.db, app.tree.id, SEED_ROW, 0))!.token;
    const versionBefore = await app.version();
    const res = await browser.post(`/api/cell/${token}/reserve`);
    expect(res.status).toBe(200);
    const now = app.t.clock.now();
    expect(res.body.r).toMatchObject({
      token,
      row: SEED_ROW,
      column: 0,
      type: CellType.Trunk,
      status: CellStatus.Reserved,
      tree_token: app.tree.token,
      art: { status: ArtStatus.Draft },
      expires_at: now + RESERVATION_DAYS * DAY,
      reminder: 0,
      extended: false,
      extension_allowed: true,
    });
    // The answer is made from what the reservation wrote, not read again: it must be what a read shows.
    expect(res.body.r).toEqual((await browser.get(`/api/user/${user.token}/reserve`)).body.r);

    const cell = (await cellAt(app.t.deps.db, app.tree.id, SEED_ROW, 0))!;
    expect(cell.status).toBe(CellStatus.Reserved);
    const draft = await oneRow(app.t.deps.db.select().from(art).where(eq(art.id, cell.artId!)));
    expect(draft).toMatchObject({
      cellId: cell.id,
      authorId: user.id,
      status: ArtStatus.Draft,
      token: res.body.r.art.token,
    });
    const held = (await activeReservationOf(app.t.deps.db, user.id))!;
    expect(held).toMatchObject({
      cellId: cell.id,
      state: 'active',
      expiresAt: now + 14 * DAY,
      reminderCount: 0,
      extended: false,
    });
    expect(held.token).toMatch(/^[\w-]{22}$/);
    expect(await app.version()).toBe(versionBefore + 1);

    // The tree shows it reserved at once (the client re-fetches after a reserve).
    const snapshot = await app.t.caller().tree.get({ token: app.tree.token });
    expect(snapshot.version).toBe(versionBefore + 1);

    // The user's reserved cell, by REST and by tRPC, says the same (tRPC in its own, camelCase, names).
    const mine = await browser.get(`/api/user/${user.token}/reserve`);
    expect(mine.status).toBe(200);
    expect(mine.body.r).toEqual(res.body.r);
    const { r } = res.body;
    expect(await app.t.caller(user).user.reservedCell()).toMatchObject({
      token: r.token,
      treeToken: r.tree_token,
      expiresAt: r.expires_at,
      reminderCount: r.reminder,
      reminderToken: r.reminder_token,
      extensionAllowed: r.extension_allowed,
    });
  });

  it('answers null for a user who holds nothing, by REST and by tRPC over HTTP without an input', async () => {
    const { user, cookie } = await app.t.addUser(Role.Observer);
    expect((await browserOf(app.t, cookie).get(`/api/user/${user.token}/reserve`)).body).toEqual({ r: null });
    const res = await app.t.server.inject({ url: '/trpc/user.reservedCell', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.json().result.data).toBeNull();
  });

  it('refuses a PENDING square with cell_not_available', async () => {
    const { browser } = await app.member();
    const pending = (await cellAt(app.t.deps.db, app.tree.id, 10, 1))!;
    expect(pending.status).toBe(CellStatus.Pending);
    await app.expectRefused(() => browser.post(`/api/cell/${pending.token}/reserve`), 409, 'cell_not_available');
  });

  it('refuses a PUBLISHED square with cell_not_available', async () => {
    const { browser } = await app.member();
    await publishAt(app.t.deps.db, app.tree.id, 30, 4);
    await app.expectRefused(
      async () => browser.post(`/api/cell/${(await cellAt(app.t.deps.db, app.tree.id, 30, 4))!.token}/reserve`),
      409,
      'cell_not_available',
    );
  });

  it("refuses someone else's RESERVED square with cell_taken", async () => {
    const first = await app.member();
    const token = await app.availableSquare();
    expect((await first.browser.post(`/api/cell/${token}/reserve`)).status).toBe(200);
    await app.expectRefused(
      async () => (await app.member()).browser.post(`/api/cell/${token}/reserve`),
      409,
      'cell_taken',
    );
  });

  it('refuses a second reservation while one is held, and the held square itself again, with already_reserved', async () => {
    const { browser } = await app.member();
    const held = await app.availableSquare();
    expect((await browser.post(`/api/cell/${held}/reserve`)).status).toBe(200);
    const other = await app.availableSquare();
    await app.expectRefused(() => browser.post(`/api/cell/${other}/reserve`), 409, 'already_reserved');
    await app.expectRefused(() => browser.post(`/api/cell/${held}/reserve`), 409, 'already_reserved');
  });

  it('refuses a guest with unauthenticated', async () => {
    const token = await app.availableSquare();
    await app.expectRefused(() => browserOf(app.t).post(`/api/cell/${token}/reserve`), 401, 'unauthenticated');
  });

  it('refuses an unknown square with cell_not_found and a malformed token as invalid', async () => {
    const { browser } = await app.member();
    await app.expectRefused(() => browser.post(`/api/cell/${'u'.repeat(22)}/reserve`), 404, 'cell_not_found');
    await app.expectRefused(() => browser.post('/api/cell/not*a*token/reserve'), 400, 'validation_failed');
  });

  it('answers the same codes over tRPC', async () => {
    const { user } = await app.member();
    const pending = (await cellAt(app.t.deps.db, app.tree.id, 11, 1))!.token;
    await expect(app.t.caller(user).cell.reserve({ token: pending })).rejects.toMatchObject({
      code: 'CONFLICT',
      cause: { code: 'cell_not_available' },
    });
    await expect(app.t.caller().cell.reserve({ token: pending })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });
});

describe('GET /api/user/{token}/reserve', () => {
  it("refuses another user's token with 403 and a guest with 401", async () => {
    const { browser } = await app.member();
    const other = await app.member();
    const res = await browser.get(`/api/user/${other.user.token}/reserve`);
    expect(res.status).toBe(403);
    expect(res.body.r.error).toBe('forbidden');
    const admin = await app.member(Role.Admin);
    expect((await admin.browser.get(`/api/user/${other.user.token}/reserve`)).status).toBe(403);
    expect((await browserOf(app.t).get(`/api/user/${other.user.token}/reserve`)).status).toBe(401);
  });
});

describe('reserving a branch slot (POST /api/branch/reserve)', () => {
  // A published trunk square at (8, 0) makes (7..9, -1) slots; (14, 0) and (16, 0) make (15, -1) touch two.
  beforeAll(async () => {
    for (const [row, column] of [
      [8, 0],
      [14, 0],
      [16, 0],
    ] as const)
      await publishAt(app.t.deps.db, app.tree.id, row, column);
  });

  it('creates the branch square (type 3) at the slot and reserves it, answering its token', async () => {
    const { user, browser } = await app.member();
    const versionBefore = await app.version();
    const res = await browser.post('/api/branch/reserve', { row: 8, column: -1 });
    expect(res.status).toBe(200);
    expect(res.body.r).toMatchObject({
      row: 8,
      column: -1,
      type: CellType.Branch,
      status: CellStatus.Reserved,
      tree_token: app.tree.token,
      art: { status: 0 },
    });
    const cell = (await cellAt(app.t.deps.db, app.tree.id, 8, -1))!;
    expect(cell).toMatchObject({ token: res.body.r.token, type: CellType.Branch, status: CellStatus.Reserved });
    expect((await activeReservationOf(app.t.deps.db, user.id))!.cellId).toBe(cell.id);
    expect(await app.version()).toBe(versionBefore + 1);
    // The answer is the user's reserved cell; the popup's "yes" goes to the editor with this token.
    expect((await browser.get(`/api/user/${user.token}/reserve`)).body.r.token).toBe(cell.token);
  });

  it('accepts the position as numeric strings and a given tree token', async () => {
    const { browser } = await app.member();
    const res = await browser.post('/api/branch/reserve', { row: '9', column: '-1', treeToken: app.tree.token });
    expect(res.status).toBe(200);
    expect(res.body.r).toMatchObject({ row: 9, column: -1 });
  });

  it.each([
    ['outside the branch columns', 8, -16, 'outside_branch_area', 400],
    ['below the branch rows', 27, -1, 'outside_branch_area', 400],
    ['on the trunk', 8, 1, 'outside_branch_area', 400],
    ['in the centre column', 8, 2, 'outside_branch_area', 400],
    ['in the crown', 1, -1, 'outside_branch_area', 400],
    ['on an existing square', 8, -1, 'slot_occupied', 409],
    ['touching no published square', 20, -6, 'slot_not_connected', 409],
    ['touching two published squares', 15, -1, 'slot_too_connected', 409],
  ])('refuses a position %s (%i, %i) with %s', async (_what, row, column, code, status) => {
    const { browser } = await app.member();
    await app.expectRefused(() => browser.post('/api/branch/reserve', { row, column }), status, code);
  });

  it('refuses a user who already holds a square, creating no cell', async () => {
    const { browser } = await app.member();
    expect((await browser.post(`/api/cell/${await app.availableSquare()}/reserve`)).status).toBe(200);
    await app.expectRefused(() => browser.post('/api/branch/reserve', { row: 7, column: -1 }), 409, 'already_reserved');
    expect(await cellAt(app.t.deps.db, app.tree.id, 7, -1)).toBeUndefined();
  });

  it('refuses a guest, an unknown tree and a position that is not a number', async () => {
    await app.expectRefused(
      () => browserOf(app.t).post('/api/branch/reserve', { row: 7, column: -1 }),
      401,
      'unauthenticated',
    );
    const { browser } = await app.member();
    await app.expectRefused(
      () => browser.post('/api/branch/reserve', { row: 7, column: -1, treeToken: 'q'.repeat(22) }),
      404,
      'tree_not_found',
    );
    await app.expectRefused(
      () => browser.post('/api/branch/reserve', { row: 'seven', column: -1 }),
      400,
      'validation_failed',
    );
    await app.expectRefused(
      () => browser.post('/api/branch/reserve', { row: 7.5, column: -1 }),
      400,
      'validation_failed',
    );
    await app.expectRefused(() => browser.post('/api/branch/reserve', { column: -1 }), 400, 'validation_failed');
  });
});

describe('after a released hold', () => {
  it('lets the same user reserve again', async () => {
    const { user, browser } = await app.member();
    expect((await browser.post(`/api/cell/${await app.availableSquare()}/reserve`)).status).toBe(200);
    await releaseHold(app.t.deps.db, user.id);
    expect((await browser.post(`/api/cell/${await app.availableSquare()}/reserve`)).status).toBe(200);
  });
});
