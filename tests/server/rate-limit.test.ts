/**
 * Rate limits (server/services/rate-limit.ts, decision 006): account limits written at every attempt; the read
 * limits counted in memory and written in batches, so that a restart carries a window's count on and a crash
 * forgets at most the hits since the last write.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { rateLimitHits } from '#drizzle/schema.ts';
import { closeDatabase, openDatabase, type Db } from '#server/db.ts';
import { AppError } from '#server/errors.ts';
import { FLUSH_MS, LIMITS, flushRateLimits, hitRateLimit, type Limit } from '#server/services/rate-limit.ts';
import { ErrorCode } from '#shared/errors.ts';
import { createTestApp, tempDir } from '#tests/helpers/server/test-app.ts';

const NOW = Date.UTC(2026, 5, 1, 12, 0, 30);
const dirs: string[] = [];
const open: Db[] = [];

function connect(file: string): Db {
  const db = openDatabase(file);
  open.push(db);
  return db;
}

function freshFile(): string {
  const dir = tempDir('gallery-rate-limit-');
  dirs.push(dir);
  return path.join(dir, 'gallery.db');
}

function savedCount(db: Db, limit: Limit, subject: string, now = NOW): number | undefined {
  const windowStart = now - (now % limit.windowMs);
  return db
    .select({ count: rateLimitHits.count })
    .from(rateLimitHits)
    .where(and(eq(rateLimitHits.key, `${limit.name}:${subject}`), eq(rateLimitHits.windowStart, windowStart)))
    .get()?.count;
}

/** How many more hits `db` allows `subject` before refusing, and the refusal. */
async function hitsUntilRefused(
  db: Db,
  limit: Limit,
  subject: string,
  now = NOW,
): Promise<{ allowed: number; refusal: unknown }> {
  for (let allowed = 0; allowed <= limit.max + 1; allowed++) {
    try {
      await hitRateLimit(db, now, limit, subject);
    } catch (refusal) {
      return { allowed, refusal };
    }
  }
  throw new Error('the limit never refused');
}

afterEach(() => {
  for (const db of open.splice(0)) if (db.$client.open) closeDatabase(db);
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('rate limits', () => {
  it('writes an account limit at every attempt', async () => {
    const db = connect(freshFile());
    await hitRateLimit(db, NOW, LIMITS.loginPerIp, '10.0.0.1');
    await hitRateLimit(db, NOW, LIMITS.loginPerIp, '10.0.0.1');
    expect(savedCount(db, LIMITS.loginPerIp, '10.0.0.1')).toBe(2);
  });

  it('refuses a batched limit past its maximum with rate_limited', async () => {
    const db = connect(freshFile());
    const { allowed, refusal } = await hitsUntilRefused(db, LIMITS.searchPerIp, '10.0.0.2');
    expect(allowed).toBe(LIMITS.searchPerIp.max);
    expect(refusal).toBeInstanceOf(AppError);
    expect((refusal as AppError).code).toBe(ErrorCode.RateLimited);
  });

  it('writes batched hits within FLUSH_MS, without being asked', async () => {
    const db = connect(freshFile());
    for (let i = 0; i < 5; i++) await hitRateLimit(db, NOW, LIMITS.searchPerIp, '10.0.0.3');
    await vi.waitFor(() => expect(savedCount(db, LIMITS.searchPerIp, '10.0.0.3')).toBe(5), {
      timeout: FLUSH_MS * 5,
      interval: 50,
    });
  });

  it('carries a window on across a restart, and a crash forgets only the hits after the last write', async () => {
    const file = freshFile();
    const first = connect(file);
    for (let i = 0; i < 100; i++) await hitRateLimit(first, NOW, LIMITS.searchPerIp, '10.0.0.4');
    await flushRateLimits(first);
    // Hits after the last write, then the process dies without writing them (the first connection stays unflushed).
    for (let i = 0; i < 10; i++) await hitRateLimit(first, NOW, LIMITS.searchPerIp, '10.0.0.4');
    const afterCrash = connect(file);
    expect((await hitsUntilRefused(afterCrash, LIMITS.searchPerIp, '10.0.0.4')).allowed).toBe(
      LIMITS.searchPerIp.max - 100,
    );
  });

  it('starts a new window afresh, and counts subjects apart', async () => {
    const db = connect(freshFile());
    expect((await hitsUntilRefused(db, LIMITS.zipPerIp, '10.0.0.5')).allowed).toBe(LIMITS.zipPerIp.max);
    expect((await hitsUntilRefused(db, LIMITS.zipPerIp, '10.0.0.6')).allowed).toBe(LIMITS.zipPerIp.max);
    const nextWindow = NOW + LIMITS.zipPerIp.windowMs;
    expect((await hitsUntilRefused(db, LIMITS.zipPerIp, '10.0.0.5', nextWindow)).allowed).toBe(LIMITS.zipPerIp.max);
  });

  it('writes what is counted when the server stops', async () => {
    const t = await createTestApp();
    dirs.push(t.dir);
    for (let i = 0; i < 3; i++) {
      const res = await t.server.inject({ url: '/api/cells/search?search=harbour', remoteAddress: '10.0.0.7' });
      expect(res.statusCode).toBe(200);
    }
    await t.stop();
    const db = connect(t.deps.config.databaseFile);
    expect(savedCount(db, LIMITS.searchPerIp, '10.0.0.7', t.clock.now())).toBe(3);
  });
});
