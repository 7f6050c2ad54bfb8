/**
 * The reservation timers on a moving clock (docs/product.md, Reservations; decision 008): reminders at 7, 3 and 1 days
 * before the deadline and on its last day, each once however often the job runs; the extension from the e-mailed link;
 * expiry releasing the square, discarding the draft and telling subscribers once; a submitted piece never released.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq, like } from 'drizzle-orm';
import { art, cells, mailOutbox, pictures, reservations, subscriptions, trees } from '#drizzle/tables.ts';
import { ArtStatus, CellStatus, CellType, Role } from '#shared/domain.ts';
import { startJobs } from '#server/services/jobs.ts';
import { deliverOutbox } from '#server/services/mail/mail.ts';
import {
  expireReservations,
  RESERVATION_JOBS,
  sendReservationReminders,
} from '#server/services/reservations/reservation-jobs.ts';
import { formatDeadline } from '#shared/time-zone.ts';
import { createTree, type TreeRow } from '#server/services/tree/tree.ts';
import { newToken } from '#server/tokens.ts';
import { createTestApp, type TestApp } from '#tests/helpers/server/test-app.ts';
import { linkIn, readOutbox } from '#tests/helpers/outbox.ts';
import {
  activeReservationOf,
  browserOf,
  cellAt,
  publishAt,
  setCellStatus,
} from '../helpers/server/reservation-fixtures.ts';
import { firstRow, oneRow } from '#tests/helpers/server/rows.ts';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const START = Date.UTC(2026, 5, 1, 12);
const originalTz = process.env.TZ;

let t: TestApp;
let tree: TreeRow;

beforeAll(async () => {
  process.env.TZ = 'UTC';
  t = await createTestApp();
  tree = await createTree(t.deps.db, START, 'Timers');
});
afterAll(async () => {
  await t.cleanup();
  process.env.TZ = originalTz;
});
// Each test counts the timers' work on its own reservations: earlier tests' holds are set aside.
beforeEach(async () => {
  await t.deps.db.update(reservations).set({ state: 'released' }).where(eq(reservations.state, 'active'));
});
afterEach(() => {
  process.env.TZ = 'UTC';
  t.deps.config.siteTimezone = 'UTC';
});

let opened = 0;
/** A member holding a fresh reservation made at the clock's time, on a newly opened trunk square. */
async function holder() {
  const { user, cookie } = await t.addUser(Role.Observer);
  const row = 20 + Math.floor(opened / 5);
  const column = opened++ % 5;
  await setCellStatus(t.deps.db, tree.id, row, column, CellStatus.Available);
  const cell = (await cellAt(t.deps.db, tree.id, row, column))!;
  const reserved = await t.caller(user).cell.reserve({ token: cell.token });
  const held = (await activeReservationOf(t.deps.db, user.id))!;
  return { user, cookie, browser: browserOf(t, cookie), cell, reserved, held };
}

const reservation = async (id: number) =>
  await oneRow(t.deps.db.select().from(reservations).where(eq(reservations.id, id)));
const remindersOf = async (token: string) =>
  await t.deps.db
    .select()
    .from(mailOutbox)
    .where(like(mailOutbox.dedupeKey, `reservation-reminder:${token}:%`));
const version = async () =>
  (await oneRow(t.deps.db.select({ v: trees.version }).from(trees).where(eq(trees.id, tree.id)))).v;

describe('reminders', () => {
  it('goes out at 7, 3 and 1 days before the deadline and on its last day, each once even when the job runs twice', async () => {
    t.clock.set(START);
    const { held, user, cell } = await holder();
    const deadline = held.expiresAt;
    expect(deadline).toBe(START + 14 * DAY);

    t.clock.set(deadline - 7 * DAY - 1);
    expect(await sendReservationReminders(t.deps)).toBe(0);

    // The deadline is at noon UTC: the last-day step is at the start of its day, 12 hours before.
    const steps = [deadline - 7 * DAY, deadline - 3 * DAY, deadline - DAY, deadline - 12 * HOUR];
    for (const [index, at] of steps.entries()) {
      t.clock.set(at - 1);
      expect(await sendReservationReminders(t.deps)).toBe(0);
      t.clock.set(at);
      expect(await sendReservationReminders(t.deps)).toBe(1);
      expect(await sendReservationReminders(t.deps)).toBe(0);
      t.clock.advance(2 * HOUR);
      expect(await sendReservationReminders(t.deps)).toBe(0);
      expect(await reservation(held.id)).toMatchObject({
        reminderCount: index + 1,
        updatedAt: at,
        state: 'active',
        expiresAt: deadline,
      });
    }

    const mails = await remindersOf(held.token);
    expect(mails.map((mail) => mail.dedupeKey)).toEqual(
      [1, 2, 3, 4].map((n) => `reservation-reminder:${held.token}:${n}`),
    );
    const extendLink = `${t.deps.config.siteUrl}/observe/cell/${cell.token}/reserve/${held.token}/extend`;
    for (const mail of mails) {
      expect(mail).toMatchObject({ toAddress: user.email, kind: 'reservation-reminder' });
      expect(mail.textBody).toContain(extendLink);
    }
    expect(mails[3]!.subject).toMatch(/last day/i);

    // The deadline passes: no more reminders.
    t.clock.set(deadline + HOUR);
    expect(await sendReservationReminders(t.deps)).toBe(0);
  });

  it('sends only the latest overdue step after the server was down, and is registered with the job runner', async () => {
    t.clock.set(START);
    const { held } = await holder();
    t.clock.set(held.expiresAt - 6 * HOUR);
    const runner = startJobs(t.deps, RESERVATION_JOBS);
    await runner.runAll();
    await runner.runAll();
    await runner.stop();
    expect(RESERVATION_JOBS.map((job) => job.name).sort()).toEqual(['reservation-expiry', 'reservation-reminders']);
    expect(await remindersOf(held.token)).toHaveLength(1);
    expect((await reservation(held.id)).reminderCount).toBe(1);
  });
});

