/**
 * The role table (docs/product.md, Who may do what), walked for every procedure that exists: each is called as a
 * guest, an observer, an artist and an admin with its row's call, and must let through exactly the viewers of the
 * access level it is built on (public, user, admin: its declaration, decision 036). A procedure without a row, or a
 * row without its procedure, fails here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRPCError } from '@trpc/server';
import { Role, CellStatus } from '#shared/domain.ts';
import { createTree } from '#server/services/tree/tree.ts';
import type { Access } from '#server/permissions.ts';
import { createTestApp, type TestApp } from '#tests/helpers/server/test-app.ts';
import type { RequestContext } from '#server/trpc.ts';
import { eq } from 'drizzle-orm';
import { cells, reservations } from '#drizzle/tables.ts';
import { reserveCell } from '#server/services/reservations/reservations.ts';
import {
  activeReservationOf,
  cellAt,
  publishAt,
  releaseHold,
  SEED_ROW,
  setCellStatus,
} from '../helpers/server/reservation-fixtures.ts';
import { listProcedures } from '../helpers/server/route-inventory.ts';
import { oneRow } from '#tests/helpers/server/rows.ts';

type Viewer = 'guest' | 'observer' | 'artist' | 'admin';
type Caller = ReturnType<TestApp['caller']>;
const ALL: Viewer[] = ['guest', 'observer', 'artist', 'admin'];
const USERS: Viewer[] = ['observer', 'artist', 'admin'];
const ADMIN: Viewer[] = ['admin'];

let t: TestApp;
let treeToken: string;
let cellToken: string;
let treeId: number;
const viewers = {} as Record<Viewer, RequestContext['user']>;

beforeAll(async () => {
  t = await createTestApp();
  const tree = await createTree(t.deps.db, t.clock.now(), 'Roles');
  treeToken = tree.token;
  cellToken = (await t.caller().tree.get({ token: treeToken })).detail!.token[0]!;
  viewers.guest = null;
  viewers.observer = (await t.addUser(Role.Observer)).user;
  viewers.artist = (await t.addUser(Role.Artist)).user;
  viewers.admin = (await t.addUser(Role.Admin)).user;
  treeId = tree.id;
  // A published trunk square at (10, 0) makes (9..11, -1) branch slots, one for each signed-in viewer.
  await publishAt(t.deps.db, treeId, 10, 0);
});
afterAll(() => t.cleanup());

/** Reservation rows: each viewer reserves a seed square (then lets it go), a branch slot, and extends that hold. */
const SEAT: Record<Viewer, number> = { guest: 0, observer: 1, artist: 2, admin: 3 };
const seedSquare = async (viewer: Viewer) => (await cellAt(t.deps.db, treeId, SEED_ROW, SEAT[viewer]))!.token;

/** The viewer's held reservation (made here if an earlier row did not), 3 days from its deadline after a reminder. */
async function heldBy(viewer: Viewer): Promise<{ cellToken: string; reminderToken: string }> {
  const user = viewers[viewer];
  if (!user) return { cellToken: 'g'.repeat(22), reminderToken: 'g'.repeat(22) };
  if (!(await activeReservationOf(t.deps.db, user.id))) {
    await setCellStatus(t.deps.db, treeId, 25, SEAT[viewer], CellStatus.Available);
    await reserveCell(t.deps, user, (await cellAt(t.deps.db, treeId, 25, SEAT[viewer]))!.token);
  }
  const held = (await activeReservationOf(t.deps.db, user.id))!;
  const now = t.clock.now();
  await t.deps.db
    .update(reservations)
    .set({ reminderCount: 1, updatedAt: now, expiresAt: now + 3 * 86_400_000 })
    .where(eq(reservations.id, held.id));
  const cellToken = (
    await oneRow(t.deps.db.select({ token: cells.token }).from(cells).where(eq(cells.id, held.cellId)))
  ).token;
  return { cellToken, reminderToken: held.token };
}

/** Profile rows: the viewer's own token (a well-formed stranger's for a guest), another member, a valid profile form. */
const ownToken = (viewer: Viewer) => viewers[viewer]?.token ?? 'g'.repeat(22);
let otherMember: NonNullable<RequestContext['user']> | undefined;
const member = async () => (otherMember ??= (await t.addUser(Role.Artist)).user);
const PROFILE = {
  zipcode: '10001',
  country: 'US',
  city: 'New York',
  state: 'NY',
  description: 'Paints rivers.',
  exhibitions: '',
  education: '',
  personal_url: '',
  fb_url: '',
  tw_url: '',
  tt_url: '',
  in_url: '',
};

