/**
 * Limits by network and by account (decision 040), over REST on a real SQLite file: every per-address limit counts an
 * IPv6 address by its /64 (IPv4, and IPv4 written as IPv6, by the address); wrong passwords for one account are
 * capped from all addresses together, yet its owner still gets in from a network they signed in from before, and
 * through a reset link.
 */
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { loginNetworks, mailOutbox, users } from '#drizzle/tables.ts';
import { networkOf } from '#server/services/network.ts';
import { KNOWN_NETWORKS_KEPT } from '#server/services/accounts/accounts.ts';
import { LIMITS } from '#server/services/rate-limit.ts';
import { BrowserLike } from '#tests/helpers/server/browser-like.ts';
import { freshEmail, goodPassword, useAccountsApp } from '#tests/helpers/server/accounts.ts';
import { oneRow } from '#tests/helpers/server/rows.ts';

const app = useAccountsApp();

/** A visitor from `ip`. */
const from = (ip: string) => new BrowserLike(app.t.server, ip);

const login = (ip: string, username: string, password: string) =>
  from(ip).post('/api/auth/login', { username, password });

/** Registers a member from `ip` (a success from there: the account's first known network). */
async function registeredFrom(ip: string, email = freshEmail()) {
  const res = await from(ip).post('/api/register', {
    firstname: 'Ada',
    lastname: 'Lovelace',
    email,
    password: goodPassword,
  });
  expect(res.status).toBe(200);
  return email;
}

