/**
 * Fixed-window rate limits kept in the database, so a restart does not reset them (docs/product.md, Limits); a refused
 * attempt answers rate_limited with the seconds to wait. Account limits write every attempt at once; the read limits
 * every visitor hits (search, tree regions, ZIP lookups) are `batched` (decision 006).
 */
import { and, eq, lt, sql } from 'drizzle-orm';
import { rateLimitHits } from '#drizzle/tables.ts';
import { ErrorCode } from '#shared/errors.ts';
import { write, type Db, type Queryable } from '../db.ts';
import { AppError } from '../errors.ts';
import { networkOf } from './network.ts';
import { preparedForEngines } from './prepared.ts';

export interface Limit {
  /** What is limited, e.g. 'login:ip'. */
  name: string;
  max: number;
  windowMs: number;
  /**
   * Counted in memory per connection and written in one transaction at most FLUSH_MS after a hit, and when the server
   * stops, so a crash forgets at most that last second; otherwise every attempt is written at once. A window's count
   * is read from the database the first time this process sees it, so a restart carries it on, then at most once a
   * FLUSH_MS, and each write reads the total back: processes sharing the database count each other's hits within about
   * a second (decision 025).
   */
  batched?: boolean;
  /**
   * Counted per network, not per address: the subject is a client's address, and an IPv6 address counts by its /64
   * (networkOf, decision 040), so that one machine picking new addresses in its /64 is still one client.
   */
  perAddress?: true;
}

export const LIMITS = {
  /** Every login attempt from one network address (each costs a password hash, right or wrong). */
  loginPerIp: { name: 'login:ip', max: 60, windowMs: 15 * 60_000, perAddress: true },
  /**
   * Failed logins (decision 024): per account and address, so an attacker slows only their own address and the
   * owner's right password from anywhere else still works; and per address, whatever the accounts tried. The
   * account-and-address subject is built with networkOf by its caller.
   */
  loginFailuresPerAccountIp: { name: 'login-failed:account-ip', max: 10, windowMs: 15 * 60_000 },
  loginFailuresPerIp: { name: 'login-failed:ip', max: 30, windowMs: 15 * 60_000, perAddress: true },
  /**
   * Failed logins per account, from every address together (decision 040): past it, the account takes no password
   * from a network it has not signed in from before; its owner's known networks and a reset link still work.
   */
  loginFailuresPerAccount: { name: 'login-failed:account', max: 20, windowMs: 15 * 60_000 },
  registerPerIp: { name: 'register:ip', max: 10, windowMs: 60 * 60_000, perAddress: true },
  resetPerIp: { name: 'reset:ip', max: 10, windowMs: 60 * 60_000, perAddress: true },
  resetPerAddress: { name: 'reset:address', max: 3, windowMs: 60 * 60_000 },
  /**
   * Setting a new password from a link: a person needs a few tries at most. Counted in memory (batched), so that a
   * flood of made-up links costs a lookup each and no write; a link is counted only once it is found to be real.
   */
  restorePerIp: { name: 'restore:ip', max: 20, windowMs: 60 * 60_000, batched: true, perAddress: true },
  restorePerToken: { name: 'restore:token', max: 5, windowMs: 60 * 60_000, batched: true },
  contactPerIp: { name: 'contact:ip', max: 5, windowMs: 60 * 60_000, perAddress: true },
  /** Saves of a piece (each may decode three images) and of a profile (an avatar), per account: generous for a
   * person editing, a ceiling for a script. */
  artSavesPerUser: { name: 'art-save:user', max: 150, windowMs: 60 * 60_000 },
  profileSavesPerUser: { name: 'profile-save:user', max: 60, windowMs: 60 * 60_000 },
  searchPerIp: { name: 'search:ip', max: 120, windowMs: 60_000, batched: true, perAddress: true },
  /** Region details of a large tree: a fast pan over a big screen asks a few dozen blocks a minute; ten a second is plenty. */
  treeRegionPerIp: { name: 'tree-region:ip', max: 600, windowMs: 60_000, batched: true, perAddress: true },
  /** A live tree's changes: a tab polls every few seconds only while its event stream is down. */
  treeChangesPerIp: { name: 'tree-changes:ip', max: 600, windowMs: 60_000, batched: true, perAddress: true },
  /**
   * Opening a live tree's event stream (decision 040): a tab opens one, and again after each break (every few
   * seconds at worst, the stream's retry); a few tabs reconnecting stay well under it, a flood of opens does not.
   */
  treeStreamOpensPerIp: { name: 'tree-stream:ip', max: 30, windowMs: 60_000, batched: true, perAddress: true },
  /** The profile form's ZIP lookup: a few per form at most, so search's allowance is plenty. */
  zipPerIp: { name: 'zip:ip', max: 120, windowMs: 60_000, batched: true, perAddress: true },
} as const satisfies Record<string, Limit>;