describe('the extension from the e-mailed link', () => {
  it('extends until midnight 7 days after the deadline, once, as the reminder says; later reminders count toward the new deadline without the link', async () => {
    t.clock.set(START);
    const { held, browser, cell } = await holder();
    const reminderAt = held.expiresAt - 3 * DAY;
    t.clock.set(reminderAt);
    expect(await sendReservationReminders(t.deps)).toBe(1);

    await deliverOutbox(t.deps);
    const mail = readOutbox(t.deps.config.outboxDir).find((m) => m.text.includes(held.token))!;
    const link = linkIn(mail, /https?:\/\/\S+\/extend/);
    const apiPath = new URL(link).pathname.replace(/^\/observe/, '/api').replace(/\/extend$/, '');
    expect(apiPath).toBe(`/api/cell/${cell.token}/reserve/${held.token}`);

    t.clock.advance(HOUR);
    const asked = await browser.get(apiPath);
    // The deadline is 2026-06-15 12:00 UTC: a week later, until midnight, is the end of 2026-06-22 (UTC here).
    expect(held.expiresAt).toBe(Date.UTC(2026, 5, 15, 12));
    const until = Date.UTC(2026, 5, 22, 23, 59, 59, 999);
    expect(mail.text).toContain(`until ${formatDeadline(until, 'UTC')}`);
    expect(asked.body.r).toMatchObject({ extension_allowed: true, reminder: 1, extended_until: until });
    const extended = await browser.post(apiPath);
    expect(extended.status).toBe(200);
    expect(extended.body.r).toMatchObject({ expires_at: until, extended: true });
    expect((await browser.post(apiPath)).body.r.error).toBe('extension_not_allowed');

    // The old deadline passes: nothing is released.
    t.clock.set(held.expiresAt + HOUR);
    expect(await expireReservations(t.deps)).toBe(0);
    // Reminders toward the new deadline, without the extend link (the one extension is used).
    t.clock.set(until - DAY);
    expect(await sendReservationReminders(t.deps)).toBe(1);
    const later = (await remindersOf(held.token)).at(-1)!;
    expect(later.dedupeKey).toBe(`reservation-reminder:${held.token}:2`);
    expect(later.textBody).not.toContain('/extend');

    t.clock.set(until + 1);
    expect(await expireReservations(t.deps)).toBe(1);
  });

  it("counts calendar days in the site's time zone, whatever the process's, across a daylight-saving change", async () => {
    // The site is in New York (SITE_TIMEZONE); the process runs on Tokyo time, which must not matter.
    t.deps.config.siteTimezone = 'America/New_York';
    process.env.TZ = 'Asia/Tokyo';
    // The 3-day reminder at 2026-03-03 04:30 UTC is 23:30 on March 2 in New York; clocks spring forward on March 8.
    const reminderAt = Date.UTC(2026, 2, 3, 4, 30);
    t.clock.set(reminderAt + 3 * DAY - 14 * DAY);
    const { held, browser, cell } = await holder();
    t.clock.set(reminderAt);
    expect(await sendReservationReminders(t.deps)).toBe(1);
    const res = await browser.post(`/api/cell/${cell.token}/reserve/${held.token}`);
    expect(res.status).toBe(200);
    // The deadline is March 5, 23:30 EST; a week later, until midnight, is March 12, 23:59:59.999 EDT (UTC-4).
    // Adding 7 × 24 hours instead would have reached March 13 (00:30 EDT).
    expect(held.expiresAt).toBe(Date.UTC(2026, 2, 6, 4, 30));
    expect(res.body.r.expires_at).toBe(Date.UTC(2026, 2, 13, 3, 59, 59, 999));
  });
});

