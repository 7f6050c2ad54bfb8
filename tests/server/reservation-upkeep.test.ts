/**
 * What follows a hold (docs/product.md, Reservations; decision 008): subscriptions to availability, the extend page, and
 * the mails growth sends subscribers. Every bad input answers its code over REST and changes nothing.
 */
import { describe, expect, it } from 'vitest';
import { and, desc, eq, isNull } from 'drizzle-orm';
import { art, cells, mailOutbox, reservations, subscriptions } from '#drizzle/tables.ts';
import { ArtStatus, CellStatus, Role } from '#shared/domain.ts';
import { openNeighboursAfterPublish } from '#server/services/tree/growth.ts';
import { notifyAvailable } from '#server/services/squares/subscriptions.ts';
import { write } from '#server/db.ts';
import { activeReservationOf, browserOf, cellAt, SEED_ROW } from '../helpers/server/reservation-fixtures.ts';
import { DAY, useReservationsApp } from '#tests/helpers/server/reservations-app.ts';
import { oneRow } from '#tests/helpers/server/rows.ts';

const app = useReservationsApp();

describe('subscribing to availability (POST /api/cell/{cellToken}/subscribe/available, /api/cell/subscribe/available)', () => {
  it('subscribes to a pending square once, and to any square once', async () => {
    const { user, browser } = await app.member();
    const pending = (await cellAt(app.t.deps.db, app.tree.id, 12, 3))!;
    const res = await browser.post(`/api/cell/${pending.token}/subscribe/available`);
    expect(res.status).toBe(200);
    expect(res.body.r).toEqual({ cell_token: pending.token, created_at: app.t.clock.now() });
    await app.expectRefused(
      () => browser.post(`/api/cell/${pending.token}/subscribe/available`),
      409,
      'already_subscribed',
    );

    const any = await browser.post('/api/cell/subscribe/available');
    expect(any.status).toBe(200);
    expect(any.body.r).toEqual({ cell_token: null, created_at: app.t.clock.now() });
    await app.expectRefused(() => browser.post('/api/cell/subscribe/available'), 409, 'already_subscribed');

    const rows = await app.t.deps.db.select().from(subscriptions).where(eq(subscriptions.userId, user.id));
    expect(rows.map((row) => row.cellId).sort()).toEqual([null, pending.id].sort());
  });

  it("subscribes to someone else's reserved square (the popup's 'currently reserved' case)", async () => {
    const holder = await app.member();
    const token = await app.availableSquare();
    await holder.browser.post(`/api/cell/${token}/reserve`);
    expect((await (await app.member()).browser.post(`/api/cell/${token}/subscribe/available`)).status).toBe(200);
  });

  it('refuses a square that is AVAILABLE now (reserve it instead), an unknown square, and a guest', async () => {
    const { browser } = await app.member();
    const available = await app.availableSquare();
    await app.expectRefused(() => browser.post(`/api/cell/${available}/subscribe/available`), 409, 'already_available');
    await app.expectRefused(
      () => browser.post(`/api/cell/${'n'.repeat(22)}/subscribe/available`),
      404,
      'cell_not_found',
    );
    const pending = (await cellAt(app.t.deps.db, app.tree.id, 12, 4))!.token;
    await app.expectRefused(
      () => browserOf(app.t).post(`/api/cell/${pending}/subscribe/available`),
      401,
      'unauthenticated',
    );
    await app.expectRefused(() => browserOf(app.t).post('/api/cell/subscribe/available'), 401, 'unauthenticated');
  });
});

