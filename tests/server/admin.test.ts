/**
 * The admin dashboard's staff actions through tRPC's createCaller and real HTTP: removal requests (accept
 * with everything it implies, decline with a reason, deciding twice refused), contact messages, users (search,
 * roles, disabling ends sessions), reservations (release) and the staff log. Every refusal changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { art, connections, reservations, sessions, staffActions, trees, users } from '#drizzle/tables.ts';
import { ADMIN_PAGE_SIZE } from '#shared/admin-api.ts';
import { ArtStatus, CellStatus, Role } from '#shared/domain.ts';
import { LARGEST_ID } from '#shared/validation/admin.ts';
import { toAppError } from '#server/errors.ts';
import { saveConnections } from '#server/services/art/connections.ts';
import { reserveCell } from '#server/services/reservations/reservations.ts';
import { createTree } from '#server/services/tree/tree.ts';
import { createTestApp, type TestApp } from '#tests/helpers/server/test-app.ts';
import { browserFor, cellAt, publishedPieceAt } from '../helpers/art-fixtures.ts';
import { adminStateOf, artRow, cellRow, mailsOf, submitPieceAt } from '../helpers/server/review-fixtures.ts';
import { firstRow, oneRow } from '#tests/helpers/server/rows.ts';

let t: TestApp;
let treeId: number;
let admin: Awaited<ReturnType<TestApp['addUser']>>;
let artist: Awaited<ReturnType<TestApp['addUser']>>;

const codeOf = (call: Promise<unknown>) =>
  call.then(
    () => 'allowed',
    (e: unknown) => toAppError(e).code,
  );
const versionOf = async () =>
  (await oneRow(t.deps.db.select({ version: trees.version }).from(trees).where(eq(trees.id, treeId)))).version;
const staff = () => t.caller(admin.user).admin;

/** A piece by `author` on (row, column), submitted and published by staff. */
async function livePieceAt(
  row: number,
  column: number,
  author: Awaited<ReturnType<TestApp['addUser']>>['user'],
  title: string,
) {
  const piece = await submitPieceAt(t, treeId, row, column, author, title);
  await staff().publish({ artToken: piece.artToken });
  return piece;
}

beforeAll(async () => {
  t = await createTestApp();
  treeId = (await createTree(t.deps.db, t.clock.now(), 'Admin')).id;
  admin = await t.addUser(Role.Admin);
  artist = await t.addUser(Role.Artist);
}, 60_000);
afterAll(() => t.cleanup());