/** The longest a batched hit stays in memory only: what a crash may forget. */
export const FLUSH_MS = 1000;

/** Counts one attempt against `limit` for `subject`; throws rate_limited past the maximum. */
export async function hitRateLimit(db: Db, now: number, limit: Limit, subject: string): Promise<void> {
  const windowStart = windowStartOf(limit, now);
  const key = keyOf(limit, subject);
  const count = limit.batched
    ? await countInMemory(db, key, now, windowStart, windowStart + limit.windowMs)
    : await write(db, (tx) => countInDatabase(tx, key, windowStart));
  if (count > limit.max) refuse(limit, now);
}

const windowStartOf = (limit: Limit, now: number) => now - (now % limit.windowMs);
const keyOf = (limit: Limit, subject: string) =>
  `${limit.name}:${limit.perAddress ? networkOf(subject) : subject.toLowerCase()}`;
const secondsLeft = (limit: Limit, now: number) => Math.ceil((windowStartOf(limit, now) + limit.windowMs - now) / 1000);

/**
 * For a batched limit: the seconds left in the window when `subject` has already gone past it, from the counts in
 * memory alone (no database read, nothing counted); null otherwise. Lets a request be refused before its body is
 * read (app.ts).
 */
export function secondsPastBatchedLimit(db: Db, now: number, limit: Limit, subject: string): number | null {
  const tally = batches.get(db.$client)?.tallies.get(keyOf(limit, subject));
  const past = tally !== undefined && tally.windowStart === windowStartOf(limit, now) && tally.count > limit.max;
  return past ? secondsLeft(limit, now) : null;
}

/** Refuses (rate_limited) when `subject` has already used up `limit`, without counting anything. */
export async function checkRateLimit(db: Queryable, now: number, limit: Limit, subject: string): Promise<void> {
  const count =
    (
      await db
        .select({ count: rateLimitHits.count })
        .from(rateLimitHits)
        .where(
          and(eq(rateLimitHits.key, keyOf(limit, subject)), eq(rateLimitHits.windowStart, windowStartOf(limit, now))),
        )
    )[0]?.count ?? 0;
  if (count >= limit.max) refuse(limit, now);
}

function refuse(limit: Limit, now: number): never {
  const waitSeconds = secondsLeft(limit, now);
  throw new AppError(
    ErrorCode.RateLimited,
    `Too many attempts. Try again in ${Math.ceil(waitSeconds / 60)} minutes.`,
    undefined,
    waitSeconds,
  );
}

async function countInDatabase(db: Queryable, key: string, windowStart: number): Promise<number> {
  return (
    await db
      .insert(rateLimitHits)
      .values({ key, windowStart, count: 1 })
      .onConflictDoUpdate({
        target: [rateLimitHits.key, rateLimitHits.windowStart],
        set: { count: sql`${rateLimitHits.count} + 1` },
      })
      .returning({ count: rateLimitHits.count })
  )[0]!.count;
}

/** A batched limit's window for one key: its whole count, and how much of it is not written yet. */
interface Tally {
  windowStart: number;
  windowEnd: number;
  count: number;
  unsaved: number;
  /** When the saved count was last read (by the limit's clock). */
  readAt: number;
}

/** One connection's batched counts. */
interface Batch {
  tallies: Map<string, Tally>;
  timer: NodeJS.Timeout | null;
}

const batches = new WeakMap<Db['$client'], Batch>();

const savedCount = preparedForEngines<[string, number], { count: number }>({
  sqlite: 'select count from rate_limit_hits where key = ? and window_start = ?',
  postgres: 'select count from rate_limit_hits where key = $1 and window_start = $2',
});

