/**
 * The contract rows of the profile and social calls (docs/api.md) and the ZIP lookup that stands in for the
 * external one, kept apart from contract.test.ts for length. Shapes from shared/profile-api.ts.
 */
import { expect } from 'vitest';
import type { ApiWorld } from './api-world.ts';
import { artForm, postForm } from '../art-fixtures.ts';
import { type Contract, MISSING } from './contract.ts';
import { expectFailure, expectSuccess } from './envelope.ts';

export const PROFILE_FIELDS = {
  zipcode: '10001',
  country: 'US',
  city: 'New York',
  state: 'NY',
  description: 'I paint rivers.',
  exhibitions: '',
  education: '',
  personal_url: 'www.example.org',
  fb_url: '',
  tw_url: '',
  tt_url: '',
  in_url: '',
};

export function profileContracts(world: () => ApiWorld): Record<string, Contract> {
  const as = (asker: Parameters<ApiWorld['browser']>[0]) => world().browser(asker);
  const owner = () => world().people.owner.user.token;
  const me = (asker: 'observer' | 'artist') => world().people[asker].user.token;
  const newcomer = () => world().newcomer();

  return {
    'GET /api/user/:id/profile': {
      spec: true,
      success: async () => {
        const r = expectSuccess(await (await as('guest')).get(`/api/user/${owner()}/profile`));
        expect(r).toMatchObject({
          token: owner(),
          firstname: world().people.owner.user.firstname,
          email: null,
          activity: { likes: expect.any(Number), followers: expect.any(Number) },
        });
      },
      failure: async () => {
        expectFailure(await (await as('guest')).get(`/api/user/${MISSING}/profile`), 'user_not_found');
      },
    },
    'GET /api/user/:id/fullprofile': {
      spec: true,
      success: async () => {
        const r = expectSuccess(await (await as('owner')).get(`/api/user/${owner()}/fullprofile`));
        expect(r).toMatchObject({ token: owner(), zipcode: expect.any(String), description: expect.any(String) });
      },
      failure: async () => {
        expectFailure(await (await as('guest')).get(`/api/user/${owner()}/fullprofile`), 'unauthenticated');
        expectFailure(await (await as('artist')).get(`/api/user/${owner()}/fullprofile`), 'forbidden');
      },
    },
    'POST /api/user/:id/profile': {
      spec: true,
      success: async () => {
        const { browser, user } = await newcomer();
        const answer = await postForm(world().t, browser, `/api/user/${user.token}/profile`, artForm(PROFILE_FIELDS));
        expect(expectSuccess(answer)).toMatchObject({
          token: user.token,
          city: 'New York',
          personal_url: 'https://www.example.org',
        });
      },
      failure: async () => {
        const { browser, user } = await newcomer();
        const blank = expectFailure(
          await postForm(
            world().t,
            browser,
            `/api/user/${user.token}/profile`,
            artForm({ ...PROFILE_FIELDS, city: '' }),
          ),
          'validation_failed',
        );
        expect(blank.errors?.city).toHaveLength(1);
        expectFailure(
          await postForm(world().t, browser, `/api/user/${owner()}/profile`, artForm(PROFILE_FIELDS)),
          'forbidden',
        );
      },
    },
    'GET /api/user/:token/art': {
      spec: true,
      success: async () => {
        const r = expectSuccess(await (await as('owner')).get(`/api/user/${owner()}/art`));
        expect(r).toEqual(
          expect.arrayContaining([
            expect.objectContaining({
              token: world().piece.cellToken,
              art: expect.objectContaining({ token: world().piece.artToken }),
            }),
          ]),
        );
      },
      failure: async () => {
        expectFailure(await (await as('guest')).get(`/api/user/${owner()}/art`), 'unauthenticated');
      },
    },
    'GET /api/user/:token/art/published': {
      spec: true,
      success: async () => {
        const r = expectSuccess(await (await as('guest')).get(`/api/user/${owner()}/art/published`));
        expect(r).toEqual([
          expect.objectContaining({
            token: world().piece.cellToken,
            art: expect.objectContaining({ token: world().piece.artToken }),
          }),
        ]);
      },
      failure: async () => {
        expectFailure(await (await as('guest')).get(`/api/user/${MISSING}/art/published`), 'user_not_found');
      },
    },
    'GET /api/user/:userToken/like/:otherToken': {
      spec: true,
      success: async () => {
        expect(expectSuccess(await (await as('observer')).get(`/api/user/${me('observer')}/like/${owner()}`))).toEqual({
          liked: expect.any(Number),
          likes: expect.any(Number),
        });
      },
      failure: async () => {
        expectFailure(await (await as('artist')).get(`/api/user/${me('observer')}/like/${owner()}`), 'forbidden');
      },
    },
    'PUT /api/user/:userToken/like/:otherToken': {
      spec: true,
      success: async () => {
        expect(
          expectSuccess(await (await as('artist')).request('PUT', `/api/user/${me('artist')}/like/${owner()}`)),
        ).toMatchObject({ liked: 1 });
      },
      failure: async () => {
        expectFailure(await (await as('owner')).request('PUT', `/api/user/${owner()}/like/${owner()}`), 'own_profile');
      },
    },
    'DELETE /api/user/:userToken/like/:otherToken': {
      spec: true,
      success: async () => {
        expect(
          expectSuccess(await (await as('artist')).request('DELETE', `/api/user/${me('artist')}/like/${owner()}`)),
        ).toMatchObject({ liked: 0 });
      },
      failure: async () => {
        expectFailure(
          await (await as('artist')).request('DELETE', `/api/user/${me('artist')}/like/${MISSING}`),
          'user_not_found',
        );
      },
    },
    'GET /api/user/:token/follow': {
      spec: true,
      success: async () => {
        expect(expectSuccess(await (await as('observer')).get(`/api/user/${me('observer')}/follow`))).toBeInstanceOf(
          Array,
        );
      },
      failure: async () => {
        expectFailure(await (await as('guest')).get(`/api/user/${me('observer')}/follow`), 'unauthenticated');
      },
    },
    'GET /api/user/:token/follow/:otherToken': {
      spec: true,
      success: async () => {
        expect(
          expectSuccess(await (await as('observer')).get(`/api/user/${me('observer')}/follow/${owner()}`)),
        ).toEqual({ following: expect.any(Number), followers: expect.any(Number) });
      },
      failure: async () => {
        expectFailure(await (await as('artist')).get(`/api/user/${me('observer')}/follow/${owner()}`), 'forbidden');
      },
    },
    'PUT /api/user/:token/follow/:otherToken': {
      spec: true,
      success: async () => {
        const { browser, user } = await newcomer();
        expect(expectSuccess(await browser.request('PUT', `/api/user/${user.token}/follow/${owner()}`))).toMatchObject({
          following: 1,
        });
        const list = expectSuccess(await browser.get(`/api/user/${user.token}/follow`));
        expect(list).toEqual([expect.objectContaining({ token: owner() })]);
      },
      failure: async () => {
        const { browser, user } = await newcomer();
        await browser.request('PUT', `/api/user/${user.token}/follow/${owner()}`);
        expectFailure(await browser.request('PUT', `/api/user/${user.token}/follow/${owner()}`), 'already_following');
      },
    },
    'DELETE /api/user/:token/follow/:otherToken': {
      spec: true,
      success: async () => {
        const { browser, user } = await newcomer();
        await browser.request('PUT', `/api/user/${user.token}/follow/${owner()}`);
        expect(
          expectSuccess(await browser.request('DELETE', `/api/user/${user.token}/follow/${owner()}`)),
        ).toMatchObject({ following: 0 });
      },
      failure: async () => {
        const { browser, user } = await newcomer();
        expectFailure(await browser.request('DELETE', `/api/user/${user.token}/follow/${owner()}`), 'not_following');
      },
    },
    'GET /api/misc/zip/:zip': {
      spec: false, // stands in for the original external zip-code lookup (decision 014)
      success: async () => {
        const r = expectSuccess(await (await as('guest')).get('/api/misc/zip/10001'));
        expect(r === null || (typeof r.city === 'string' && typeof r.state_short === 'string')).toBe(true);
      },
      failure: async () => {
        expect(
          expectFailure(await (await as('guest')).get(`/api/misc/zip/${'9'.repeat(40)}`), 'validation_failed').errors
            ?.zip,
        ).toHaveLength(1);
      },
    },
  };
}