/** The viewers each access level lets through. */
const ALLOWED: Record<Access, Viewer[]> = { public: ALL, user: USERS, admin: ADMIN };

/** A call of each procedure that is valid apart from who makes it. */
const TABLE: Record<string, { call: (c: Caller, viewer: Viewer) => Promise<unknown> }> = {
  'tree.get': { call: (c) => c.tree.get({ token: treeToken }) },
  'tree.changes': { call: (c) => c.tree.changes({ token: treeToken, since: 0 }) },
  'tree.history': { call: (c) => c.tree.history({ token: treeToken }) },
  'cell.get': { call: (c) => c.cell.get({ token: cellToken }) },
  'cell.reserve': {
    call: async (c, v) => {
      const reserved = await c.cell.reserve({ token: await seedSquare(v) });
      await releaseHold(t.deps.db, viewers[v]!.id);
      return reserved;
    },
  },
  'cell.reserveBranch': {
    call: (c, v) => c.cell.reserveBranch({ treeToken, row: 8 + SEAT[v], column: -1 }),
  },
  'cell.reservation': { call: async (c, v) => c.cell.reservation(await heldBy(v)) },
  'cell.extendReservation': { call: async (c, v) => c.cell.extendReservation(await heldBy(v)) },
  'cell.subscribe': { call: (c) => c.cell.subscribe({ token: cellToken }) },
  'cell.subscribeAny': { call: (c) => c.cell.subscribeAny() },
  'cell.search': { call: (c) => c.cell.search({ search: 'tree' }) },
  'cell.mine': { call: (c) => c.cell.mine() },
  'user.reservedCell': { call: (c) => c.user.reservedCell() },
  'auth.current': { call: (c) => c.auth.current() },
  'auth.register': {
    call: (c, v) =>
      c.auth.register({
        firstname: 'R',
        lastname: 'S',
        email: `reg-${v}-${Math.random()}@roles.test`,
        password: 'abc&123',
      }),
  },
  'auth.login': {
    // Everyone may try; a wrong password is refused with invalid_credentials, not with a role error.
    call: (c) =>
      c.auth.login({ username: 'nobody@roles.test', password: 'whatever1' }).catch((e: TRPCError) => {
        if (e.code === 'UNAUTHORIZED' && e.message.startsWith('Wrong')) return 'refused on credentials';
        throw e;
      }),
  },
  'auth.logout': { call: (c) => c.auth.logout() },
  'auth.requestReset': { call: (c, v) => c.auth.requestReset({ username: `nobody-${v}@roles.test` }) },
  'auth.restore': {
    call: (c) =>
      c.auth.restore({ token: 'x'.repeat(32), password: 'abc&123' }).catch((e: TRPCError) => {
        if (e.code === 'BAD_REQUEST') return 'refused on the token';
        throw e;
      }),
  },
  'user.updateAccount': {
    // each only their own: see "own account only" below
    call: (c, v) =>
      c.user.updateAccount({
        token: viewers[v]?.token ?? 'g'.repeat(22),
        firstname: 'A',
        lastname: 'B',
        email: viewers[v]?.email ?? `${v}-own@roles.test`,
        show_email: false,
        password: '',
        confirm_password: '',
        current_password: '',
      }),
  },
  'misc.initialParams': { call: (c) => c.misc.initialParams() },
  'misc.contact': {
    call: (c, v) =>
      c.misc.contact({
        subject: 'Hello',
        reason: 'Question',
        email: `${v}@roles.test`,
        message: 'A question about the tree.',
      }),
  },
  // Art: the piece-level rules (no piece here, or not the viewer's to edit) are tested in
  // art-save-refusals.test.ts.
  'art.forEdit': { call: (c) => c.art.forEdit({ cellToken }) },
  'art.details': { call: (c) => beyondRole(c.art.details({ cellToken })) },
  'art.connections': { call: (c) => beyondRole(c.art.connections({ cellToken })) },
  'art.activeConnections': { call: (c) => c.art.activeConnections({ cellToken }) },
  'art.saveConnections': {
    call: (c) => beyondRole(c.art.saveConnections({ cellToken, connections: [] })),
  },
  'art.likeStatus': { call: (c) => beyondRole(c.art.likeStatus({ artToken: 'n'.repeat(22) })) },
  'art.like': { call: (c) => beyondRole(c.art.like({ artToken: 'n'.repeat(22) })) },
  'art.unlike': { call: (c) => beyondRole(c.art.unlike({ artToken: 'n'.repeat(22) })) },
  'art.view': { call: (c) => beyondRole(c.art.view({ artToken: 'n'.repeat(22) })) },
  'art.requestRemoval': { call: (c) => beyondRole(c.art.requestRemoval({ cellToken, reason: '' })) },
  // Profiles and the social layer: each viewer on their own profile, and with another member.
  'user.profile': { call: async (c) => c.user.profile({ token: (await member()).token }) },
  'user.fullProfile': { call: (c, v) => c.user.fullProfile({ token: ownToken(v) }) },
  'user.updateProfile': { call: (c, v) => c.user.updateProfile({ token: ownToken(v), ...PROFILE }) },
  'user.art': { call: (c, v) => c.user.art({ token: ownToken(v) }) },
  'user.publishedArt': { call: async (c) => c.user.publishedArt({ token: (await member()).token }) },
  'user.likeStatus': {
    call: async (c, v) => c.user.likeStatus({ userToken: ownToken(v), otherToken: (await member()).token }),
  },
  'user.like': { call: async (c, v) => c.user.like({ userToken: ownToken(v), otherToken: (await member()).token }) },
  'user.unlike': {
    call: async (c, v) => c.user.unlike({ userToken: ownToken(v), otherToken: (await member()).token }),
  },
  'user.following': { call: (c, v) => c.user.following({ token: ownToken(v) }) },
  'user.followStatus': {
    call: async (c, v) => c.user.followStatus({ token: ownToken(v), otherToken: (await member()).token }),
  },
  'user.follow': {
    call: async (c, v) => {
      await c.user.unfollow({ token: ownToken(v), otherToken: (await member()).token }).catch(() => 'not followed yet');
      return c.user.follow({ token: ownToken(v), otherToken: (await member()).token });
    },
  },
  'user.unfollow': {
    call: async (c, v) => {
      await c.user.follow({ token: ownToken(v), otherToken: (await member()).token }).catch(() => 'followed already');
      return c.user.unfollow({ token: ownToken(v), otherToken: (await member()).token });
    },
  },
  'misc.zip': { call: (c) => c.misc.zip({ zip: '10001' }) },
  // Staff: admins only. Unknown tokens and ids are refused on the subject (NOT_FOUND), past the role check.
  'admin.overview': { call: (c) => c.admin.overview() },
  'admin.queue': { call: (c) => c.admin.queue() },
  'admin.reviewItem': { call: (c) => beyondRole(c.admin.reviewItem({ artToken: 'n'.repeat(22) })) },
  'admin.publish': { call: (c) => beyondRole(c.admin.publish({ artToken: 'n'.repeat(22) })) },
  'admin.requestChanges': {
    call: (c) => beyondRole(c.admin.requestChanges({ artToken: 'n'.repeat(22), reason: 'Why' })),
  },
  'admin.removalRequests': { call: (c) => c.admin.removalRequests({ state: 'open' }) },
  'admin.acceptRemoval': { call: (c) => beyondRole(c.admin.acceptRemoval({ token: 'n'.repeat(22) })) },
  'admin.declineRemoval': {
    call: (c) => beyondRole(c.admin.declineRemoval({ token: 'n'.repeat(22), reason: 'Why' })),
  },
  'admin.messages': { call: (c) => c.admin.messages({ handled: false }) },
  'admin.markMessageHandled': { call: (c) => beyondRole(c.admin.markMessageHandled({ id: 999_999 })) },
  'admin.users': { call: (c) => c.admin.users({ search: 'roles', page: 1 }) },
  'admin.setRole': {
    call: (c) => beyondRole(c.admin.setRole({ userToken: 'n'.repeat(22), role: Role.Artist })),
  },
  'admin.disableUser': { call: (c) => beyondRole(c.admin.disableUser({ userToken: 'n'.repeat(22) })) },
  'admin.enableUser': { call: (c) => beyondRole(c.admin.enableUser({ userToken: 'n'.repeat(22) })) },
  'admin.reservations': { call: (c) => c.admin.reservations() },
  'admin.releaseReservation': {
    call: (c) => beyondRole(c.admin.releaseReservation({ reservationId: 999_999 })),
  },
  'admin.staffLog': { call: (c) => c.admin.staffLog({ page: 1 }) },
};

