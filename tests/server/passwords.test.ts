/**
 * Password reset and restore over REST, and what bounds the cost of password hashing: made-up restore links, tRPC
 * batches of logins and the queue of password work.
 */
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { mailOutbox, users } from '#drizzle/tables.ts';
import { passwordWork } from '#server/auth/passwords.ts';
import { WorkQueue } from '#server/work-queue.ts';
import { deliverOutbox } from '#server/services/mail/mail.ts';
import { LIMITS } from '#server/services/rate-limit.ts';
import { REFUSAL_HOLD } from '#server/http/refusal-hold.ts';
import { TRPC_MAX_BATCH } from '#shared/constants.ts';
import { newToken } from '#server/tokens.ts';
import { BrowserLike } from '#tests/helpers/server/browser-like.ts';
import { linkIn, readOutbox } from '#tests/helpers/outbox.ts';
import { goodPassword, useAccountsApp } from '#tests/helpers/server/accounts.ts';
import { oneRow } from '#tests/helpers/server/rows.ts';

const app = useAccountsApp();

describe('password reset and restore', () => {
  const outboxFor = async (to: string) =>
    await app.t.deps.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, to.toLowerCase()));

  it('answers the same for a registered and an unknown address, and mails only the registered one', async () => {
    const { email } = await app.registered();
    const known = await new BrowserLike(app.t.server).post('/api/password/reset', { username: email });
    const unknown = await new BrowserLike(app.t.server).post('/api/password/reset', { username: 'ghost@mail.test' });
    expect(known.status).toBe(200);
    expect(unknown).toMatchObject({ status: known.status, body: known.body });
    expect(await outboxFor(email)).toHaveLength(1);
    expect(await outboxFor('ghost@mail.test')).toHaveLength(0);
  });

  it('restores through the e-mailed link once, ending every session', async () => {
    const { browser, email, user } = await app.registered();
    const other = new BrowserLike(app.t.server);
    await other.post('/api/auth/login', { username: email, password: goodPassword });
    await new BrowserLike(app.t.server).post('/api/password/reset', { username: email });
    await deliverOutbox(app.t.deps);
    const mail = readOutbox(app.t.deps.config.outboxDir).find((m) => m.to === email.toLowerCase())!;
    expect(mail.subject).toBe('Reset your Gallery Tree password');
    const link = linkIn(mail, /http:\/\/localhost:3000\/restore-password\/[\w-]+/);
    const token = link.split('/').at(-1)!;

    const restored = await new BrowserLike(app.t.server).post(`/api/password/restore/${token}`, {
      password: 'new&better9',
    });
    expect(restored.status).toBe(200);
    const id = (await oneRow(app.t.deps.db.select().from(users).where(eq(users.token, user.token)))).id;
    expect(await app.sessionCount(id)).toBe(0);
    expect((await browser.get('/api/user/current')).status).toBe(401);
    expect((await other.get('/api/user/current')).status).toBe(401);
    expect(
      (await new BrowserLike(app.t.server).post('/api/auth/login', { username: email, password: 'new&better9' }))
        .status,
    ).toBe(200);

    const reused = await new BrowserLike(app.t.server).post(`/api/password/restore/${token}`, {
      password: 'another&one9',
    });
    expect(reused.status).toBe(400);
    expect(reused.body.r.error).toBe('invalid_reset_token');
    expect(
      (await new BrowserLike(app.t.server).post('/api/auth/login', { username: email, password: 'new&better9' }))
        .status,
    ).toBe(200);
  });

  it('refuses an expired link and a made-up one, changing nothing', async () => {
    const { email } = await app.registered();
    await new BrowserLike(app.t.server).post('/api/password/reset', { username: email });
    const mail = (await outboxFor(email)).at(-1)!;
    const token = /\/restore-password\/([\w-]+)/.exec(mail.textBody)![1]!;
    app.t.clock.advance(61 * 60_000);
    const expired = await new BrowserLike(app.t.server).post(`/api/password/restore/${token}`, {
      password: 'new&better9',
    });
    expect(expired.status).toBe(400);
    expect(expired.body.r.error).toBe('invalid_reset_token');
    const madeUp = await new BrowserLike(app.t.server).post(`/api/password/restore/${'x'.repeat(32)}`, {
      password: 'new&better9',
    });
    expect(madeUp.body.r.error).toBe('invalid_reset_token');
    expect(
      (await new BrowserLike(app.t.server).post('/api/auth/login', { username: email, password: goodPassword })).status,
    ).toBe(200);
  });

  it('checks the new password with the registration rules', async () => {
    const res = await new BrowserLike(app.t.server).post(`/api/password/restore/${'x'.repeat(32)}`, {
      password: 'short',
    });
    expect(res.status).toBe(400);
    expect(res.body.r.errors.password).toEqual(['Minimal length is 6 symbols.']);
  });
});

