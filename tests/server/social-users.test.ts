/**
 * Likes and follows between users (decision 014): through tRPC and over HTTP. Liking is idempotent and counts
 * never go below 0; following twice and unfollowing someone not followed are refused; nobody likes or follows
 * themselves or acts as someone else. Every refusal changes nothing.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '#drizzle/tables.ts';
import { Role } from '#shared/domain.ts';
import { toAppError } from '#server/errors.ts';
import { createTestApp, type TestApp } from '#tests/helpers/server/test-app.ts';
import { browserFor } from '../helpers/art-fixtures.ts';
import { expectFailure, expectSuccess } from '../helpers/server/envelope.ts';
import { profileState, validProfile } from '../helpers/server/profile-fixtures.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.cleanup());

const state = async () => await profileState(t.deps.db, t.deps.media);

async function codeOf(call: Promise<unknown>): Promise<string> {
  return call.then(
    () => 'accepted',
    (e: unknown) => toAppError(e).code,
  );
}

describe('liking a member', () => {
  it('is a toggle: liking twice or unliking twice changes nothing, and the count never goes below 0', async () => {
    const artist = (await t.addUser(Role.Artist)).user;
    const fan = (await t.addUser(Role.Observer)).user;
    const other = (await t.addUser(Role.Observer)).user;
    const pair = { userToken: fan.token, otherToken: artist.token };
    const c = t.caller(fan);
    expect(await c.user.likeStatus(pair)).toEqual({ liked: 0, likes: 0 });
    expect(await c.user.unlike(pair)).toEqual({ liked: 0, likes: 0 });
    expect(await c.user.like(pair)).toEqual({ liked: 1, likes: 1 });
    expect(await c.user.like(pair)).toEqual({ liked: 1, likes: 1 });
    expect(await t.caller(other).user.like({ userToken: other.token, otherToken: artist.token })).toEqual({
      liked: 1,
      likes: 2,
    });
    expect(await c.user.unlike(pair)).toEqual({ liked: 0, likes: 1 });
    expect(await c.user.unlike(pair)).toEqual({ liked: 0, likes: 1 });
    expect((await t.caller().user.profile({ token: artist.token })).activity.likes).toBe(1);
  });

  it('refuses liking oneself, liking as someone else (admins included) and an unknown member, changing nothing', async () => {
    const me = (await t.addUser(Role.Artist)).user;
    const admin = (await t.addUser(Role.Admin)).user;
    const target = (await t.addUser(Role.Artist)).user;
    const before = await state();
    expect(await codeOf(t.caller(me).user.like({ userToken: me.token, otherToken: me.token }))).toBe('own_profile');
    expect(await codeOf(t.caller(me).user.likeStatus({ userToken: me.token, otherToken: me.token }))).toBe(
      'own_profile',
    );
    expect(await codeOf(t.caller(admin).user.like({ userToken: me.token, otherToken: target.token }))).toBe(
      'forbidden',
    );
    expect(await codeOf(t.caller(me).user.like({ userToken: me.token, otherToken: 'm'.repeat(22) }))).toBe(
      'user_not_found',
    );
    expect(await codeOf(t.caller(me).user.like({ userToken: me.token, otherToken: 'bad token!' }))).toBe(
      'validation_failed',
    );
    expect(await state()).toEqual(before);
  });

  it('works over HTTP: GET, PUT and DELETE, the count surviving a reload of the profile', async () => {
    const artist = await t.addUser(Role.Artist);
    const fan = await t.addUser(Role.Observer);
    const browser = await browserFor(t, fan.cookie);
    const url = `/api/user/${fan.user.token}/like/${artist.user.token}`;
    expect(expectSuccess(await browser.get(url))).toEqual({ liked: 0, likes: 0 });
    expect(expectSuccess(await browser.request('PUT', url))).toEqual({ liked: 1, likes: 1 });
    expect(expectSuccess(await browser.get(`/api/user/${artist.user.token}/profile`)).activity.likes).toBe(1);
    expect(expectSuccess(await browser.request('DELETE', url))).toEqual({ liked: 0, likes: 0 });

    const before = await state();
    expectFailure(await browser.request('PUT', `/api/user/${fan.user.token}/like/${fan.user.token}`), 'own_profile');
    expectFailure(await (await browserFor(t)).request('PUT', url), 'unauthenticated');
    expect(await state()).toEqual(before);
  });
});

describe('following a member', () => {
  it('follows once, refuses a second follow, lists the followed newest first, and unfollows once', async () => {
    const me = (await t.addUser(Role.Observer)).user;
    const first = (await t.addUser(Role.Artist)).user;
    const second = (await t.addUser(Role.Artist)).user;
    await t
      .caller(second)
      .user.updateProfile({ token: second.token, ...validProfile({ city: 'Boston', state: 'MA', zipcode: '02134' }) });
    const c = t.caller(me);
    const to = (other: { token: string }) => ({ token: me.token, otherToken: other.token });

    expect(await c.user.followStatus(to(first))).toEqual({ following: 0, followers: 0 });
    const firstAt = t.clock.now();
    expect(await c.user.follow(to(first))).toEqual({ following: 1, followers: 1 });
    t.clock.advance(60_000);
    const secondAt = t.clock.now();
    await c.user.follow(to(second));

    const before = await state();
    expect(await codeOf(c.user.follow(to(first)))).toBe('already_following');
    expect(await state()).toEqual(before);

    expect(await c.user.following({ token: me.token })).toEqual([
      {
        token: second.token,
        firstname: second.firstname,
        lastname: second.lastname,
        image: null,
        city: 'Boston',
        country: 'US',
        created_at: secondAt,
      },
      {
        token: first.token,
        firstname: first.firstname,
        lastname: first.lastname,
        image: null,
        city: '',
        country: '',
        created_at: firstAt,
      },
    ]);
    expect((await t.caller().user.profile({ token: first.token })).activity.followers).toBe(1);

    expect(await c.user.unfollow(to(first))).toEqual({ following: 0, followers: 0 });
    const after = await state();
    expect(await codeOf(c.user.unfollow(to(first)))).toBe('not_following');
    expect(await state()).toEqual(after);
    expect((await c.user.following({ token: me.token })).map((u) => u.token)).toEqual([second.token]);
  });

  it('refuses following oneself and following or listing as someone else, changing nothing', async () => {
    const me = (await t.addUser(Role.Artist)).user;
    const admin = (await t.addUser(Role.Admin)).user;
    const target = (await t.addUser(Role.Artist)).user;
    const before = await state();
    expect(await codeOf(t.caller(me).user.follow({ token: me.token, otherToken: me.token }))).toBe('own_profile');
    expect(await codeOf(t.caller(me).user.unfollow({ token: me.token, otherToken: me.token }))).toBe('own_profile');
    expect(await codeOf(t.caller(admin).user.follow({ token: me.token, otherToken: target.token }))).toBe('forbidden');
    expect(await codeOf(t.caller(admin).user.following({ token: me.token }))).toBe('forbidden');
    expect(await codeOf(t.caller(me).user.follow({ token: me.token, otherToken: 'm'.repeat(22) }))).toBe(
      'user_not_found',
    );
    expect(await state()).toEqual(before);
  });

  it('leaves a disabled member out of the list and refuses following them', async () => {
    const me = (await t.addUser(Role.Observer)).user;
    const gone = (await t.addUser(Role.Artist)).user;
    await t.caller(me).user.follow({ token: me.token, otherToken: gone.token });
    await t.deps.db.update(users).set({ disabledAt: t.clock.now() }).where(eq(users.id, gone.id));
    expect(await t.caller(me).user.following({ token: me.token })).toEqual([]);
    const other = (await t.addUser(Role.Observer)).user;
    expect(await codeOf(t.caller(other).user.follow({ token: other.token, otherToken: gone.token }))).toBe(
      'user_not_found',
    );
  });

  it('works over HTTP with the error codes of the catalogue', async () => {
    const artist = await t.addUser(Role.Artist);
    const fan = await t.addUser(Role.Observer);
    const browser = await browserFor(t, fan.cookie);
    const url = `/api/user/${fan.user.token}/follow/${artist.user.token}`;
    expect(expectSuccess(await browser.request('PUT', url))).toEqual({ following: 1, followers: 1 });
    expectFailure(await browser.request('PUT', url), 'already_following');
    expect(expectSuccess(await browser.get(`/api/user/${fan.user.token}/follow`))).toEqual([
      expect.objectContaining({ token: artist.user.token }),
    ]);
    expect(expectSuccess(await browser.get(url))).toEqual({ following: 1, followers: 1 });
    expect(expectSuccess(await browser.request('DELETE', url))).toEqual({ following: 0, followers: 0 });
    expectFailure(await browser.request('DELETE', url), 'not_following');
    expectFailure(await browser.request('PUT', `/api/user/${fan.user.token}/follow/${fan.user.token}`), 'own_profile');
    expectFailure(await browser.get(`/api/user/${artist.user.token}/follow`), 'forbidden');
  });
});
