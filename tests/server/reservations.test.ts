/**
 * Reservations from click to hold (docs/product.md, Reservations; decision 008): reserving a square or a branch slot,
 * the viewer's held square, subscriptions, the extend page. Every bad input answers its code over REST and changes
 * nothing in the database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq, isNull } from 'drizzle-orm';
import { art, cells, mailOutbox, reservations, subscriptions, trees } from '#drizzle/schema.ts';
import { ArtStatus, CellStatus, CellType, Role } from '#shared/domain.ts';
import { RESERVATION_DAYS } from '#shared/constants.ts';
import { createTree, type TreeRow } from '#server/services/tree/tree.ts';
import { openNeighboursAfterPublish } from '#server/services/tree/growth.ts';
import { notifyAvailable } from '#server/services/reservations/subscriptions.ts';
import { IMMEDIATE } from '#server/db.ts';
import { createTestApp, type TestApp } from '#tests/helpers/server/test-app.ts';
import {
  activeReservationOf,
  browserOf,
  cellAt,
  publishAt,
  releaseHold,
  SEED_ROW,
  setCellStatus,
  stateOf,
} from '../helpers/server/reservation-fixtures.ts';

const DAY = 24 * 60 * 60 * 1000;

let t: TestApp;
let tree: TreeRow;

beforeAll(async () => {
  t = await createTestApp();
  tree = createTree(t.deps.db, t.clock.now(), 'Reservations');
});
afterAll(() => t.cleanup());

/** A new signed-in user with a browser. */
function member(role: number = Role.Observer) {
  const { user, cookie } = t.addUser(role);
  return { user, browser: browserOf(t, cookie) };
}

/** Opens one more trunk square (rows 20 and up), as growth would, and answers its token. */
let opened = 0;
function availableSquare(): string {
  const row = 20 + Math.floor(opened / 5);
  const column = opened % 5;
  opened++;
  setCellStatus(t.deps.db, tree.id, row, column, CellStatus.Available);
  return cellAt(t.deps.db, tree.id, row, column)!.token;
}

const version = () => t.deps.db.select({ v: trees.version }).from(trees).where(eq(trees.id, tree.id)).get()!.v;

/** Sends a refused request and checks its status, its code, and that nothing changed. */
async function expectRefused(send: () => Promise<{ status: number; body: any }>, status: number, code: string) {
  const before = stateOf(t.deps.db);
  const res = await send();
  expect({ status: res.status, error: res.body?.r?.error }).toEqual({ status, error: code });
  // Every refusal of the reservation rules says why in one sentence (the role check of userProcedure has no text).
  if (code !== 'unauthenticated') expect(typeof res.body.r.message).toBe('string');
  expect(stateOf(t.deps.db)).toEqual(before);
}

