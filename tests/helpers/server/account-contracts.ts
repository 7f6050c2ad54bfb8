/**
 * The contract rows of the account, session and site-wide calls (docs/api.md), kept apart from contract.test.ts for
 * length.
 */
import { expect } from 'vitest';
import { eq } from 'drizzle-orm';
import { mailOutbox } from '#drizzle/tables.ts';
import { CellStatus, Role } from '#shared/domain.ts';
import { reserveCell } from '#server/services/reservations/reservations.ts';
import type { ApiWorld } from './api-world.ts';
import type { Contract } from './contract.ts';
import { expectFailure, expectSuccess } from './envelope.ts';
import { SEED_ROW } from './reservation-fixtures.ts';

export function accountContracts(world: () => ApiWorld): Record<string, Contract> {
  const as = (asker: Parameters<ApiWorld['browser']>[0]) => world().browser(asker);
  const newcomer = () => world().newcomer();
  return {
    'GET /api/user/current': {
      spec: false, // added with the REST adapter (docs/api.md)
      success: async () => {
        const r = expectSuccess(await (await as('observer')).get('/api/user/current'));
        expect(r).toMatchObject({
          token: world().people.observer.user.token,
          role: Role.Observer,
          email: world().people.observer.user.email,
        });
        expect(r).not.toHaveProperty('passwordHash');
      },
      failure: async () => {
        expectFailure(await (await as('guest')).get('/api/user/current'), 'unauthenticated');
      },
    },
    'POST /api/auth/logout': {
      spec: false, // added with the REST adapter (docs/api.md)
      success: async () => {
        const { browser } = await newcomer();
        expect(expectSuccess(await browser.post('/api/auth/logout'))).toEqual({ ok: true });
        expectFailure(await browser.get('/api/user/current'), 'unauthenticated');
      },
      failure: async () => {
        expectFailure(await (await as('guest')).post('/api/auth/logout'), 'unauthenticated');
      },
    },
    'POST /api/register': {
      spec: true,
      success: async () => {
        const r = expectSuccess(
          await (
            await as('guest')
          ).post('/api/register', {
            firstname: 'Ada',
            lastname: 'Lane',
            email: 'ada@contract.test',
            password: 'abc&123',
          }),
        );
        expect(r).toMatchObject({ email: 'ada@contract.test', role: Role.Observer, firstname: 'Ada' });
      },
      failure: async () => {
        expectFailure(
          await (
            await as('guest')
          ).post('/api/register', {
            firstname: 'Ada',
            lastname: 'Lane',
            email: 'ADA@contract.test',
            password: 'abc&123',
          }),
          'email_taken',
        );
        const r = expectFailure(
          await (
            await as('guest')
          ).post('/api/register', { firstname: '', lastname: 'Lane', email: 'x', password: 'abc' }),
          'validation_failed',
        );
        expect(Object.keys(r.errors ?? {}).sort()).toEqual(['email', 'firstname', 'password']);
      },
    },
    'POST /api/auth/login': {
      spec: true,
      success: async () => {
        await (
          await as('guest')
        ).post('/api/register', { firstname: 'Bo', lastname: 'Lane', email: 'bo@contract.test', password: 'abc&123' });
        const r = expectSuccess(
          await (await as('guest')).post('/api/auth/login', { username: 'bo@contract.test', password: 'abc&123' }),
        );
        expect(r).toMatchObject({ email: 'bo@contract.test' });
      },
      failure: async () => {
        expectFailure(
          await (await as('guest')).post('/api/auth/login', { username: 'bo@contract.test', password: 'wrong&123' }),
          'invalid_credentials',
        );
      },
    },
    'POST /api/password/reset': {
      spec: true,
      success: async () => {
        expect(
          expectSuccess(await (await as('guest')).post('/api/password/reset', { username: 'nobody@contract.test' })),
        ).toEqual({ ok: true });
      },
      failure: async () => {
        expect(
          expectFailure(
            await (await as('guest')).post('/api/password/reset', { username: 'not an address' }),
            'validation_failed',
          ).errors?.username,
        ).toHaveLength(1);
      },
    },
    'POST /api/password/restore/:token': {
      spec: true,
      success: async () => {
        await (
          await as('guest')
        ).post('/api/register', { firstname: 'Cy', lastname: 'Lane', email: 'cy@contract.test', password: 'abc&123' });
        await (await as('guest')).post('/api/password/reset', { username: 'cy@contract.test' });
        const mail = (
          await world().t.deps.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, 'cy@contract.test'))
        ).at(-1)!;
        const token = /\/restore-password\/([\w-]+)/.exec(mail.textBody)![1]!;
        expect(
          expectSuccess(await (await as('guest')).post(`/api/password/restore/${token}`, { password: 'new&better9' })),
        ).toEqual({ ok: true });
      },
      failure: async () => {
        expectFailure(
          await (await as('guest')).post(`/api/password/restore/${'x'.repeat(32)}`, { password: 'new&better9' }),
          'invalid_reset_token',
        );
      },
    },
    'POST /api/user/:token/account': {
      spec: true,
      success: async () => {
        const { browser, user } = await newcomer();
        const r = expectSuccess(
          await browser.post(`/api/user/${user.token}/account`, {
            firstname: 'New',
            lastname: 'Name',
            email: user.email,
            show_email: true,
            password: '',
            confirm_password: '',
          }),
        );
        expect(r).toMatchObject({ token: user.token, firstname: 'New', show_email: true });
      },
      failure: async () => {
        const answer = await (
          await as('artist')
        ).post(`/api/user/${world().people.owner.user.token}/account`, {
          firstname: 'X',
          lastname: 'Y',
          email: 'x@contract.test',
          show_email: false,
          password: '',
          confirm_password: '',
        });
        expectFailure(answer, 'forbidden');
      },
    },
    'GET /api/user/:token/reserve': {
      spec: true,
      success: async () => {
        const { browser, user } = await newcomer();
        expect(expectSuccess(await browser.get(`/api/user/${user.token}/reserve`))).toBeNull();
        await reserveCell(world().t.deps, user, (await world().cell(SEED_ROW + 1, 1)).token);
        expect(expectSuccess(await browser.get(`/api/user/${user.token}/reserve`))).toMatchObject({
          token: (await world().cell(SEED_ROW + 1, 1)).token,
          status: CellStatus.Reserved,
        });
      },
      failure: async () => {
        expectFailure(
          await (await as('artist')).get(`/api/user/${world().people.owner.user.token}/reserve`),
          'forbidden',
        );
        expectFailure(
          await (await as('guest')).get(`/api/user/${world().people.owner.user.token}/reserve`),
          'unauthenticated',
        );
      },
    },
    'POST /api/misc/contact': {
      spec: true,
      success: async () => {
        const r = expectSuccess(
          await (
            await as('guest')
          ).post('/api/misc/contact', {
            subject: 'Hi',
            reason: 'Question',
            email: 'me@contract.test',
            message: 'How do branches grow?',
          }),
        );
        expect(r).toEqual({ ok: true });
      },
      failure: async () => {
        const r = expectFailure(
          await (
            await as('guest')
          ).post('/api/misc/contact', { subject: '', reason: 'Question', email: 'bad', message: 'x' }),
          'validation_failed',
        );
        expect(r.errors).toHaveProperty('email');
        expect(r.errors).toHaveProperty('subject');
      },
    },
    'GET /api/initial-params': {
      spec: false,
      success: async () => {
        const r = expectSuccess(await (await as('guest')).get('/api/initial-params'));
        expect(r).toMatchObject({
          params: { tree_token: expect.any(String), settings: expect.any(Object) },
          csrf_token: expect.any(String),
        });
      },
      failure: async () => {
        // It takes no input and cannot fail on one; a path below it is no route.
        expectFailure(await (await as('guest')).get('/api/initial-params/nothing-here'), 'not_found');
      },
    },
    'GET /api/health': {
      spec: false,
      success: async () => {
        expect(expectSuccess(await (await as('guest')).get('/api/health'))).toMatchObject({ ok: true, db: 'ok' });
      },
      failure: async () => {
        // Its own failure (503 when the database does not answer) is health.test.ts's; a write to it is no route.
        expectFailure(await (await as('guest')).request('POST', '/api/health'), 'not_found');
      },
    },
  };
}
