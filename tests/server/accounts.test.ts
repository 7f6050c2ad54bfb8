/**
 * Accounts over REST and tRPC: registration, login and logout, and the account form (names, e-mail and password
 * changes). Password reset and the limits on password work are in passwords.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { mailOutbox, users } from '#drizzle/tables.ts';
import { Role } from '#shared/domain.ts';
import { LIMITS } from '#server/services/rate-limit.ts';
import { BrowserLike } from '#tests/helpers/server/browser-like.ts';
import { freshEmail, goodPassword, useAccountsApp } from '#tests/helpers/server/accounts.ts';
import { firstRow, oneRow } from '#tests/helpers/server/rows.ts';

const app = useAccountsApp();

let serial = 0;

describe('registration', () => {
  it('creates an observer, signs them in, and stores the address lower-cased', async () => {
    const { browser, email, user } = await app.registered();
    expect(user).toMatchObject({
      firstname: 'Ada',
      lastname: 'Lovelace',
      email: email.toLowerCase(),
      role: Role.Observer,
    });
    const current = await browser.get('/api/user/current');
    expect(current.status).toBe(200);
    expect(current.body.r.token).toBe(user.token);
    expect(String(browser.cookie('session'))).toMatch(/^[\w-]+\.[\w-]+$/);
  });

  it('refuses an address already registered, whatever its case, and writes nothing', async () => {
    const { email } = await app.registered();
    const before = await app.userCount();
    const res = await new BrowserLike(app.t.server).post('/api/register', {
      firstname: 'Other',
      lastname: 'Person',
      email: email.toUpperCase(),
      password: goodPassword,
    });
    expect(res.status).toBe(409);
    expect(res.body.r.error).toBe('email_taken');
    expect(res.body.r.errors.email[0]).toMatch(/already registered/);
    expect(await app.userCount()).toBe(before);
  });

  it.each([
    [{ firstname: '  ' }, 'firstname', 'First name cannot be blank.'],
    [{ lastname: '' }, 'lastname', 'Last name cannot be blank.'],
    [{ firstname: 'x'.repeat(65) }, 'firstname', 'Maximal length is 64 symbols.'],
    [{ email: '' }, 'email', 'Email cannot be blank.'],
    [{ email: 'not-an-address' }, 'email', 'Invalid email address.'],
    [{ email: `${'a'.repeat(120)}@mail.test` }, 'email', 'Maximal length is 128 symbols.'],
    [{ password: '' }, 'password', 'Password cannot be blank.'],
    [{ password: 'ab1' }, 'password', 'Minimal length is 6 symbols.'],
    [{ password: 'abcdefgh' }, 'password', 'There must be at least one number or special sign.'],
    [{ password: `a1${'b'.repeat(63)}` }, 'password', 'Maximal length is 64 symbols.'],
  ])('refuses %j with the message on %s, and writes nothing', async (change, field, message) => {
    const before = await app.userCount();
    const res = await new BrowserLike(app.t.server).post('/api/register', {
      firstname: 'Ada',
      lastname: 'Lovelace',
      email: freshEmail(),
      password: goodPassword,
      ...change,
    });
    expect(res.status).toBe(400);
    expect(res.body.r.error).toBe('validation_failed');
    expect(res.body.r.errors[field]).toEqual([message]);
    expect(await app.userCount()).toBe(before);
  });
});

describe('login and logout', () => {
  it('opens a fresh session on login and ends it on logout', async () => {
    const { email, password, user } = await app.registered();
    const browser = new BrowserLike(app.t.server);
    const res = await browser.post('/api/auth/login', { username: email, password });
    expect(res.status).toBe(200);
    expect(res.body.r.token).toBe(user.token);
    const first = browser.cookie('session');
    await browser.post('/api/auth/login', { username: email, password });
    expect(browser.cookie('session')).not.toBe(first);
    // The replaced session is gone, not merely forgotten by the browser.
    const stale = new BrowserLike(app.t.server);
    stale.setCookie('session', first!);
    expect((await stale.get('/api/user/current')).status).toBe(401);

    expect((await browser.post('/api/auth/logout')).status).toBe(200);
    expect(browser.cookie('session')).toBeUndefined();
    expect((await browser.get('/api/user/current')).status).toBe(401);
  });

  it('keeps the current session when a login attempt fails', async () => {
    const { email, password } = await app.registered();
    const browser = new BrowserLike(app.t.server);
    await browser.post('/api/auth/login', { username: email, password });
    const signedIn = browser.cookie('session');
    expect((await browser.post('/api/auth/login', { username: email, password: 'not-it-1' })).status).toBe(401);
    expect(browser.cookie('session')).toBe(signedIn);
    expect((await browser.get('/api/user/current')).status).toBe(200);
  });

  it('answers a wrong password and an unknown address with the same error', async () => {
    const { email } = await app.registered();
    const wrong = await new BrowserLike(app.t.server).post('/api/auth/login', {
      username: email,
      password: 'not-it-1',
    });
    const unknown = await new BrowserLike(app.t.server).post('/api/auth/login', {
      username: 'nobody@mail.test',
      password: 'not-it-1',
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.r).toEqual({ error: 'invalid_credentials', message: 'Wrong e-mail address or password.' });
  });

  it('accepts the address in any case', async () => {
    const { email, password } = await app.registered();
    const res = await new BrowserLike(app.t.server).post('/api/auth/login', {
      username: `  ${email.toUpperCase()} `,
      password,
    });
    expect(res.status).toBe(200);
  });

  it('checks the login form: username must be an e-mail, password required', async () => {
    const res = await new BrowserLike(app.t.server).post('/api/auth/login', { username: 'ada', password: '' });
    expect(res.status).toBe(400);
    expect(res.body.r.errors).toEqual({
      username: ['Invalid email address.'],
      password: ['Password cannot be blank.'],
    });
  });

  it('refuses a login without the CSRF token', async () => {
    const { email, password } = await app.registered();
    const res = await app.t.server.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: email, password },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().r.error).toBe('csrf_failed');
  });

  it('tells a guest calling logout that nobody is signed in', async () => {
    const res = await new BrowserLike(app.t.server).post('/api/auth/logout');
    expect(res.status).toBe(401);
    expect(res.body.r.error).toBe('unauthenticated');
  });

  it(`slows an address after ${LIMITS.loginFailuresPerAccountIp.max} wrong passwords for one account, while its owner elsewhere still signs in`, async () => {
    const { email, password } = await app.registered();
    const attacker = new BrowserLike(app.t.server);
    const answers = [];
    for (let i = 0; i < LIMITS.loginFailuresPerAccountIp.max + 1; i++)
      answers.push((await attacker.post('/api/auth/login', { username: email, password: 'wrong-pass-1' })).status);
    expect(answers.slice(0, -1).every((s) => s === 401)).toBe(true);
    expect(answers.at(-1)).toBe(429);
    // Even the right password is refused from that address for now: the limit is not an oracle.
    expect((await attacker.post('/api/auth/login', { username: email, password })).status).toBe(429);
    // The owner, from an address with no failures, is not locked out; nor is that address once the window passes.
    expect((await new BrowserLike(app.t.server).post('/api/auth/login', { username: email, password })).status).toBe(
      200,
    );
    app.t.clock.advance(16 * 60_000);
    expect((await attacker.post('/api/auth/login', { username: email, password: 'wrong-pass-1' })).status).toBe(401);
  });

  it(`slows an address after ${LIMITS.loginFailuresPerIp.max} wrong passwords whatever the accounts, and only that address`, async () => {
    const { email, password } = await app.registered();
    const attacker = new BrowserLike(app.t.server);
    for (let i = 0; i < LIMITS.loginFailuresPerIp.max; i++) {
      expect(
        (await attacker.post('/api/auth/login', { username: `nobody${i}@mail.test`, password: 'wrong-pass-1' })).status,
      ).toBe(401);
    }
    expect((await attacker.post('/api/auth/login', { username: email, password })).status).toBe(429);
    expect((await new BrowserLike(app.t.server).post('/api/auth/login', { username: email, password })).status).toBe(
      200,
    );
    app.t.clock.advance(16 * 60_000);
  });

  it('does not count successful logins as failures', async () => {
    const { email, password } = await app.registered();
    const browser = new BrowserLike(app.t.server);
    for (let i = 0; i < LIMITS.loginFailuresPerAccountIp.max + 2; i++)
      expect((await browser.post('/api/auth/login', { username: email, password })).status).toBe(200);
  });
});

describe('the account form', () => {
  const account = (token: string, change: Record<string, unknown> = {}) => ({
    firstname: 'Grace',
    lastname: 'Hopper',
    email: `grace${++serial}@mail.test`,
    show_email: true,
    password: '',
    confirm_password: '',
    ...change,
  });

  it('changes names, address and show_email for the owner', async () => {
    const { browser, user } = await app.registered();
    const body = account(user.token, { current_password: goodPassword });
    const res = await browser.post(`/api/user/${user.token}/account`, body);
    expect(res.status).toBe(200);
    expect(res.body.r).toMatchObject({ firstname: 'Grace', lastname: 'Hopper', email: body.email, show_email: true });
  });

  it('changes names alone without the current password, but asks for it before a new address or password', async () => {
    const { browser, user, email } = await app.registered();
    const renamed = await browser.post(`/api/user/${user.token}/account`, account(user.token, { email }));
    expect(renamed.status).toBe(200);
    const before = await oneRow(app.t.deps.db.select().from(users).where(eq(users.token, user.token)));

    const missing = await browser.post(
      `/api/user/${user.token}/account`,
      account(user.token, { firstname: 'Mallory' }),
    );
    expect(missing.status).toBe(400);
    expect(missing.body.r.errors).toEqual({
      current_password: ['Enter your current password to change your e-mail address or password.'],
    });
    const wrong = await browser.post(
      `/api/user/${user.token}/account`,
      account(user.token, {
        email,
        password: 'taken&over1',
        confirm_password: 'taken&over1',
        current_password: 'a guess 1',
      }),
    );
    expect(wrong.status).toBe(400);
    expect(wrong.body.r.errors).toEqual({ current_password: ['This is not your current password.'] });
    expect(await firstRow(app.t.deps.db.select().from(users).where(eq(users.token, user.token)))).toEqual(before);
    expect(
      (await new BrowserLike(app.t.server).post('/api/auth/login', { username: email, password: goodPassword })).status,
    ).toBe(200);
  });

  it('voids every reset link still out when the password changes', async () => {
    const { browser, user, email } = await app.registered();
    await new BrowserLike(app.t.server).post('/api/password/reset', { username: email });
    const token = /\/restore-password\/([\w-]+)/.exec(
      (await app.t.deps.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email.toLowerCase()))).at(-1)!
        .textBody,
    )![1]!;
    const changed = await browser.post(
      `/api/user/${user.token}/account`,
      account(user.token, {
        email,
        password: 'fresh&paint1',
        confirm_password: 'fresh&paint1',
        current_password: goodPassword,
      }),
    );
    expect(changed.status).toBe(200);
    const stale = await new BrowserLike(app.t.server).post(`/api/password/restore/${token}`, {
      password: 'evil&other9',
    });
    expect(stale.body.r.error).toBe('invalid_reset_token');
    expect(
      (await new BrowserLike(app.t.server).post('/api/auth/login', { username: email, password: 'fresh&paint1' }))
        .status,
    ).toBe(200);
  });

  it('keeps the person who changed the password signed in and ends every other session', async () => {
    const { browser, email, user } = await app.registered();
    const elsewhere = new BrowserLike(app.t.server);
    await elsewhere.post('/api/auth/login', { username: email, password: goodPassword });
    const res = await browser.post(
      `/api/user/${user.token}/account`,
      account(user.token, {
        email,
        password: 'fresh&paint1',
        confirm_password: 'fresh&paint1',
        current_password: goodPassword,
      }),
    );
    expect(res.status).toBe(200);
    expect((await browser.get('/api/user/current')).status).toBe(200);
    expect((await elsewhere.get('/api/user/current')).status).toBe(401);
    expect(
      (await new BrowserLike(app.t.server).post('/api/auth/login', { username: email, password: 'fresh&paint1' }))
        .status,
    ).toBe(200);
  });

  it("refuses a confirmation that differs, an address in use, and another person's account", async () => {
    const { browser, user, email } = await app.registered();
    const other = await app.registered();
    const mismatch = await browser.post(
      `/api/user/${user.token}/account`,
      account(user.token, { password: 'fresh&paint1', confirm_password: 'fresh&paint2' }),
    );
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.r.errors).toEqual({ confirm_password: ['The password confirmation does not match.'] });
    const clash = await browser.post(
      `/api/user/${user.token}/account`,
      account(user.token, { email: other.email.toUpperCase(), current_password: goodPassword }),
    );
    expect(clash.status).toBe(409);
    expect(clash.body.r.errors.email).toEqual(['This e-mail address is used by another account.']);
    const foreign = await browser.post(`/api/user/${other.user.token}/account`, account(other.user.token));
    expect(foreign.status).toBe(403);
    const unchanged = await oneRow(app.t.deps.db.select().from(users).where(eq(users.token, user.token)));
    expect(unchanged).toMatchObject({ firstname: 'Ada', email: email.toLowerCase() });
    expect((await oneRow(app.t.deps.db.select().from(users).where(eq(users.token, other.user.token)))).firstname).toBe(
      'Ada',
    );
  });

  it('tells a guest to sign in', async () => {
    const res = await new BrowserLike(app.t.server).post(`/api/user/${'a'.repeat(22)}/account`, account('x'));
    expect(res.status).toBe(401);
    expect(res.body.r.error).toBe('unauthenticated');
  });
});
