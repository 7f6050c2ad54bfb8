/**
 * The dashboard's overview: the counts and the weekly growth series, drawn from the database, with weeks
 * starting on Monday 00:00 UTC. Events are placed at known times with the manual clock. The weeks' published pieces
 * are a range of an index on either engine, not every piece read (a million pieces took 0.7 s without it).
 */
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { art } from '#drizzle/tables.ts';
import { OVERVIEW_WEEKS } from '#shared/admin-api.ts';
import { Role } from '#shared/domain.ts';
import { weeklyQuery, weekStartOf, WEEK_MS } from '#server/services/admin/overview.ts';
import { expireReservations } from '#server/services/reservations/reservation-jobs.ts';
import { reserveCell } from '#server/services/reservations/reservations.ts';
import { createTree } from '#server/services/tree/tree.ts';
import { createTestApp, TEST_ENGINE, type TestApp } from '#tests/helpers/server/test-app.ts';
import { cellAt } from '../helpers/art-fixtures.ts';
import { submitPieceAt } from '../helpers/server/review-fixtures.ts';

const DAY = 24 * 60 * 60 * 1000;
/** Wednesday 2026-06-03 12:00 UTC: the current week starts on Monday 2026-06-01. */
const NOW = Date.UTC(2026, 5, 3, 12);
const THIS_WEEK = Date.UTC(2026, 5, 1);

let t: TestApp;
let admin: Awaited<ReturnType<TestApp['addUser']>>;

beforeAll(async () => {
  t = await createTestApp();
  const treeId = (await createTree(t.deps.db, t.clock.now(), 'Overview')).id;
  // Outside the window: a user from 30 weeks ago.
  t.clock.set(THIS_WEEK - 30 * WEEK_MS);
  await t.addUser(Role.Observer);
  // Week index 5 (20 weeks back): a new user reserves a square; 16 days on (week 7) the reservation expires.
  t.clock.set(THIS_WEEK - 20 * WEEK_MS + 2 * DAY);
  const early = await t.addUser(Role.Observer);
  await reserveCell(t.deps, early.user, (await cellAt(t.deps.db, treeId, 33, 0)).token);
  t.clock.advance(16 * DAY);
  expect(await expireReservations(t.deps)).toBe(1);
  // This week: staff, two artists; one piece published, one waiting; a removal request and a contact message.
  t.clock.set(NOW);
  admin = await t.addUser(Role.Admin);
  const published = await submitPieceAt(t, treeId, 33, 1, (await t.addUser(Role.Observer)).user, 'Published');
  await submitPieceAt(t, treeId, 33, 3, (await t.addUser(Role.Observer)).user, 'Waiting');
  await t.caller(admin.user).admin.publish({ artToken: published.artToken });
  const holder = await t.addUser(Role.Observer);
  await reserveCell(t.deps, holder.user, (await cellAt(t.deps.db, treeId, 34, 4)).token);
  await t
    .caller()
    .misc.contact({ subject: 'Hi', reason: 'Question', email: 'v@example.test', message: 'Hello there.' });
}, 60_000);
afterAll(() => t.cleanup());

describe('the overview', () => {
  it('starts weeks on Monday 00:00 UTC', () => {
    expect(weekStartOf(NOW)).toBe(THIS_WEEK);
    expect(weekStartOf(THIS_WEEK)).toBe(THIS_WEEK);
    expect(weekStartOf(THIS_WEEK - 1)).toBe(THIS_WEEK - WEEK_MS);
    expect(new Date(weekStartOf(Date.UTC(2026, 0, 1))).toISOString()).toBe('2025-12-29T00:00:00.000Z');
  });

  it('counts the gallery now and charts the last 26 weeks from the database', async () => {
    const overview = await t.caller(admin.user).admin.overview();
    expect(overview.counts).toEqual({
      piecesPublished: 1,
      submittedWaiting: 1,
      reservationsActive: 1,
      users: 6,
      openRemovalRequests: 0,
      unhandledMessages: 1,
    });
    expect(overview.weeks).toHaveLength(OVERVIEW_WEEKS);
    expect(overview.weeks[0]!.weekStart).toBe(THIS_WEEK - 25 * WEEK_MS);
    expect(overview.weeks.at(-1)!.weekStart).toBe(THIS_WEEK);
    const nonZero = overview.weeks.flatMap((week, index) =>
      (['published', 'reservationsMade', 'reservationsExpired', 'newUsers'] as const)
        .filter((k) => week[k] > 0)
        .map((k) => `${index} ${k} ${week[k]}`),
    );
    // This week: 4 new users (staff, two artists, the holder) and 3 reservations (the two submitted pieces', one held).
    expect(nonZero.sort()).toEqual(
      [
        '25 newUsers 4',
        '25 published 1',
        '25 reservationsMade 3',
        '5 newUsers 1',
        '5 reservationsMade 1',
        '7 reservationsExpired 1',
      ].sort(),
    );
  });

  it("reads the weeks' published pieces by a range of an index, not every piece", async () => {
    const { sql: text, params } = weeklyQuery(t.deps.db, art, art.publishedAt, THIS_WEEK - 25 * WEEK_MS, NOW).toSQL();
    let plan: string;
    if (TEST_ENGINE === 'postgres') {
      // A table this small is read whole when that is cheaper: the plan the index allows is asked for.
      const client = await (t.deps.db.$client as unknown as pg.Pool).connect();
      try {
        await client.query('set enable_seqscan = off');
        plan = JSON.stringify((await client.query(`explain ${text}`, params)).rows);
        await client.query('reset enable_seqscan');
      } finally {
        client.release();
      }
    } else {
      plan = JSON.stringify(t.deps.db.$client.prepare(`explain query plan ${text}`).all(...params));
    }
    expect(plan).toContain('art_published_idx');
  });
});