describe('a flood of password restores', () => {
  const madeUpLink = () => `/api/password/restore/${newToken(24)}`;

  it('checks the link before hashing: made-up links cost no password hashing at all', async () => {
    const flood = new BrowserLike(app.t.server);
    const before = passwordWork.started;
    for (let i = 0; i < 10; i++) {
      const res = await flood.post(madeUpLink(), { password: 'new&better9' });
      expect(res.body.r.error).toBe('invalid_reset_token');
    }
    expect(passwordWork.started).toBe(before);
  });

  it(`refuses an address past ${LIMITS.restorePerIp.max} tries an hour (429, Retry-After), while the owner's link works from elsewhere`, async () => {
    const { email } = await app.registered();
    await new BrowserLike(app.t.server).post('/api/password/reset', { username: email });
    const token = /\/restore-password\/([\w-]+)/.exec(
      (await app.t.deps.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email.toLowerCase()))).at(-1)!
        .textBody,
    )![1]!;
    const flood = new BrowserLike(app.t.server);
    for (let i = 0; i < LIMITS.restorePerIp.max; i++)
      expect((await flood.post(madeUpLink(), { password: 'new&better9' })).body.r.error).toBe('invalid_reset_token');
    const refused = await flood.post(`/api/password/restore/${token}`, { password: 'new&better9' });
    expect(refused.status).toBe(429);
    expect(refused.body.r.error).toBe('rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);

    // Past the limit, the address is refused before its request is even read: a body that does not parse is no 400.
    const unread = await app.t.server.inject({
      method: 'POST',
      url: `/api/password/restore/${token}`,
      remoteAddress: flood.ip,
      headers: { 'content-type': 'application/json' },
      payload: '{not json',
    });
    expect(unread.statusCode).toBe(429);
    expect(unread.headers['retry-after']).toBeDefined();
    const owner = await new BrowserLike(app.t.server).post(`/api/password/restore/${token}`, {
      password: 'new&better9',
    });
    expect(owner.status).toBe(200);
    expect(
      (await new BrowserLike(app.t.server).post('/api/auth/login', { username: email, password: 'new&better9' }))
        .status,
    ).toBe(200);
  });

  it(`holds the refusals of an address past its limit a moment, at most ${REFUSAL_HOLD.perAddress} at once; past that, refuses at once and closes`, async () => {
    const flood = new BrowserLike(app.t.server);
    for (let i = 0; i < LIMITS.restorePerIp.max; i++) await flood.post(madeUpLink(), { password: 'new&better9' });
    expect((await flood.post(madeUpLink(), { password: 'new&better9' })).status).toBe(429);
    const order: string[] = [];
    const send = (i: number) =>
      app.t.server
        .inject({
          method: 'POST',
          url: madeUpLink(),
          remoteAddress: flood.ip,
          headers: { 'content-type': 'application/json' },
          payload: '{}',
        })
        .then((res) => {
          order.push(res.headers.connection === 'close' ? `closed ${i}` : `held ${i}`);
          return res;
        });
    const answers = await Promise.all(Array.from({ length: REFUSAL_HOLD.perAddress + 3 }, (_, i) => send(i)));
    expect(answers.every((a) => a.statusCode === 429 && a.json().r.error === 'rate_limited')).toBe(true);
    // The three past the holds are answered first, while the others still wait.
    expect(order.slice(0, 3).every((o) => o.startsWith('closed'))).toBe(true);
    expect(order.slice(3).every((o) => o.startsWith('held'))).toBe(true);
    // Another address is not held behind them.
    expect((await new BrowserLike(app.t.server).post(madeUpLink(), { password: 'new&better9' })).body.r.error).toBe(
      'invalid_reset_token',
    );
  });

  it(`hashes at most ${LIMITS.restorePerToken.max} passwords for one real link, however many arrive at once; one of them wins`, async () => {
    const { email } = await app.registered();
    await new BrowserLike(app.t.server).post('/api/password/reset', { username: email });
    const token = /\/restore-password\/([\w-]+)/.exec(
      (await app.t.deps.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email.toLowerCase()))).at(-1)!
        .textBody,
    )![1]!;
    const before = passwordWork.started;
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        new BrowserLike(app.t.server).post(`/api/password/restore/${token}`, { password: `racing&new${i}` }),
      ),
    );
    expect(passwordWork.started - before).toBeLessThanOrEqual(LIMITS.restorePerToken.max);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(
      answers
        .filter((a) => a.status !== 200)
        .every((a) => ['rate_limited', 'invalid_reset_token'].includes(a.body.r.error)),
    ).toBe(true);
    expect(answers.some((a) => a.body.r?.error === 'rate_limited')).toBe(true);
  });

  it('voids every other reset link of the account once one is used', async () => {
    const { email } = await app.registered();
    for (let i = 0; i < 2; i++) await new BrowserLike(app.t.server).post('/api/password/reset', { username: email });
    const [first, second] = (
      await app.t.deps.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email.toLowerCase()))
    ).map((m) => /\/restore-password\/([\w-]+)/.exec(m.textBody)![1]!);
    expect(
      (await new BrowserLike(app.t.server).post(`/api/password/restore/${second}`, { password: 'new&better9' })).status,
    ).toBe(200);
    const stale = await new BrowserLike(app.t.server).post(`/api/password/restore/${first}`, {
      password: 'evil&other9',
    });
    expect(stale.body.r.error).toBe('invalid_reset_token');
    expect(
      (await new BrowserLike(app.t.server).post('/api/auth/login', { username: email, password: 'new&better9' }))
        .status,
    ).toBe(200);
  });
});

