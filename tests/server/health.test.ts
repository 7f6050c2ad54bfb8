/**
 * GET /api/health (decision 017): 200 with the version after a database query, 503 when the database cannot
 * answer; no session work, no cookies, no rate limit.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { count } from 'drizzle-orm';
import { rateLimitHits, sessions } from '#drizzle/tables.ts';
import { closeAppDatabase } from '#server/open-database.ts';
import { createTestApp, type TestApp } from '#tests/helpers/server/test-app.ts';
import packageJson from '../../package.json' with { type: 'json' };
import { oneRow } from '#tests/helpers/server/rows.ts';

let t: TestApp;
afterEach(async () => t.cleanup());

describe('the health endpoint', () => {
  it('answers 200 with ok, the database state and the version, and sets no cookie', async () => {
    t = await createTestApp();
    const res = await t.server.inject({ url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      r: { ok: true, db: 'ok', storage: 'ok', free_megabytes: expect.any(Number), version: packageJson.version },
    });
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('does no session work: a stale session cookie is neither looked up nor cleared', async () => {
    t = await createTestApp();
    const { cookie } = await t.addUser();
    const before = await t.deps.db.select().from(sessions);
    t.clock.advance(20 * 24 * 60 * 60 * 1000); // a lookup now would move the session's expiry and re-send the cookie
    const fresh = await t.server.inject({ url: '/api/health', headers: { cookie } });
    expect(fresh.statusCode).toBe(200);
    expect(fresh.headers['set-cookie']).toBeUndefined();
    const stale = await t.server.inject({
      url: '/api/health',
      headers: { cookie: 'session=not-a-real-session-token' },
    });
    expect(stale.statusCode).toBe(200);
    expect(stale.headers['set-cookie']).toBeUndefined();
    expect(await t.deps.db.select().from(sessions)).toEqual(before);
  });

  it('is not rate limited: many probes in a row all answer 200 and count nothing', async () => {
    t = await createTestApp();
    for (let i = 0; i < 300; i++) {
      const res = await t.server.inject({ url: '/api/health' });
      expect(res.statusCode).toBe(200);
    }
    expect((await oneRow(t.deps.db.select({ n: count() }).from(rateLimitHits))).n).toBe(0);
  });

  it('answers 503 when the database cannot answer', async () => {
    t = await createTestApp();
    await closeAppDatabase(t.deps.db);
    const res = await t.server.inject({ url: '/api/health' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({
      r: {
        ok: false,
        db: 'unavailable',
        storage: 'ok',
        free_megabytes: expect.any(Number),
        version: packageJson.version,
      },
    });
  });
});