/** Counts written back in one statement at most. */
const FLUSH_ROWS = 500;

async function countInMemory(
  db: Db,
  key: string,
  now: number,
  windowStart: number,
  windowEnd: number,
): Promise<number> {
  let batch = batches.get(db.$client);
  if (!batch) {
    batch = { tallies: new Map(), timer: null };
    batches.set(db.$client, batch);
  }
  let tally = batch.tallies.get(key);
  if (!tally || tally.windowStart !== windowStart) {
    tally = { windowStart, windowEnd, count: 0, unsaved: 0, readAt: -Infinity };
    batch.tallies.set(key, tally);
  }
  // The saved count is read again at most once a FLUSH_MS: it holds the other processes' hits (decision 025). Hits
  // counted while it is read are in `unsaved`, so they are counted once.
  if (now - tally.readAt >= FLUSH_MS) {
    tally.readAt = now;
    const saved = (await savedCount.get(db, key, windowStart))?.count ?? 0;
    tally.count = saved + tally.unsaved;
  }
  tally.count++;
  tally.unsaved++;
  batch.timer ??= setTimeout(() => void flushLater(db), FLUSH_MS).unref();
  return tally.count;
}

/**
 * Writes the batched counts of this connection in one transaction and forgets the windows that have ended (by
 * `now`). Runs FLUSH_MS after the first unsaved hit, and when the server stops.
 */
export async function flushRateLimits(db: Db, now = Date.now()): Promise<void> {
  const batch = batches.get(db.$client);
  if (!batch) return;
  if (batch.timer) clearTimeout(batch.timer);
  batch.timer = null;
  if (isClosed(db)) return;
  // What is written now; hits counted while the write waits for its turn stay unsaved for the next flush.
  const unsaved = [...batch.tallies]
    .filter(([, tally]) => tally.unsaved > 0)
    .map(([key, tally]) => [key, { tally, unsaved: tally.unsaved }] as const);
  const totals = new Map<Tally, number>();
  // The total written back is every process's (decision 025): this process's count catches up with the others'.
  await write(db, async (tx) => {
    for (let i = 0; i < unsaved.length; i += FLUSH_ROWS) {
      const rows = unsaved.slice(i, i + FLUSH_ROWS);
      const written = await tx
        .insert(rateLimitHits)
        .values(rows.map(([key, { tally, unsaved }]) => ({ key, windowStart: tally.windowStart, count: unsaved })))
        .onConflictDoUpdate({
          target: [rateLimitHits.key, rateLimitHits.windowStart],
          set: { count: sql`${rateLimitHits.count} + excluded.count` },
        })
        .returning({ key: rateLimitHits.key, count: rateLimitHits.count });
      const byKey = new Map(rows);
      for (const total of written) totals.set(byKey.get(total.key)!.tally, total.count);
    }
  });
  for (const [, { tally, unsaved: saved }] of unsaved) {
    tally.unsaved -= saved;
    const total = totals.get(tally);
    if (total !== undefined) tally.count = total + tally.unsaved;
  }
  // A window that has ended is forgotten once all its hits are written: hits counted while this write waited for
  // the database (PostgreSQL's is a network away) are kept for the next flush.
  for (const [key, tally] of batch.tallies)
    if (tally.windowEnd <= now && tally.unsaved === 0) batch.tallies.delete(key);
}

/** Whether the database was closed (the server stopped): there is nothing to write the counts to. */
function isClosed(db: Db): boolean {
  const client = db.$client as { open?: boolean; ended?: boolean };
  return client.open === false || client.ended === true;
}

/** The timer's flush: a failed write (the database busy or closing) keeps the counts for the next one. */
async function flushLater(db: Db): Promise<void> {
  try {
    await flushRateLimits(db);
  } catch {
    // The counts stay unsaved; the next hit schedules another flush.
  }
}

/** Drops finished windows (run by the job runner). */
export async function pruneRateLimits(db: Db, now: number): Promise<void> {
  await write(
    db,
    async (tx) => await tx.delete(rateLimitHits).where(lt(rateLimitHits.windowStart, now - 24 * 60 * 60_000)),
  );
}