describe('a batch of costly calls', () => {
  const batchOf = (n: number, call: (i: number) => unknown) =>
    Object.fromEntries(Array.from({ length: n }, (_, i) => [String(i), call(i)]));
  const loginBatch = (browser: BrowserLike, n: number, password: string, email: string) =>
    browser.post(
      `/trpc/${Array(n).fill('auth.login').join(',')}?batch=1`,
      batchOf(n, () => ({ username: email, password })),
    );

  it(`is refused whole past ${TRPC_MAX_BATCH} calls (400), before any of them runs`, async () => {
    const { email } = await app.registered();
    const before = passwordWork.started;
    const res = await loginBatch(new BrowserLike(app.t.server), TRPC_MAX_BATCH + 1, 'wrong&guess1', email);
    expect(res.status).toBe(400);
    expect(passwordWork.started).toBe(before);
  });

  it('counts each call against its own rate limit: a batch buys no extra tries', async () => {
    const { email } = await app.registered();
    const attacker = new BrowserLike(app.t.server);
    const answers: { error?: { data?: { app?: { error?: string } } } }[] = [];
    for (let sent = 0; sent < LIMITS.loginFailuresPerIp.max + TRPC_MAX_BATCH; sent += TRPC_MAX_BATCH) {
      answers.push(
        ...((await loginBatch(attacker, TRPC_MAX_BATCH, 'wrong&guess1', `${sent}${email}`)).body as typeof answers),
      );
    }
    const codes = answers.map((a) => a.error?.data?.app?.error);
    expect(codes.slice(0, LIMITS.loginFailuresPerIp.max).every((code) => code === 'invalid_credentials')).toBe(true);
    expect(codes.slice(LIMITS.loginFailuresPerIp.max)).toEqual(Array(TRPC_MAX_BATCH).fill('rate_limited'));
  });
});

describe('the queue of password work', () => {
  it('runs a few at once, in order, and refuses (busy, Retry-After) once its waiting line is full', async () => {
    const queue = new WorkQueue(1, 2);
    const order: number[] = [];
    const releases: (() => void)[] = [];
    const job = (n: number) => () =>
      new Promise<number>((resolve) =>
        releases.push(() => {
          order.push(n);
          resolve(n);
        }),
      );
    const running = [queue.run(job(1)), queue.run(job(2)), queue.run(job(3))];
    const refused = await queue.run(job(4)).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'busy', retryAfter: 2 });
    expect(queue.started).toBe(1);
    while (order.length < 3) {
      await new Promise((resolve) => setImmediate(resolve));
      releases.shift()?.();
    }
    expect(await Promise.all(running)).toEqual([1, 2, 3]);
    expect(order).toEqual([1, 2, 3]);
    expect(queue.started).toBe(3);
    // Free again: the next one runs at once.
    const next = queue.run(job(5));
    await new Promise((resolve) => setImmediate(resolve));
    releases.shift()!();
    expect(await next).toBe(5);
  });
});