describe('removal requests', () => {
  let live: Awaited<ReturnType<typeof livePieceAt>>;
  let requestToken: string;
  let subscriber: Awaited<ReturnType<TestApp['addUser']>>;

  beforeAll(async () => {
    const other = await t.addUser(Role.Artist);
    const neighbour = await publishedPieceAt(t.deps.db, treeId, 34, 1, other.user.id, 'otherkey');
    live = await submitPieceAt(t, treeId, 33, 0, artist.user, 'Quiet Orchard');
    await saveConnections(t.deps, artist.user, live.cellToken, {
      connections: [{ token: neighbour.cellToken, status: 1, description: 'Same orchard.' }],
    });
    await staff().publish({ artToken: live.artToken });
    // The neighbour connects back to the piece, and someone waits for its square.
    await saveConnections(t.deps, other.user, neighbour.cellToken, {
      connections: [{ token: live.cellToken, status: 1, description: 'Back to the orchard.' }],
    });
    subscriber = await t.addUser(Role.Observer);
    await t.caller(subscriber.user).cell.subscribe({ token: live.cellToken });
    requestToken = (await t.caller(artist.user).art.requestRemoval({ cellToken: live.cellToken, reason: 'I sold it.' }))
      .token;
  });

  it('lists the open requests with their piece and requester', async () => {
    const open = await staff().removalRequests({ state: 'open' });
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({
      token: requestToken,
      state: 'open',
      reason: 'I sold it.',
      requester: { token: artist.user.token },
      art: { token: live.artToken, cellToken: live.cellToken, title: 'Quiet Orchard', status: ArtStatus.Published },
      decidedBy: null,
    });
    expect(await staff().removalRequests({ state: 'declined' })).toEqual([]);
  });

  it('refuses a decline without a reason, anyone but staff and an unknown request, changing nothing', async () => {
    const before = await adminStateOf(t.deps.db);
    expect(await codeOf(staff().declineRemoval({ token: requestToken, reason: ' ' }))).toBe('validation_failed');
    expect(await codeOf(t.caller(artist.user).admin.acceptRemoval({ token: requestToken }))).toBe('forbidden');
    expect(await codeOf(staff().acceptRemoval({ token: 'n'.repeat(22) }))).toBe('not_found');
    const browser = await browserFor(t, artist.cookie);
    expect((await browser.post('/trpc/admin.acceptRemoval', { token: requestToken })).status).toBe(403);
    expect(await adminStateOf(t.deps.db)).toEqual(before);
  });

  it('accepting removes the piece and frees its square, with everything that implies', async () => {
    const version = await versionOf();
    const mailsBefore = (await mailsOf(t)).length;
    const answer = await staff().acceptRemoval({ token: requestToken });
    expect(answer).toMatchObject({
      state: 'accepted',
      decidedBy: { token: admin.user.token },
      art: { status: ArtStatus.Removed },
    });

    expect((await artRow(t.deps.db, live.artToken)).status).toBe(ArtStatus.Removed);
    expect(await cellRow(t.deps.db, live.cellToken)).toMatchObject({ status: CellStatus.Available, artId: null });
    const links = await t.deps.db.select({ status: connections.status }).from(connections);
    expect(links.filter((c) => c.status === 1)).toEqual([]);
    expect(links.length).toBe(2);
    expect(await versionOf()).toBeGreaterThan(version);
    expect((await t.caller().cell.search({ search: 'Orchard' })).map((hit) => hit.artToken)).not.toContain(
      live.artToken,
    );
    expect(
      await t.caller().art.activeConnections({ cellToken: (await cellAt(t.deps.db, treeId, 34, 1)).token }),
    ).toEqual([]);

    const mails = (await mailsOf(t)).slice(mailsBefore);
    expect(mails.find((m) => m.to === artist.user.email)?.subject).toBe(
      'Your piece has been removed from the Gallery Tree',
    );
    expect(mails.find((m) => m.to === subscriber.user.email)?.text).toContain(`/observe?cell=${live.cellToken}`);
    expect(await t.deps.db.select().from(staffActions).where(eq(staffActions.action, 'accept_removal'))).toMatchObject([
      { staffId: admin.user.id, subjectToken: requestToken },
    ]);
  });

  it('refuses deciding the same request again and changes nothing', async () => {
    const before = await adminStateOf(t.deps.db);
    expect(await codeOf(staff().acceptRemoval({ token: requestToken }))).toBe('removal_already_decided');
    expect(await codeOf(staff().declineRemoval({ token: requestToken, reason: 'Changed our mind.' }))).toBe(
      'removal_already_decided',
    );
    expect(await adminStateOf(t.deps.db)).toEqual(before);
  });

  it('declining keeps the piece and tells the artist why', async () => {
    const kept = await livePieceAt(33, 4, artist.user, 'Keeper');
    const { token } = await t.caller(artist.user).art.requestRemoval({ cellToken: kept.cellToken, reason: '' });
    const mailsBefore = (await mailsOf(t)).length;
    const reason = 'It is part of the exhibition catalogue until June.';
    expect(await staff().declineRemoval({ token, reason })).toMatchObject({
      state: 'declined',
      decisionNote: reason,
      decidedBy: { token: admin.user.token },
    });
    expect((await artRow(t.deps.db, kept.artToken)).status).toBe(ArtStatus.Published);
    const mail = (await mailsOf(t)).slice(mailsBefore).find((m) => m.to === artist.user.email);
    expect(mail?.subject).toBe('About your removal request');
    expect(mail?.text).toContain(reason);
    expect((await staff().removalRequests({})).map((r) => r.state).sort()).toEqual(['accepted', 'declined']);
  });
});