/** A refusal on the piece itself (none there, or not the viewer's to edit) is not a refusal on the role. */
function beyondRole(call: Promise<unknown>): Promise<unknown> {
  return call.catch((e: TRPCError) => {
    if (e.code === 'NOT_FOUND' || e.message.startsWith('You may not edit')) return 'refused on the piece';
    throw e;
  });
}

describe('the role table', () => {
  it('has a row for every procedure', () => {
    const procedures = listProcedures()
      .map((procedure) => procedure.name)
      .sort();
    expect(procedures).toEqual(
      Object.keys(TABLE)
        .filter((name) => procedures.includes(name))
        .sort(),
    );
    expect(Object.keys(TABLE).sort()).toEqual(procedures);
  });

  const accessOf = new Map(listProcedures().map((procedure) => [procedure.name, procedure.access]));
  for (const [name, row] of Object.entries(TABLE)) {
    const access = accessOf.get(name);
    if (!access) continue;
    for (const viewer of ALL) {
      const expected = ALLOWED[access].includes(viewer);
      it(`${name} (${access}): ${viewer} ${expected ? 'may' : 'may not'} call it`, async () => {
        const outcome = await row.call(t.caller(viewers[viewer]), viewer).then(
          () => 'allowed',
          (e: unknown) =>
            e instanceof TRPCError && ['UNAUTHORIZED', 'FORBIDDEN'].includes(e.code) ? e.code : `failed: ${String(e)}`,
        );
        expect(outcome).toBe(expected ? 'allowed' : viewer === 'guest' ? 'UNAUTHORIZED' : 'FORBIDDEN');
      });
    }
  }

  it("lets nobody read another person's reserved cell by token, admins included", async () => {
    for (const viewer of USERS) {
      const someoneElse = viewer === 'artist' ? viewers.observer! : viewers.artist!;
      await expect(t.caller(viewers[viewer]).user.reservedCell({ token: someoneElse.token })).rejects.toMatchObject({
        code: 'FORBIDDEN',
      });
      await expect(
        t.caller(viewers[viewer]).user.reservedCell({ token: viewers[viewer]!.token }),
      ).resolves.toBeDefined();
    }
  });

  it("lets nobody read or extend another person's reservation but an admin", async () => {
    const observerHold = await heldBy('observer');
    await expect(t.caller(viewers.artist).cell.reservation(observerHold)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(t.caller(viewers.artist).cell.extendReservation(observerHold)).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    await expect(t.caller(viewers.admin).cell.reservation(observerHold)).resolves.toMatchObject({
      cellToken: observerHold.cellToken,
    });
  });

  it("lets nobody change another person's account, admins included", async () => {
    for (const viewer of USERS) {
      const someoneElse = viewer === 'artist' ? viewers.observer! : viewers.artist!;
      await expect(
        t.caller(viewers[viewer]).user.updateAccount({
          token: someoneElse.token,
          firstname: 'X',
          lastname: 'Y',
          email: 'x@roles.test',
          show_email: false,
          password: '',
          confirm_password: '',
        }),
      ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    }
  });
  it("lets nobody change another person's profile, admins included, and only an admin read another's form and atelier", async () => {
    for (const viewer of USERS) {
      const someoneElse = (await member()).token;
      await expect(
        t.caller(viewers[viewer]).user.updateProfile({ token: someoneElse, ...PROFILE }),
      ).rejects.toMatchObject({ code: 'FORBIDDEN' });
      const read = viewer === 'admin' ? 'resolves' : 'rejects';
      await expect(t.caller(viewers[viewer]).user.fullProfile({ token: someoneElse }))[read].toMatchObject(
        viewer === 'admin' ? { token: someoneElse } : { code: 'FORBIDDEN' },
      );
      await expect(t.caller(viewers[viewer]).user.art({ token: someoneElse }))[read].toMatchObject(
        viewer === 'admin' ? [] : { code: 'FORBIDDEN' },
      );
    }
  });

  it('lets nobody like, follow or list follows as someone else, admins included', async () => {
    for (const viewer of USERS) {
      const pair = { userToken: (await member()).token, otherToken: ownToken(viewer) };
      await expect(t.caller(viewers[viewer]).user.like(pair)).rejects.toMatchObject({ code: 'FORBIDDEN' });
      await expect(
        t.caller(viewers[viewer]).user.follow({ token: pair.userToken, otherToken: pair.otherToken }),
      ).rejects.toMatchObject({ code: 'FORBIDDEN' });
      await expect(t.caller(viewers[viewer]).user.following({ token: (await member()).token })).rejects.toMatchObject({
        code: 'FORBIDDEN',
      });
    }
  });
});