describe('expiry', () => {
  it('releases the square, discards the draft and its pictures, and tells the subscribers of it and of any square once', async () => {
    t.clock.set(START);
    const { held, user, cell, browser } = await holder();
    const draftId = (await cellAt(t.deps.db, tree.id, cell.row, cell.column))!.artId!;
    await t.deps.db.insert(pictures).values({
      token: newToken(),
      artId: draftId,
      position: 0,
      mediaKey: 'draftkey0000000000',
      width: 10,
      height: 10,
      createdAt: START,
    });

    const toSquare = await t.addUser(Role.Observer);
    const toAny = await t.addUser(Role.Artist);
    const elsewhere = await t.addUser(Role.Observer);
    await t.caller(toSquare.user).cell.subscribe({ token: cell.token });
    await t.caller(toAny.user).cell.subscribeAny();
    await t.caller(elsewhere.user).cell.subscribe({ token: (await cellAt(t.deps.db, tree.id, 5, 3))!.token });

    t.clock.set(held.expiresAt - 1);
    expect(await expireReservations(t.deps)).toBe(0);
    const versionBefore = await version();
    t.clock.set(held.expiresAt);
    expect(await expireReservations(t.deps)).toBe(1);
    expect(await expireReservations(t.deps)).toBe(0);

    expect(await reservation(held.id)).toMatchObject({ state: 'expired', updatedAt: held.expiresAt });
    expect(await firstRow(t.deps.db.select().from(art).where(eq(art.id, draftId)))).toBeUndefined();
    expect(await t.deps.db.select().from(pictures).where(eq(pictures.artId, draftId))).toEqual([]);
    expect(await cellAt(t.deps.db, tree.id, cell.row, cell.column)).toMatchObject({
      status: CellStatus.Available,
      artId: null,
    });
    expect(await version()).toBe(versionBefore + 1);

    const told = await t.deps.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'cell-available'));
    const to = (email: string) => told.filter((mail) => mail.toAddress === email);
    expect(to(toSquare.user.email)).toHaveLength(1);
    expect(to(toAny.user.email)).toHaveLength(1);
    expect(to(toSquare.user.email)[0]!.textBody).toContain(`/observe?cell=${cell.token}`);
    expect(to(elsewhere.user.email)).toHaveLength(0);
    expect(to(user.email)).toHaveLength(0);
    const open = await oneRow(t.deps.db.select().from(subscriptions).where(eq(subscriptions.userId, toSquare.user.id)));
    expect(open.notifiedAt).toBe(held.expiresAt);

    // Running everything again tells nobody twice.
    t.clock.advance(HOUR);
    const runner = startJobs(t.deps, RESERVATION_JOBS);
    await runner.runAll();
    await runner.stop();
    expect(await t.deps.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'cell-available'))).toHaveLength(
      told.length,
    );

    // The former holder holds nothing; their extend link says it ran out; anyone may reserve the square again.
    expect((await browser.get(`/api/user/${user.token}/reserve`)).body).toEqual({ r: null });
    expect((await browser.post(`/api/cell/${cell.token}/reserve/${held.token}`)).body.r.error).toBe(
      'reservation_expired',
    );
    const next = await browserOf(t, toSquare.cookie).post(`/api/cell/${cell.token}/reserve`);
    expect(next.status).toBe(200);
  });

  it('never releases a submitted piece, and sends it no reminders', async () => {
    t.clock.set(START);
    const { held, cell } = await holder();
    const artId = (await cellAt(t.deps.db, tree.id, cell.row, cell.column))!.artId!;
    await t.deps.db
      .update(art)
      .set({ status: ArtStatus.Submitted, submittedAt: START + DAY })
      .where(eq(art.id, artId));

    t.clock.set(held.expiresAt - 3 * DAY);
    expect(await sendReservationReminders(t.deps)).toBe(0);
    t.clock.set(held.expiresAt + 30 * DAY);
    expect(await expireReservations(t.deps)).toBe(0);
    expect((await reservation(held.id)).state).toBe('active');
    expect(await cellAt(t.deps.db, tree.id, cell.row, cell.column)).toMatchObject({
      status: CellStatus.Reserved,
      artId,
    });
    expect((await oneRow(t.deps.db.select().from(art).where(eq(art.id, artId)))).status).toBe(ArtStatus.Submitted);
    expect(await remindersOf(held.token)).toEqual([]);
  });

  it('gives a released branch square back as an AVAILABLE branch square anyone may reserve', async () => {
    t.clock.set(START);
    await publishAt(t.deps.db, tree.id, 12, 4);
    const { user } = await t.addUser(Role.Observer);
    const branch = await t.caller(user).cell.reserveBranch({ row: 12, column: 5 });
    expect(branch).toMatchObject({ type: CellType.Branch, status: CellStatus.Reserved });
    t.clock.set(branch.expiresAt);
    expect(await expireReservations(t.deps)).toBe(1);
    const cell = await oneRow(
      t.deps.db
        .select()
        .from(cells)
        .where(and(eq(cells.treeId, tree.id), eq(cells.token, branch.token))),
    );
    expect(cell).toMatchObject({ type: CellType.Branch, status: CellStatus.Available, artId: null });
    const other = await t.addUser(Role.Observer);
    await expect(t.caller(other.user).cell.reserve({ token: branch.token })).resolves.toMatchObject({
      token: branch.token,
    });
  });
});