describe('contact messages', () => {
  it('lists unhandled messages oldest first and marks one handled once', async () => {
    for (const subject of ['First question', 'Second question']) {
      await t
        .caller()
        .misc.contact({ subject, reason: 'Question', email: 'visitor@example.test', message: 'How do I join?' });
      t.clock.advance(1000);
    }
    const open = await staff().messages({ handled: false });
    expect(open.map((m) => m.subject)).toEqual(['First question', 'Second question']);
    const id = open[0]!.id;
    const handled = await staff().markMessageHandled({ id });
    expect(handled).toMatchObject({ id, handledAt: t.clock.now(), handledBy: { token: admin.user.token } });
    expect((await staff().messages({ handled: false })).map((m) => m.subject)).toEqual(['Second question']);
    expect((await staff().messages({ handled: true })).map((m) => m.id)).toEqual([id]);

    const before = await adminStateOf(t.deps.db);
    t.clock.advance(1000);
    expect((await staff().markMessageHandled({ id })).handledAt).toBe(handled.handledAt);
    expect(await codeOf(staff().markMessageHandled({ id: 999_999 }))).toBe('not_found');
    expect(await codeOf(staff().markMessageHandled({ id: LARGEST_ID + 1 }))).toBe('validation_failed');
    expect(await codeOf(t.caller(artist.user).admin.markMessageHandled({ id }))).toBe('forbidden');
    expect(await adminStateOf(t.deps.db)).toEqual(before);
    expect(
      await t.deps.db.select().from(staffActions).where(eq(staffActions.action, 'mark_message_handled')),
    ).toHaveLength(1);
  });
});

describe('users', () => {
  it('searches by name or e-mail, filters by role and pages by 50', async () => {
    const pagers = await Promise.all(
      Array.from({ length: ADMIN_PAGE_SIZE + 5 }, async () => (await t.addUser(Role.Observer)).user),
    );
    await t.deps.db.update(users).set({ firstname: 'Pager' }).where(eq(users.role, Role.Observer));
    const first = await staff().users({ search: 'pager', page: 1 });
    expect(first.total).toBeGreaterThanOrEqual(pagers.length);
    expect(first.items).toHaveLength(ADMIN_PAGE_SIZE);
    const second = await staff().users({ search: 'pager', page: 2 });
    expect(second.items).toHaveLength(first.total - ADMIN_PAGE_SIZE);
    expect(new Set([...first.items, ...second.items].map((u) => u.token)).size).toBe(first.total);

    expect(
      (await staff().users({ search: artist.user.email.toUpperCase(), page: 1 })).items.map((u) => u.token),
    ).toEqual([artist.user.token]);
    expect(
      (await staff().users({ search: `${artist.user.firstname} ${artist.user.lastname}`, page: 1 })).items.map(
        (u) => u.token,
      ),
    ).toEqual([artist.user.token]);
    expect((await staff().users({ search: '%', page: 1 })).items).toEqual([]);
    const admins = await staff().users({ role: Role.Admin, page: 1 });
    expect(admins.items.map((u) => u.token)).toEqual([admin.user.token]);
  });

  it("changes a role, but never the caller's own, and refuses a role that does not exist", async () => {
    const someone = await t.addUser(Role.Observer);
    expect(await staff().setRole({ userToken: someone.user.token, role: Role.Artist })).toMatchObject({
      token: someone.user.token,
      role: Role.Artist,
    });
    const before = await adminStateOf(t.deps.db);
    expect(await codeOf(staff().setRole({ userToken: admin.user.token, role: Role.Observer }))).toBe('own_account');
    expect(await codeOf(staff().setRole({ userToken: someone.user.token, role: 3 as typeof Role.Artist }))).toBe(
      'validation_failed',
    );
    expect(await codeOf(staff().setRole({ userToken: 'n'.repeat(22), role: Role.Artist }))).toBe('not_found');
    expect(
      await codeOf(t.caller(someone.user).admin.setRole({ userToken: someone.user.token, role: Role.Admin })),
    ).toBe('forbidden');
    expect(await adminStateOf(t.deps.db)).toEqual(before);
    expect(await t.deps.db.select().from(staffActions).where(eq(staffActions.action, 'set_role'))).toMatchObject([
      { subjectToken: someone.user.token, note: 'observer -> artist' },
    ]);
  });

  it('disabling ends every session of the account; enabling lets it log in again', async () => {
    const someone = await t.addUser(Role.Observer);
    const browser = await browserFor(t, someone.cookie);
    expect((await browser.get('/trpc/auth.current')).body.result.data).toMatchObject({ token: someone.user.token });

    expect(await staff().disableUser({ userToken: someone.user.token })).toMatchObject({ disabled: true });
    expect(await t.deps.db.select().from(sessions).where(eq(sessions.userId, someone.user.id))).toEqual([]);
    expect((await browser.get('/trpc/auth.current')).body.result.data).toBeNull();

    const before = await adminStateOf(t.deps.db);
    expect(await codeOf(staff().disableUser({ userToken: admin.user.token }))).toBe('own_account');
    expect(await codeOf(t.caller(artist.user).admin.enableUser({ userToken: someone.user.token }))).toBe('forbidden');
    expect(await adminStateOf(t.deps.db)).toEqual(before);

    expect(await staff().enableUser({ userToken: someone.user.token })).toMatchObject({ disabled: false });
    expect(
      (
        await oneRow(
          t.deps.db.select({ disabledAt: users.disabledAt }).from(users).where(eq(users.id, someone.user.id)),
        )
      ).disabledAt,
    ).toBeNull();
    const actions = await t.deps.db
      .select({ action: staffActions.action })
      .from(staffActions)
      .where(eq(staffActions.subjectToken, someone.user.token));
    expect(actions.map((a) => a.action)).toEqual(['disable_user', 'enable_user']);
  });
});