describe('the network an address counts as', () => {
  it('is an IPv6 address’s /64, an IPv4 address itself, and IPv4 written as IPv6 the IPv4 address', () => {
    expect(networkOf('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(networkOf('2001:DB8:1:2::7')).toBe('2001:db8:1:2::/64');
    expect(networkOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(networkOf('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(networkOf('203.0.113.9')).toBe('203.0.113.9');
    expect(networkOf('::ffff:203.0.113.9')).toBe('203.0.113.9');
  });

  it('marks every per-address limit as one', () => {
    const perAddress = Object.entries(LIMITS).filter(([key]) => key.endsWith('PerIp'));
    expect(perAddress.length).toBeGreaterThan(8);
    for (const [key, limit] of perAddress)
      expect({ key, perAddress: 'perAddress' in limit }).toEqual({ key, perAddress: true });
  });
});

describe('per-address limits, for IPv6', () => {
  it(`refuses wrong logins past ${LIMITS.loginFailuresPerIp.max} from one /64, each from a new address in it`, async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= LIMITS.loginFailuresPerIp.max; i++)
      statuses.push(
        (await login(`2001:db8:10:1::${(i + 1).toString(16)}`, `ghost${i}@mail.test`, 'wrong-pass-1')).status,
      );
    expect(statuses.slice(0, -1).every((s) => s === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    // The next /64 is another client.
    expect((await login('2001:db8:10:2::1', 'ghost@mail.test', 'wrong-pass-1')).status).toBe(401);
  });

  it(`refuses registrations past ${LIMITS.registerPerIp.max} from one /64`, async () => {
    for (let i = 0; i < LIMITS.registerPerIp.max; i++) await registeredFrom(`2001:db8:11:1:${i + 1}::1`);
    const refused = await from('2001:db8:11:1:ffff::1').post('/api/register', {
      firstname: 'Ada',
      lastname: 'Lovelace',
      email: freshEmail(),
      password: goodPassword,
    });
    expect(refused.status).toBe(429);
    expect(refused.body.r.error).toBe('rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('counts an IPv4 address and the same address written as IPv6 as one', async () => {
    for (let i = 0; i < LIMITS.loginFailuresPerIp.max; i++) {
      const ip = i % 2 === 0 ? '198.51.100.20' : '::ffff:198.51.100.20';
      expect((await login(ip, `nobody${i}@mail.test`, 'wrong-pass-1')).status).toBe(401);
    }
    expect((await login('::ffff:198.51.100.20', 'nobody@mail.test', 'wrong-pass-1')).status).toBe(429);
    expect((await login('198.51.100.21', 'nobody@mail.test', 'wrong-pass-1')).status).toBe(401);
  });
});

describe('wrong passwords for one account, from many addresses', () => {
  /** One wrong password from each of `n` addresses, none of which reaches a per-address limit. */
  async function spreadGuesses(email: string, n: number, prefix: string) {
    for (let i = 0; i < n; i++) expect((await login(`${prefix}.${i + 1}`, email, 'wrong-pass-1')).status).toBe(401);
  }

  it(`refuses even the right password from a new address past ${LIMITS.loginFailuresPerAccount.max}, but not from the owner’s network`, async () => {
    const email = await registeredFrom('192.0.2.10');
    // A second success, from an IPv6 address: its whole /64 is known from then on.
    expect((await login('2001:db8:20:1::5', email, goodPassword)).status).toBe(200);
    await spreadGuesses(email, LIMITS.loginFailuresPerAccount.max, '203.0.113');

    const refused = await login('198.51.100.77', email, goodPassword);
    expect(refused.status).toBe(429);
    expect(refused.body.r.error).toBe('rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // An address that tried nothing yet is refused the same for an unknown account: the ceiling is no oracle.
    const stranger = 'stranger@mail.test';
    await spreadGuesses(stranger, LIMITS.loginFailuresPerAccount.max, '203.0.114');
    expect((await login('198.51.100.78', stranger, goodPassword)).status).toBe(429);

    // The owner's known networks still get in: the address they registered from, another address in their /64.
    expect((await login('192.0.2.10', email, goodPassword)).status).toBe(200);
    expect((await login('2001:db8:20:1:9::9', email, goodPassword)).status).toBe(200);
    // Once the window has passed, any address may try again.
    app.t.clock.advance(LIMITS.loginFailuresPerAccount.windowMs);
    expect((await login('198.51.100.77', email, goodPassword)).status).toBe(200);
  });

  it('lets the owner in through a reset link from a new address, and from there afterwards', async () => {
    const email = await registeredFrom('192.0.2.30');
    await spreadGuesses(email, LIMITS.loginFailuresPerAccount.max, '203.0.115');
    expect((await login('198.51.100.90', email, goodPassword)).status).toBe(429);

    expect((await from('198.51.100.90').post('/api/password/reset', { username: email })).status).toBe(200);
    const mail = (
      await app.t.deps.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email.toLowerCase()))
    ).at(-1)!;
    const token = /\/restore-password\/([\w-]+)/.exec(mail.textBody)![1]!;
    const restored = await from('198.51.100.90').post(`/api/password/restore/${token}`, { password: 'new&better9' });
    expect(restored.status).toBe(200);
    // The link's holder reads the account's mail: their network is now a known one.
    expect((await login('198.51.100.90', email, 'new&better9')).status).toBe(200);
    // Anyone else still waits out the window.
    expect((await login('198.51.100.91', email, 'new&better9')).status).toBe(429);
  });

  it(`remembers only the newest ${KNOWN_NETWORKS_KEPT} networks of an account`, async () => {
    const email = await registeredFrom('192.0.2.50');
    for (let i = 1; i <= KNOWN_NETWORKS_KEPT; i++) {
      app.t.clock.advance(1000);
      expect((await login(`2001:db8:30:${i}::1`, email, goodPassword)).status).toBe(200);
    }
    const id = (
      await oneRow(app.t.deps.db.select({ id: users.id }).from(users).where(eq(users.email, email.toLowerCase())))
    ).id;
    const kept = (
      await app.t.deps.db
        .select({ network: loginNetworks.network })
        .from(loginNetworks)
        .where(eq(loginNetworks.userId, id))
    )
      .map((row) => row.network)
      .sort();
    expect(kept).toEqual(Array.from({ length: KNOWN_NETWORKS_KEPT }, (_, i) => `2001:db8:30:${i + 1}::/64`));
  });
});
