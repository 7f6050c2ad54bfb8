/**
 * The role table of spec §6, walked for every procedure that exists: each is called as a guest, an observer, an
 * artist and an admin, and must let exactly the expected viewers through. A procedure without a row fails here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRPCError } from '@trpc/server';
import { Role } from '#shared/domain.ts';
import { createTree } from '#server/services/tree.ts';
import { appRouter } from '#server/root.ts';
import { createTestApp, type TestApp } from '#tests/helpers/test-app.ts';
import type { RequestContext } from '#server/trpc.ts';

type Viewer = 'guest' | 'observer' | 'artist' | 'admin';
type Caller = ReturnType<TestApp['caller']>;
const ALL: Viewer[] = ['guest', 'observer', 'artist', 'admin'];
const USERS: Viewer[] = ['observer', 'artist', 'admin'];

let t: TestApp;
let treeToken: string;
let cellToken: string;
const viewers = {} as Record<Viewer, RequestContext['user']>;

beforeAll(async () => {
  t = await createTestApp();
  const tree = createTree(t.deps.db, t.clock.now(), 'Roles');
  treeToken = tree.token;
  cellToken = (await t.caller().tree.get({ token: treeToken })).detail!.token[0]!;
  viewers.guest = null;
  viewers.observer = t.addUser(Role.Observer).user;
  viewers.artist = t.addUser(Role.Artist).user;
  viewers.admin = t.addUser(Role.Admin).user;
});
afterAll(() => t.cleanup());

/** Who may call each procedure, and a call that is valid apart from who makes it. */
const TABLE: Record<string, { allowed: Viewer[]; call: (c: Caller, viewer: Viewer) => Promise<unknown> }> = {
  'tree.get': { allowed: ALL, call: (c) => c.tree.get({ token: treeToken }) },
  'cell.get': { allowed: ALL, call: (c) => c.cell.get({ token: cellToken }) },
  'auth.current': { allowed: ALL, call: (c) => c.auth.current() },
  'auth.register': {
    allowed: ALL,
    call: (c, v) => c.auth.register({ firstname: 'R', lastname: 'S', email: `reg-${v}-${Math.random()}@roles.test`, password: 'abc&123' }),
  },
  'auth.login': {
    allowed: ALL,
    // Everyone may try; a wrong password is refused with invalid_credentials, not with a role error.
    call: (c) => c.auth.login({ username: 'nobody@roles.test', password: 'whatever1' }).catch((e: TRPCError) => {
      if (e.code === 'UNAUTHORIZED' && e.message.startsWith('Wrong')) return 'refused on credentials';
      throw e;
    }),
  },
  'auth.logout': { allowed: USERS, call: (c) => c.auth.logout() },
  'auth.requestReset': { allowed: ALL, call: (c, v) => c.auth.requestReset({ username: `nobody-${v}@roles.test` }) },
  'auth.restore': {
    allowed: ALL,
    call: (c) => c.auth.restore({ token: 'x'.repeat(32), password: 'abc&123' }).catch((e: TRPCError) => {
      if (e.code === 'BAD_REQUEST') return 'refused on the token';
      throw e;
    }),
  },
  'user.updateAccount': {
    allowed: USERS, // each only their own: see "own account only" below
    call: (c, v) =>
      c.user.updateAccount({ token: viewers[v]?.token ?? 'g'.repeat(22), firstname: 'A', lastname: 'B', email: `${v}-own@roles.test`, show_email: false, password: '', confirm_password: '' }),
  },
  'misc.initialParams': { allowed: ALL, call: (c) => c.misc.initialParams() },
  'misc.contact': {
    allowed: ALL,
    call: (c, v) => c.misc.contact({ subject: 'Hello', reason: 'Question', email: `${v}@roles.test`, message: 'A question about the tree.' }),
  },
};

describe('the role table (spec §6)', () => {
  it('has a row for every procedure', () => {
    const procedures = Object.keys(appRouter._def.procedures).sort();
    expect(procedures).toEqual(Object.keys(TABLE).filter((name) => procedures.includes(name)).sort());
    expect(Object.keys(TABLE).sort()).toEqual(procedures);
  });

  for (const [name, row] of Object.entries(TABLE)) {
    for (const viewer of ALL) {
      const expected = row.allowed.includes(viewer);
      it(`${name}: ${viewer} ${expected ? 'may' : 'may not'} call it`, async () => {
        const outcome = await row.call(t.caller(viewers[viewer]), viewer).then(
          () => 'allowed',
          (e: unknown) => (e instanceof TRPCError && ['UNAUTHORIZED', 'FORBIDDEN'].includes(e.code) ? e.code : `failed: ${String(e)}`),
        );
        expect(outcome).toBe(expected ? 'allowed' : viewer === 'guest' ? 'UNAUTHORIZED' : 'FORBIDDEN');
      });
    }
  }

  it('lets nobody change another person\'s account, admins included', async () => {
    for (const viewer of USERS) {
      const someoneElse = viewer === 'artist' ? viewers.observer! : viewers.artist!;
      await expect(
        t.caller(viewers[viewer]).user.updateAccount({ token: someoneElse.token, firstname: 'X', lastname: 'Y', email: 'x@roles.test', show_email: false, password: '', confirm_password: '' }),
      ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    }
  });
});
