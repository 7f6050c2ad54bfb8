/**
 * The one-week extension asked for from the square itself (decision 027): the holder's reserved square carries what
 * the extend page needs, the week is there from the moment of reserving, and midnight is the site's (SITE_TIMEZONE).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '#server/config.ts';
import { CellStatus, Role } from '#shared/domain.ts';
import { createTree, type TreeRow } from '#server/services/tree/tree.ts';
import { createTestApp, type TestApp } from '#tests/helpers/server/test-app.ts';
import { activeReservationOf, cellAt, setCellStatus } from '../helpers/server/reservation-fixtures.ts';

const DAY = 24 * 60 * 60 * 1000;

let utc: TestApp;
let auckland: TestApp;
let utcTree: TreeRow;
let aucklandTree: TreeRow;

beforeAll(async () => {
  utc = await createTestApp();
  auckland = await createTestApp({ siteTimezone: 'Pacific/Auckland' });
  utcTree = await createTree(utc.deps.db, utc.clock.now(), 'UTC site');
  aucklandTree = await createTree(auckland.deps.db, auckland.clock.now(), 'Auckland site');
});
afterAll(async () => {
  await utc.cleanup();
  await auckland.cleanup();
});

let opened = 0;
/** A member holding a fresh reservation on a newly opened trunk square of the app's tree. */
async function holderOn(t: TestApp, tree: TreeRow) {
  const { user } = await t.addUser(Role.Observer);
  const row = 20 + Math.floor(opened / 5);
  const column = opened++ % 5;
  await setCellStatus(t.deps.db, tree.id, row, column, CellStatus.Available);
  const cell = (await cellAt(t.deps.db, tree.id, row, column))!;
  const caller = t.caller(user);
  const reserved = await caller.cell.reserve({ token: cell.token });
  return { user, caller, cell, reserved };
}

describe('extending from the square', () => {
  it('gives the holder the way to the extend page with the reserved square, before any reminder', async () => {
    const { user, caller, cell, reserved } = await holderOn(utc, utcTree);
    const held = (await activeReservationOf(utc.deps.db, user.id))!;
    // The reservation was made at 2026-06-01 12:00 UTC: its deadline is June 15, 12:00; a week on, until midnight, June 22.
    const until = Date.UTC(2026, 5, 22, 23, 59, 59, 999);
    expect(reserved).toMatchObject({
      reminderToken: held.token,
      reminderCount: 0,
      extensionAllowed: true,
      extendedUntil: until,
    });
    expect(await caller.user.reservedCell()).toMatchObject({ reminderToken: held.token, extendedUntil: until });

    utc.clock.advance(2 * DAY);
    const extended = await caller.cell.extendReservation({ cellToken: cell.token, reminderToken: held.token });
    expect(extended).toMatchObject({ expiresAt: until, extended: true, extensionAllowed: false });
    expect(await activeReservationOf(utc.deps.db, user.id)).toMatchObject({ expiresAt: until, extended: true });
    expect(await caller.user.reservedCell()).toMatchObject({
      expiresAt: until,
      extended: true,
      extensionAllowed: false,
    });

    // Once: a second try is refused and changes nothing.
    await expect(
      caller.cell.extendReservation({ cellToken: cell.token, reminderToken: held.token }),
    ).rejects.toMatchObject({
      cause: { code: 'extension_not_allowed' },
    });
    expect((await activeReservationOf(utc.deps.db, user.id))!.expiresAt).toBe(until);
  });

  it("shows nobody else the holder's reservation token", async () => {
    const { cell, user } = await holderOn(utc, utcTree);
    const held = (await activeReservationOf(utc.deps.db, user.id))!;
    const stranger = (await utc.addUser(Role.Artist)).user;
    expect(await utc.caller(stranger).user.reservedCell()).toBeNull();
    await expect(
      utc.caller(stranger).cell.extendReservation({ cellToken: cell.token, reminderToken: held.token }),
    ).rejects.toMatchObject({
      cause: { code: 'forbidden' },
    });
    expect((await activeReservationOf(utc.deps.db, user.id))!.extended).toBe(false);
  });
});

describe("midnight is the site's (SITE_TIMEZONE)", () => {
  it('ends the extended deadline at midnight in the site zone, whatever the process zone', async () => {
    const { user, caller, cell } = await holderOn(auckland, aucklandTree);
    const held = (await activeReservationOf(auckland.deps.db, user.id))!;
    // Deadline June 15, 12:00 UTC is June 16, 00:00 in Auckland (UTC+12); a week on is June 23 there, whose
    // midnight is June 23, 11:59:59.999 UTC. A UTC site would say June 22, 23:59:59.999 UTC.
    expect(held.expiresAt).toBe(Date.UTC(2026, 5, 15, 12));
    const extended = await caller.cell.extendReservation({ cellToken: cell.token, reminderToken: held.token });
    expect(extended.expiresAt).toBe(Date.UTC(2026, 5, 23, 11, 59, 59, 999));
  });

  it('hands the zone to the pages with the initial parameters', async () => {
    const res = await auckland.server.inject({
      method: 'GET',
      url: '/api/initial-params',
      headers: { 'x-requested-with': 'XMLHttpRequest' },
    });
    expect(res.statusCode).toBe(200);
    expect(JSON.stringify(res.json())).toContain('Pacific/Auckland');
  });

  it('refuses an unknown zone at start-up with one clear line', () => {
    expect(() => loadConfig({ SITE_TIMEZONE: 'Mars/Olympus_Mons' })).toThrow(ConfigError);
    expect(() => loadConfig({ SITE_TIMEZONE: 'Mars/Olympus_Mons' })).toThrow(/SITE_TIMEZONE: must be a time zone name/);
    expect(loadConfig({}).siteTimezone).toBe('UTC');
    expect(loadConfig({ SITE_TIMEZONE: 'Europe/Paris' }).siteTimezone).toBe('Europe/Paris');
  });
});
