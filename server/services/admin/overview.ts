/**
 * The dashboard's overview: the gallery's counts at a glance and, for the last OVERVIEW_WEEKS weeks (Monday
 * 00:00 UTC to Monday), pieces published, reservations made and expired, and new users, counted in the database.
 */
import { and, count, eq, gte, isNull, lt, sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { art, contactMessages, removalRequests, reservations, users } from '#drizzle/tables.ts';
import { OVERVIEW_WEEKS, type AdminCounts, type AdminOverview } from '#shared/admin-api.ts';
import { ArtStatus } from '#shared/domain.ts';
import type { Queryable } from '../../db.ts';
import type { ServiceContext } from '../context.ts';

export const WEEK_MS = 7 * 24 * 60 * 60 * 1000;
/** 1970-01-05, the first Monday of unix time. */
const FIRST_MONDAY_MS = 4 * 24 * 60 * 60 * 1000;

/** Monday 00:00 UTC of the week holding `ms`. */
export function weekStartOf(ms: number): number {
  return Math.floor((ms - FIRST_MONDAY_MS) / WEEK_MS) * WEEK_MS + FIRST_MONDAY_MS;
}

async function countOf(q: Queryable, table: SQLiteTable, where?: SQL): Promise<number> {
  return (await q.select({ n: count() }).from(table).where(where))[0]?.n ?? 0;
}

async function counts(q: Queryable): Promise<AdminCounts> {
  return {
    piecesPublished: await countOf(q, art, eq(art.status, ArtStatus.Published)),
    submittedWaiting: await countOf(q, art, eq(art.status, ArtStatus.Submitted)),
    reservationsActive: await countOf(q, reservations, eq(reservations.state, 'active')),
    users: await countOf(q, users),
    openRemovalRequests: await countOf(q, removalRequests, eq(removalRequests.state, 'open')),
    unhandledMessages: await countOf(q, contactMessages, isNull(contactMessages.handledAt)),
  };
}

/** Rows counted per week since `from`, by week number (0: the week starting at `from`), as the database groups them. */
export function weeklyQuery(q: Queryable, table: SQLiteTable, at: SQLiteColumn, from: number, to: number, where?: SQL) {
  const bucket = sql<number>`cast((${at} - ${from}) / ${WEEK_MS} as integer)`;
  return (
    q
      .select({ week: bucket, n: count() })
      .from(table)
      .where(and(gte(at, from), lt(at, to), where))
      // By position: PostgreSQL takes the bucket written again, with its numbers bound anew, for another expression.
      .groupBy(sql`1`)
  );
}

/** Rows per week since `from`: index 0 is the week starting at `from`. */
async function weekly(
  q: Queryable,
  table: SQLiteTable,
  at: SQLiteColumn,
  from: number,
  to: number,
  where?: SQL,
): Promise<number[]> {
  const series = new Array<number>(OVERVIEW_WEEKS).fill(0);
  for (const { week, n } of await weeklyQuery(q, table, at, from, to, where))
    if (week >= 0 && week < OVERVIEW_WEEKS) series[week] = n;
  return series;
}

/** admin.overview: the counts, and the weeks oldest first with the current (partial) week last. */
export async function getOverview(ctx: ServiceContext): Promise<AdminOverview> {
  const to = weekStartOf(ctx.clock.now()) + WEEK_MS;
  const from = to - OVERVIEW_WEEKS * WEEK_MS;
  const { db } = ctx;
  const published = await weekly(db, art, art.publishedAt, from, to);
  const reservationsMade = await weekly(db, reservations, reservations.createdAt, from, to);
  // An expiry writes the reservation's updated_at once, as it ends.
  const reservationsExpired = await weekly(
    db,
    reservations,
    reservations.updatedAt,
    from,
    to,
    eq(reservations.state, 'expired'),
  );
  const newUsers = await weekly(db, users, users.createdAt, from, to);
  return {
    counts: await counts(db),
    weeks: published.map((n, i) => ({
      weekStart: from + i * WEEK_MS,
      published: n,
      reservationsMade: reservationsMade[i]!,
      reservationsExpired: reservationsExpired[i]!,
      newUsers: newUsers[i]!,
    })),
  };
}