describe('the extend page (GET and POST /api/cell/{cellToken}/reserve/{reminderToken})', () => {
  /**
   * A reservation 3 days from its deadline with `reminders` reminders sent, the last one `sinceReminder` ago (the
   * timers' own steps are tested in reservation-jobs.test.ts).
   */
  async function heldWithReminders(reminders: number, sinceReminder = 0) {
    const holder = await app.member();
    const cellToken = await app.availableSquare();
    expect((await holder.browser.post(`/api/cell/${cellToken}/reserve`)).status).toBe(200);
    const now = app.t.clock.now();
    const id = (await activeReservationOf(app.t.deps.db, holder.user.id))!.id;
    await app.t.deps.db
      .update(reservations)
      .set({ reminderCount: reminders, updatedAt: now - sinceReminder, expiresAt: now + 3 * DAY })
      .where(eq(reservations.id, id));
    const held = (await activeReservationOf(app.t.deps.db, holder.user.id))!;
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
    const deadline = app.t.clock.now() + 7 * DAY;
    await app.t.deps.db.update(reservations).set({ expiresAt: deadline }).where(eq(reservations.id, held.id));
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

    app.t.clock.advance(3 * 60 * 60 * 1000);
    const res = await browser.post(path);
    expect(res.status).toBe(200);
    const until = sevenDaysAfterUntilMidnight(held.expiresAt);
    expect(res.body.r).toMatchObject({
      expires_at: until,
      extended: true,
      extension_allowed: false,
      refusal: 'extension_not_allowed',
    });
    expect(await activeReservationOf(app.t.deps.db, user.id)).toMatchObject({
      expiresAt: until,
      extended: true,
      updatedAt: app.t.clock.now(),
    });
    expect((await browser.get(`/api/user/${user.token}/reserve`)).body.r).toMatchObject({
      expires_at: until,
      extended: true,
    });

    await app.expectRefused(() => browser.post(path), 409, 'extension_not_allowed');
  });

  it('refuses after the fifth reminder (allowed while the count is 4 or less)', async () => {
    const four = await heldWithReminders(4);
    expect((await four.browser.get(four.path)).body.r.extension_allowed).toBe(true);
    const five = await heldWithReminders(5);
    const asked = await five.browser.get(five.path);
    expect(asked.body.r).toMatchObject({ extension_allowed: false, refusal: 'extension_not_allowed' });
    await app.expectRefused(() => five.browser.post(five.path), 409, 'extension_not_allowed');
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
    const back = app.t.clock.now();
    app.t.clock.set(held.expiresAt);
    expect((await browser.get(path)).body.r).toMatchObject({
      extension_allowed: false,
      refusal: 'reservation_expired',
    });
    await app.expectRefused(() => browser.post(path), 409, 'reservation_expired');
    app.t.clock.set(back);
  });

  it('refuses a submitted piece: it is never released, so there is nothing to extend', async () => {
    const { browser, path, held } = await heldWithReminders(1);
    const cell = await oneRow(app.t.deps.db.select().from(cells).where(eq(cells.id, held.cellId)));
    await app.t.deps.db.update(art).set({ status: ArtStatus.Submitted }).where(eq(art.id, cell.artId!));
    await app.expectRefused(() => browser.post(path), 409, 'extension_not_allowed');
  });

  it("refuses someone else's reservation with forbidden, and lets an admin extend it", async () => {
    const { path } = await heldWithReminders(1);
    await app.expectRefused(async () => (await app.member()).browser.get(path), 403, 'forbidden');
    await app.expectRefused(async () => (await app.member(Role.Artist)).browser.post(path), 403, 'forbidden');
    await app.expectRefused(() => browserOf(app.t).post(path), 401, 'unauthenticated');
    expect((await (await app.member(Role.Admin)).browser.post(path)).status).toBe(200);
  });

  it('refuses an unknown reminder token, and a real one under another square, with reservation_not_found', async () => {
    const { browser, cellToken, reminderToken } = await heldWithReminders(1);
    await app.expectRefused(
      () => browser.get(`/api/cell/${cellToken}/reserve/${'r'.repeat(22)}`),
      404,
      'reservation_not_found',
    );
    await app.expectRefused(
      () => browser.post(`/api/cell/${cellToken}/reserve/${'r'.repeat(22)}`),
      404,
      'reservation_not_found',
    );
    const elsewhere = (await cellAt(app.t.deps.db, app.tree.id, SEED_ROW, 1))!.token;
    await app.expectRefused(
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
    const db = app.t.deps.db;
    const toSquare = await app.member();
    const toAny = await app.member();
    const both = await app.member();
    const target = (await cellAt(db, app.tree.id, 4, 1))!;
    expect(target.status).toBe(CellStatus.Pending);
    expect((await toSquare.browser.post(`/api/cell/${target.token}/subscribe/available`)).status).toBe(200);
    expect((await toAny.browser.post('/api/cell/subscribe/available')).status).toBe(200);
    expect((await both.browser.post(`/api/cell/${target.token}/subscribe/available`)).status).toBe(200);
    expect((await both.browser.post('/api/cell/subscribe/available')).status).toBe(200);
    // Earlier tests left "any" subscriptions too; they are told as well.
    const openAny = await db
      .select()
      .from(subscriptions)
      .where(and(isNull(subscriptions.cellId), isNull(subscriptions.notifiedAt)));

    const now = app.t.clock.now();
    const mailsBefore = (await db.select().from(mailOutbox)).length;
    const publish = async () =>
      await write(db, async (tx) => {
        await tx
          .update(cells)
          .set({ status: CellStatus.Published })
          .where(eq(cells.id, (await cellAt(db, app.tree.id, 5, 1))!.id));
        const openedIds = await openNeighboursAfterPublish(tx, app.tree.id, 5, 1, now);
        return { openedIds, queued: await notifyAvailable(tx, now, openedIds, app.t.deps.config.siteUrl) };
      });
    const { openedIds, queued } = await publish();
    expect(openedIds).toContain(target.id);

    const mails = await db.select().from(mailOutbox).orderBy(desc(mailOutbox.id)).limit(queued);
    expect(mails.length).toBe((await db.select().from(mailOutbox)).length - mailsBefore);
    const to = (user: { email: string }) => mails.filter((mail) => mail.toAddress === user.email);
    expect(to(toSquare.user)).toHaveLength(1);
    expect(to(toSquare.user)[0]!.textBody).toContain(`${app.t.deps.config.siteUrl}/observe?cell=${target.token}`);
    expect(to(toAny.user)).toHaveLength(1);
    expect(to(toAny.user)[0]!.kind).toBe('cell-available');
    expect(to(both.user)).toHaveLength(1);
    expect(to(both.user)[0]!.textBody).toContain(target.token);
    const anyUsers = new Set(openAny.map((sub) => sub.userId));
    expect(queued).toBe(new Set([toSquare.user.id, ...anyUsers]).size);

    for (const who of [toSquare, toAny, both]) {
      const open = await db
        .select()
        .from(subscriptions)
        .where(and(eq(subscriptions.userId, who.user.id), isNull(subscriptions.notifiedAt)));
      expect(open).toEqual([]);
    }
    // Told once: the same squares again queue nothing.
    const again = await write(db, async (tx) => notifyAvailable(tx, now, openedIds, app.t.deps.config.siteUrl));
    expect(again).toBe(0);
    // And the user may ask again for the next time.
    expect((await toAny.browser.post('/api/cell/subscribe/available')).status).toBe(200);
  });

  it('leaves out a member who holds a square now (they could not take it), and keeps their alert for later', async () => {
    const db = app.t.deps.db;
    const holder = await app.member();
    const free = await app.member();
    expect((await holder.browser.post('/api/cell/subscribe/available')).status).toBe(200);
    expect((await free.browser.post('/api/cell/subscribe/available')).status).toBe(200);
    expect((await holder.browser.post(`/api/cell/${await app.availableSquare()}/reserve`)).status).toBe(200);
    const opened = await oneRow(
      db
        .select({ id: cells.id })
        .from(cells)
        .where(eq(cells.token, await app.availableSquare())),
    );

    const now = app.t.clock.now();
    const queued = await write(db, async (tx) => notifyAvailable(tx, now, [opened.id], app.t.deps.config.siteUrl));
    const mails = await db.select().from(mailOutbox).orderBy(desc(mailOutbox.id)).limit(queued);
    expect(mails.map((mail) => mail.toAddress)).toContain(free.user.email);
    expect(mails.map((mail) => mail.toAddress)).not.toContain(holder.user.email);
    const holderOpen = await db
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.userId, holder.user.id), isNull(subscriptions.notifiedAt)));
    expect(holderOpen).toHaveLength(1);
  });

  it('tells nobody about a square that is not AVAILABLE', async () => {
    const db = app.t.deps.db;
    const pending = (await cellAt(db, app.tree.id, 6, 4))!;
    await db
      .insert(subscriptions)
      .values({ userId: (await app.member()).user.id, cellId: pending.id, createdAt: app.t.clock.now() });
    expect(
      await write(db, async (tx) => notifyAvailable(tx, app.t.clock.now(), [pending.id], app.t.deps.config.siteUrl)),
    ).toBe(0);
  });
});