describe('reserving a square (POST /api/cell/{cellToken}/reserve)', () => {
  it('holds an AVAILABLE square for 14 days with a draft piece, and moves the tree version', async () => {
    const { user, browser } = member();
    const token = cellAt(t.deps.db, tree.id, SEED_ROW, 0)!.token;
    const versionBefore = version();
    const res = await browser.post(`/api/cell/${token}/reserve`);
    expect(res.status).toBe(200);
    const now = t.clock.now();
    expect(res.body.r).toMatchObject({
      token,
      row: SEED_ROW,
      column: 0,
      type: CellType.Trunk,
      status: CellStatus.Reserved,
      tree_token: tree.token,
      art: { status: ArtStatus.Draft },
      expires_at: now + RESERVATION_DAYS * DAY,
      reminder: 0,
      extended: false,
      extension_allowed: true,
    });

    const cell = cellAt(t.deps.db, tree.id, SEED_ROW, 0)!;
    expect(cell.status).toBe(CellStatus.Reserved);
    const draft = t.deps.db.select().from(art).where(eq(art.id, cell.artId!)).get()!;
    expect(draft).toMatchObject({
      cellId: cell.id,
      authorId: user.id,
      status: ArtStatus.Draft,
      token: res.body.r.art.token,
    });
    const held = activeReservationOf(t.deps.db, user.id)!;
    expect(held).toMatchObject({
      cellId: cell.id,
      state: 'active',
      expiresAt: now + 14 * DAY,
      reminderCount: 0,
      extended: false,
    });
    expect(held.token).toMatch(/^[\w-]{22}$/);
    expect(version()).toBe(versionBefore + 1);

    // The tree shows it reserved at once (the client re-fetches after a reserve).
    const snapshot = await t.caller().tree.get({ token: tree.token });
    expect(snapshot.version).toBe(versionBefore + 1);

    // The user's reserved cell, by REST and by tRPC, says the same (tRPC in its own, camelCase, names).
    const mine = await browser.get(`/api/user/${user.token}/reserve`);
    expect(mine.status).toBe(200);
    expect(mine.body.r).toEqual(res.body.r);
    const { r } = res.body;
    expect(await t.caller(user).user.reservedCell()).toMatchObject({
      token: r.token,
      treeToken: r.tree_token,
      expiresAt: r.expires_at,
      reminderCount: r.reminder,
      reminderToken: r.reminder_token,
      extensionAllowed: r.extension_allowed,
    });
  });

  it('answers null for a user who holds nothing, by REST and by tRPC over HTTP without an input', async () => {
    const { user, cookie } = t.addUser(Role.Observer);
    expect((await browserOf(t, cookie).get(`/api/user/${user.token}/reserve`)).body).toEqual({ r: null });
    const res = await t.server.inject({ url: '/trpc/user.reservedCell', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.json().result.data).toBeNull();
  });

  it('refuses a PENDING square with cell_not_available', async () => {
    const { browser } = member();
    const pending = cellAt(t.deps.db, tree.id, 10, 1)!;
    expect(pending.status).toBe(CellStatus.Pending);
    await expectRefused(() => browser.post(`/api/cell/${pending.token}/reserve`), 409, 'cell_not_available');
  });

  it('refuses a PUBLISHED square with cell_not_available', async () => {
    const { browser } = member();
    publishAt(t.deps.db, tree.id, 30, 4);
    await expectRefused(
      () => browser.post(`/api/cell/${cellAt(t.deps.db, tree.id, 30, 4)!.token}/reserve`),
      409,
      'cell_not_available',
    );
  });

  it("refuses someone else's RESERVED square with cell_taken", async () => {
    const first = member();
    const token = availableSquare();
    expect((await first.browser.post(`/api/cell/${token}/reserve`)).status).toBe(200);
    await expectRefused(() => member().browser.post(`/api/cell/${token}/reserve`), 409, 'cell_taken');
  });

  it('refuses a second reservation while one is held, and the held square itself again, with already_reserved', async () => {
    const { browser } = member();
    const held = availableSquare();
    expect((await browser.post(`/api/cell/${held}/reserve`)).status).toBe(200);
    const other = availableSquare();
    await expectRefused(() => browser.post(`/api/cell/${other}/reserve`), 409, 'already_reserved');
    await expectRefused(() => browser.post(`/api/cell/${held}/reserve`), 409, 'already_reserved');
  });

  it('refuses a guest with unauthenticated', async () => {
    const token = availableSquare();
    await expectRefused(() => browserOf(t).post(`/api/cell/${token}/reserve`), 401, 'unauthenticated');
  });

  it('refuses an unknown square with cell_not_found and a malformed token as invalid', async () => {
    const { browser } = member();
    await expectRefused(() => browser.post(`/api/cell/${'u'.repeat(22)}/reserve`), 404, 'cell_not_found');
    await expectRefused(() => browser.post('/api/cell/not*a*token/reserve'), 400, 'validation_failed');
  });

  it('answers the same codes over tRPC', async () => {
    const { user } = member();
    const pending = cellAt(t.deps.db, tree.id, 11, 1)!.token;
    await expect(t.caller(user).cell.reserve({ token: pending })).rejects.toMatchObject({
      code: 'CONFLICT',
      cause: { code: 'cell_not_available' },
    });
    await expect(t.caller().cell.reserve({ token: pending })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });
});

describe('GET /api/user/{token}/reserve', () => {
  it("refuses another user's token with 403 and a guest with 401", async () => {
    const { browser } = member();
    const other = member();
    const res = await browser.get(`/api/user/${other.user.token}/reserve`);
    expect(res.status).toBe(403);
    expect(res.body.r.error).toBe('forbidden');
    const admin = member(Role.Admin);
    expect((await admin.browser.get(`/api/user/${other.user.token}/reserve`)).status).toBe(403);
    expect((await browserOf(t).get(`/api/user/${other.user.token}/reserve`)).status).toBe(401);
  });
});

describe('reserving a branch slot (POST /api/branch/reserve)', () => {
  // A published trunk square at (8, 0) makes (7..9, -1) slots; (14, 0) and (16, 0) make (15, -1) touch two.
  beforeAll(() => {
    for (const [row, column] of [
      [8, 0],
      [14, 0],
      [16, 0],
    ] as const)
      publishAt(t.deps.db, tree.id, row, column);
  });

  it('creates the branch square (type 3) at the slot and reserves it, answering its token', async () => {
    const { user, browser } = member();
    const versionBefore = version();
    const res = await browser.post('/api/branch/reserve', { row: 8, column: -1 });
    expect(res.status).toBe(200);
    expect(res.body.r).toMatchObject({
      row: 8,
      column: -1,
      type: CellType.Branch,
      status: CellStatus.Reserved,
      tree_token: tree.token,
      art: { status: 0 },
    });
    const cell = cellAt(t.deps.db, tree.id, 8, -1)!;
    expect(cell).toMatchObject({ token: res.body.r.token, type: CellType.Branch, status: CellStatus.Reserved });
    expect(activeReservationOf(t.deps.db, user.id)!.cellId).toBe(cell.id);
    expect(version()).toBe(versionBefore + 1);
    // The answer is the user's reserved cell; the popup's "yes" goes to the editor with this token.
    expect((await browser.get(`/api/user/${user.token}/reserve`)).body.r.token).toBe(cell.token);
  });

  it('accepts the position as numeric strings and a given tree token', async () => {
    const { browser } = member();
    const res = await browser.post('/api/branch/reserve', { row: '9', column: '-1', treeToken: tree.token });
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
    const { browser } = member();
    await expectRefused(() => browser.post('/api/branch/reserve', { row, column }), status, code);
  });

  it('refuses a user who already holds a square, creating no cell', async () => {
    const { browser } = member();
    expect((await browser.post(`/api/cell/${availableSquare()}/reserve`)).status).toBe(200);
    await expectRefused(() => browser.post('/api/branch/reserve', { row: 7, column: -1 }), 409, 'already_reserved');
    expect(cellAt(t.deps.db, tree.id, 7, -1)).toBeUndefined();
  });

  it('refuses a guest, an unknown tree and a position that is not a number', async () => {
    await expectRefused(() => browserOf(t).post('/api/branch/reserve', { row: 7, column: -1 }), 401, 'unauthenticated');
    const { browser } = member();
    await expectRefused(
      () => browser.post('/api/branch/reserve', { row: 7, column: -1, treeToken: 'q'.repeat(22) }),
      404,
      'tree_not_found',
    );
    await expectRefused(
      () => browser.post('/api/branch/reserve', { row: 'seven', column: -1 }),
      400,
      'validation_failed',
    );
    await expectRefused(() => browser.post('/api/branch/reserve', { row: 7.5, column: -1 }), 400, 'validation_failed');
    await expectRefused(() => browser.post('/api/branch/reserve', { column: -1 }), 400, 'validation_failed');
  });
});

describe('subscribing to availability (POST /api/cell/{cellToken}/subscribe/available, /api/cell/subscribe/available)', () => {
  it('subscribes to a pending square once, and to any square once', async () => {
    const { user, browser } = member();
    const pending = cellAt(t.deps.db, tree.id, 12, 3)!;
    const res = await browser.post(`/api/cell/${pending.token}/subscribe/available`);
    expect(res.status).toBe(200);
    expect(res.body.r).toEqual({ cell_token: pending.token, created_at: t.clock.now() });
    await expectRefused(
      () => browser.post(`/api/cell/${pending.token}/subscribe/available`),
      409,
      'already_subscribed',
    );

    const any = await browser.post('/api/cell/subscribe/available');
    expect(any.status).toBe(200);
    expect(any.body.r).toEqual({ cell_token: null, created_at: t.clock.now() });
    await expectRefused(() => browser.post('/api/cell/subscribe/available'), 409, 'already_subscribed');

    const rows = t.deps.db.select().from(subscriptions).where(eq(subscriptions.userId, user.id)).all();
    expect(rows.map((row) => row.cellId).sort()).toEqual([null, pending.id].sort());
  });

  it("subscribes to someone else's reserved square (the popup's 'currently reserved' case)", async () => {
    const holder = member();
    const token = availableSquare();
    await holder.browser.post(`/api/cell/${token}/reserve`);
    expect((await member().browser.post(`/api/cell/${token}/subscribe/available`)).status).toBe(200);
  });

  it('refuses a square that is AVAILABLE now (reserve it instead), an unknown square, and a guest', async () => {
    const { browser } = member();
    const available = availableSquare();
    await expectRefused(() => browser.post(`/api/cell/${available}/subscribe/available`), 409, 'already_available');
    await expectRefused(() => browser.post(`/api/cell/${'n'.repeat(22)}/subscribe/available`), 404, 'cell_not_found');
    const pending = cellAt(t.deps.db, tree.id, 12, 4)!.token;
    await expectRefused(() => browserOf(t).post(`/api/cell/${pending}/subscribe/available`), 401, 'unauthenticated');
    await expectRefused(() => browserOf(t).post('/api/cell/subscribe/available'), 401, 'unauthenticated');
  });
});

describe('the extend page (GET and POST /api/cell/{cellToken}/reserve/{reminderToken})', () => {
  /**
   * A reservation 3 days from its deadline with `reminders` reminders sent, the last one `sinceReminder` ago (the
   * timers' own steps are tested in reservation-jobs.test.ts).
   */
  async function heldWithReminders(reminders: number, sinceReminder = 0) {
    const holder = member();
    const cellToken = availableSquare();
    expect((await holder.browser.post(`/api/cell/${cellToken}/reserve`)).status).toBe(200);
    const now = t.clock.now();
    const id = activeReservationOf(t.deps.db, holder.user.id)!.id;
    t.deps.db
      .update(reservations)
      .set({ reminderCount: reminders, updatedAt: now - sinceReminder, expiresAt: now + 3 * DAY })
      .where(eq(reservations.id, id))
      .run();
    const held = activeReservationOf(t.deps.db, holder.user.id)!;
    return {
      ...holder,
      cellToken,
      reminderToken: held.token,
      path: `/api/cell/${cellToken}/reserve/${held.token}`,
      held,
    };
  }

  it('adds a full week even when asked for right after the first reminder, 7 days before the deadline', async () => {
    const { browser, path, held } = await heldWithReminders(1);
    const deadline = t.clock.now() + 7 * DAY;
    t.deps.db.update(reservations).set({ expiresAt: deadline }).where(eq(reservations.id, held.id)).run();
    const res = await browser.post(path);
    expect(res.status).toBe(200);
    expect(res.body.r.expires_at).toBe(sevenDaysAfterUntilMidnight(deadline));
    expect(res.body.r.expires_at - deadline).toBeGreaterThanOrEqual(7 * DAY);
  });

  /** Midnight ending the day 7 calendar days after `ms` in the site's zone (UTC unless SITE_TIMEZONE is set). */
  const sevenDaysAfterUntilMidnight = (ms: number) => {
    const d = new Date(ms);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 7, 23, 59, 59, 999);
  };

  it('asks, then extends once until midnight 7 days after the current deadline, then refuses a second time', async () => {
    const { browser, path, user, held } = await heldWithReminders(2);
    const asked = await browser.get(path);
    expect(asked.status).toBe(200);
    expect(asked.body.r).toMatchObject({
      extension_allowed: true,
      refusal: null,
      reminder: 2,
      extended: false,
      extended_until: sevenDaysAfterUntilMidnight(held.expiresAt),
    });

    t.clock.advance(3 * 60 * 60 * 1000);
    const res = await browser.post(path);
    expect(res.status).toBe(200);
    const until = sevenDaysAfterUntilMidnight(held.expiresAt);
    expect(res.body.r).toMatchObject({
      expires_at: until,
      extended: true,
      extension_allowed: false,
      refusal: 'extension_not_allowed',
    });
    expect(activeReservationOf(t.deps.db, user.id)).toMatchObject({
      expiresAt: until,
      extended: true,
      updatedAt: t.clock.now(),
    });
    expect((await browser.get(`/api/user/${user.token}/reserve`)).body.r).toMatchObject({
      expires_at: until,
      extended: true,
    });

    await expectRefused(() => browser.post(path), 409, 'extension_not_allowed');
  });

  it('refuses after the fifth reminder (allowed while the count is 4 or less)', async () => {
    const four = await heldWithReminders(4);
    expect((await four.browser.get(four.path)).body.r.extension_allowed).toBe(true);
    const five = await heldWithReminders(5);
    const asked = await five.browser.get(five.path);
    expect(asked.body.r).toMatchObject({ extension_allowed: false, refusal: 'extension_not_allowed' });
    await expectRefused(() => five.browser.post(five.path), 409, 'extension_not_allowed');
    expect((await four.browser.post(four.path)).status).toBe(200);
  });

  it('extends before any reminder was sent: the week is there from the start (decision 027)', async () => {
    const { browser, path, held } = await heldWithReminders(0);
    const res = await browser.post(path);
    expect(res.status).toBe(200);
    expect(res.body.r.expires_at).toBe(sevenDaysAfterUntilMidnight(held.expiresAt));
  });

  it('refuses after the deadline has passed', async () => {
    const { browser, path, held } = await heldWithReminders(4);
    const back = t.clock.now();
    t.clock.set(held.expiresAt);
    expect((await browser.get(path)).body.r).toMatchObject({
      extension_allowed: false,
      refusal: 'reservation_expired',
    });
    await expectRefused(() => browser.post(path), 409, 'reservation_expired');
    t.clock.set(back);
  });

  it('refuses a submitted piece: it is never released, so there is nothing to extend', async () => {
    const { browser, path, held } = await heldWithReminders(1);
    const cell = t.deps.db.select().from(cells).where(eq(cells.id, held.cellId)).get()!;
    t.deps.db.update(art).set({ status: ArtStatus.Submitted }).where(eq(art.id, cell.artId!)).run();
    await expectRefused(() => browser.post(path), 409, 'extension_not_allowed');
  });

  it("refuses someone else's reservation with forbidden, and lets an admin extend it", async () => {
    const { path } = await heldWithReminders(1);
    await expectRefused(() => member().browser.get(path), 403, 'forbidden');
    await expectRefused(() => member(Role.Artist).browser.post(path), 403, 'forbidden');
    await expectRefused(() => browserOf(t).post(path), 401, 'unauthenticated');
    expect((await member(Role.Admin).browser.post(path)).status).toBe(200);
  });

  it('refuses an unknown reminder token, and a real one under another square, with reservation_not_found', async () => {
    const { browser, cellToken, reminderToken } = await heldWithReminders(1);
    await expectRefused(
      () => browser.get(`/api/cell/${cellToken}/reserve/${'r'.repeat(22)}`),
      404,
      'reservation_not_found',
    );
    await expectRefused(
      () => browser.post(`/api/cell/${cellToken}/reserve/${'r'.repeat(22)}`),
      404,
      'reservation_not_found',
    );
    const elsewhere = cellAt(t.deps.db, tree.id, SEED_ROW, 1)!.token;
    await expectRefused(
      () => browser.post(`/api/cell/${elsewhere}/reserve/${reminderToken}`),
      404,
      'reservation_not_found',
    );
  });

  it('counts the week from the deadline, however long ago the reminder was', async () => {
    const { browser, path, held } = await heldWithReminders(1, 10 * DAY);
    const res = await browser.post(path);
    expect(res.status).toBe(200);
    expect(res.body.r.expires_at).toBe(sevenDaysAfterUntilMidnight(held.expiresAt));
  });
});

describe('growth tells subscribers (openNeighboursAfterPublish + notifyAvailable in one transaction)', () => {
  it('mails the subscribers of an opened square and of any square once, and uses their subscriptions up', async () => {
    const db = t.deps.db;
    const toSquare = member();
    const toAny = member();
    const both = member();
    const target = cellAt(db, tree.id, 4, 1)!;
    expect(target.status).toBe(CellStatus.Pending);
    expect((await toSquare.browser.post(`/api/cell/${target.token}/subscribe/available`)).status).toBe(200);
    expect((await toAny.browser.post('/api/cell/subscribe/available')).status).toBe(200);
    expect((await both.browser.post(`/api/cell/${target.token}/subscribe/available`)).status).toBe(200);
    expect((await both.browser.post('/api/cell/subscribe/available')).status).toBe(200);
    // Earlier tests left "any" subscriptions too; they are told as well.
    const openAny = db
      .select()
      .from(subscriptions)
      .where(and(isNull(subscriptions.cellId), isNull(subscriptions.notifiedAt)))
      .all();

    const now = t.clock.now();
    const mailsBefore = db.select().from(mailOutbox).all().length;
    const publish = () =>
      db.transaction((tx) => {
        tx.update(cells)
          .set({ status: CellStatus.Published })
          .where(eq(cells.id, cellAt(db, tree.id, 5, 1)!.id))
          .run();
        const openedIds = openNeighboursAfterPublish(tx, tree.id, 5, 1, now);
        return { openedIds, queued: notifyAvailable(tx, now, openedIds, t.deps.config.siteUrl) };
      }, IMMEDIATE);
    const { openedIds, queued } = publish();
    expect(openedIds).toContain(target.id);

    const mails = db.select().from(mailOutbox).orderBy(desc(mailOutbox.id)).limit(queued).all();
    expect(mails.length).toBe(db.select().from(mailOutbox).all().length - mailsBefore);
    const to = (user: { email: string }) => mails.filter((mail) => mail.toAddress === user.email);
    expect(to(toSquare.user)).toHaveLength(1);
    expect(to(toSquare.user)[0]!.textBody).toContain(`${t.deps.config.siteUrl}/observe?cell=${target.token}`);
    expect(to(toAny.user)).toHaveLength(1);
    expect(to(toAny.user)[0]!.kind).toBe('cell-available');
    expect(to(both.user)).toHaveLength(1);
    expect(to(both.user)[0]!.textBody).toContain(target.token);
    const anyUsers = new Set(openAny.map((sub) => sub.userId));
    expect(queued).toBe(new Set([toSquare.user.id, ...anyUsers]).size);

    for (const who of [toSquare, toAny, both]) {
      const open = db
        .select()
        .from(subscriptions)
        .where(and(eq(subscriptions.userId, who.user.id), isNull(subscriptions.notifiedAt)))
        .all();
      expect(open).toEqual([]);
    }
    // Told once: the same squares again queue nothing.
    const again = db.transaction((tx) => notifyAvailable(tx, now, openedIds, t.deps.config.siteUrl));
    expect(again).toBe(0);
    // And the user may ask again for the next time.
    expect((await toAny.browser.post('/api/cell/subscribe/available')).status).toBe(200);
  });

  it('tells nobody about a square that is not AVAILABLE', () => {
    const db = t.deps.db;
    const pending = cellAt(db, tree.id, 6, 4)!;
    db.insert(subscriptions).values({ userId: member().user.id, cellId: pending.id, createdAt: t.clock.now() }).run();
    expect(db.transaction((tx) => notifyAvailable(tx, t.clock.now(), [pending.id], t.deps.config.siteUrl))).toBe(0);
  });
});

describe('after a released hold', () => {
  it('lets the same user reserve again', async () => {
    const { user, browser } = member();
    expect((await browser.post(`/api/cell/${availableSquare()}/reserve`)).status).toBe(200);
    releaseHold(t.deps.db, user.id);
    expect((await browser.post(`/api/cell/${availableSquare()}/reserve`)).status).toBe(200);
  });
});