describe('reservations', () => {
  it('lists the active ones and releases one the way the timers do, telling the holder and the subscribers', async () => {
    const holder = await t.addUser(Role.Observer);
    const square = await cellAt(t.deps.db, treeId, 34, 3);
    await reserveCell(t.deps, holder.user, square.token);
    const waiting = await t.addUser(Role.Observer);
    await t.caller(waiting.user).cell.subscribe({ token: square.token });

    const list = await staff().reservations();
    const held = list.find((r) => r.cell.token === square.token)!;
    expect(held).toMatchObject({
      cell: { row: 34, column: 3 },
      user: { token: holder.user.token, email: holder.user.email },
      extended: false,
    });
    expect(held.expiresAt).toBeGreaterThan(t.clock.now());

    const version = await versionOf();
    const draftId = (await cellRow(t.deps.db, square.token)).artId!;
    const mailsBefore = (await mailsOf(t)).length;
    expect(await staff().releaseReservation({ reservationId: held.id })).toEqual({ ok: true });
    expect(await cellRow(t.deps.db, square.token)).toMatchObject({ status: CellStatus.Available, artId: null });
    expect(await firstRow(t.deps.db.select().from(art).where(eq(art.id, draftId)))).toBeUndefined();
    expect(
      (
        await oneRow(
          t.deps.db.select({ state: reservations.state }).from(reservations).where(eq(reservations.id, held.id)),
        )
      ).state,
    ).toBe('released');
    expect(await versionOf()).toBeGreaterThan(version);
    const mails = (await mailsOf(t)).slice(mailsBefore);
    expect(mails.find((m) => m.to === holder.user.email)?.subject).toBe('Your reserved square has been released');
    expect(mails.find((m) => m.to === waiting.user.email)?.text).toContain(`/observe?cell=${square.token}`);

    const before = await adminStateOf(t.deps.db);
    expect(await codeOf(staff().releaseReservation({ reservationId: held.id }))).toBe('reservation_not_found');
    // Past what PostgreSQL's integer holds (its query would fail): refused as invalid input on both engines.
    for (const reservationId of [LARGEST_ID + 1, Number.MAX_SAFE_INTEGER])
      expect(await codeOf(staff().releaseReservation({ reservationId }))).toBe('validation_failed');
    expect(await adminStateOf(t.deps.db)).toEqual(before);
  });
});

describe('the staff log', () => {
  it("shows every staff action newest first with the staff member's name", async () => {
    const log = await staff().staffLog({ page: 1 });
    const rows = await t.deps.db.select().from(staffActions);
    expect(log.total).toBe(rows.length);
    expect(log.items[0]).toMatchObject({
      action: 'release_reservation',
      staff: { token: admin.user.token, name: `${admin.user.firstname} ${admin.user.lastname}` },
    });
    const times = log.items.map((entry) => entry.createdAt);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(new Set(log.items.map((entry) => entry.action))).toEqual(
      new Set([
        'publish',
        'accept_removal',
        'decline_removal',
        'mark_message_handled',
        'set_role',
        'disable_user',
        'enable_user',
        'release_reservation',
      ]),
    );
  });
});
