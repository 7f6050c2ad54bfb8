/**
 * Fixed-window rate limits kept in the database (DESIGN.md §5), so a restart does not reset them. A refused
 * attempt answers rate_limited with the number of seconds to wait.
 */
import { lt, sql } from 'drizzle-orm';
import { rateLimitHits } from '#drizzle/schema.ts';
import { ErrorCode } from '#shared/errors.ts';
import type { Queryable } from '../db.ts';
import { AppError } from '../errors.ts';

export interface Limit {
  /** What is limited, e.g. 'login:ip'. */
  name: string;
  max: number;
  windowMs: number;
}

export const LIMITS = {
  loginPerIp: { name: 'login:ip', max: 30, windowMs: 15 * 60_000 },
  loginPerAddress: { name: 'login:address', max: 10, windowMs: 15 * 60_000 },
  registerPerIp: { name: 'register:ip', max: 10, windowMs: 60 * 60_000 },
  resetPerIp: { name: 'reset:ip', max: 10, windowMs: 60 * 60_000 },
  resetPerAddress: { name: 'reset:address', max: 3, windowMs: 60 * 60_000 },
  contactPerIp: { name: 'contact:ip', max: 5, windowMs: 60 * 60_000 },
  searchPerIp: { name: 'search:ip', max: 120, windowMs: 60_000 },
  /** Region details of a large tree: a fast pan over a big screen asks a few dozen blocks a minute; ten a second is plenty. */
  treeRegionPerIp: { name: 'tree-region:ip', max: 600, windowMs: 60_000 },
  /** The profile form's ZIP lookup: a few per form at most, so search's allowance is plenty. */
  zipPerIp: { name: 'zip:ip', max: 120, windowMs: 60_000 },
} as const satisfies Record<string, Limit>;

/** Counts one attempt against `limit` for `subject`; throws rate_limited past the maximum. */
export function hitRateLimit(db: Queryable, now: number, limit: Limit, subject: string): void {
  const windowStart = now - (now % limit.windowMs);
  const key = `${limit.name}:${subject.toLowerCase()}`;
  const row = db
    .insert(rateLimitHits)
    .values({ key, windowStart, count: 1 })
    .onConflictDoUpdate({ target: [rateLimitHits.key, rateLimitHits.windowStart], set: { count: sql`${rateLimitHits.count} + 1` } })
    .returning({ count: rateLimitHits.count })
    .get();
  if (row.count > limit.max) {
    const waitSeconds = Math.ceil((windowStart + limit.windowMs - now) / 1000);
    throw new AppError(ErrorCode.RateLimited, `Too many attempts. Try again in ${Math.ceil(waitSeconds / 60)} minutes.`);
  }
}

/** Drops finished windows (run by the job runner). */
export function pruneRateLimits(db: Queryable, now: number): void {
  db.delete(rateLimitHits).where(lt(rateLimitHits.windowStart, now - 24 * 60 * 60_000)).run();
}
