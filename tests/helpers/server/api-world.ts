/**
 * A small gallery for the API-wide tests (contract, permissions over REST, fuzz, CSRF): a tree, one person of each
 * role, a published piece with its owner, and signed-in browsers. Each test file builds its own, so files run apart.
 */
import { eq } from 'drizzle-orm';
import { art } from '#drizzle/tables.ts';
import { Role } from '#shared/domain.ts';
import { reindexArt } from '#server/services/search/search.ts';
import { createSession } from '#server/auth/sessions.ts';
import { reserveCell } from '#server/services/reservations/reservations.ts';
import { createTree } from '#server/services/tree/tree.ts';
import type { RequestContext } from '#server/trpc.ts';
import { BrowserLike } from '#tests/helpers/server/browser-like.ts';
import { createTestApp, type TestApp } from '#tests/helpers/server/test-app.ts';
import { browserFor, publishedPieceAt } from '../art-fixtures.ts';
import { activeReservationOf, cellAt, SEED_ROW } from './reservation-fixtures.ts';
import { oneRow } from '#tests/helpers/server/rows.ts';

/** Who asks. The owner is the person a path names: the account in /user/{token}/…, the author of the piece. */
export type Asker = 'guest' | 'observer' | 'artist' | 'owner' | 'admin';
export const ASKERS: readonly Asker[] = ['guest', 'observer', 'artist', 'owner', 'admin'];

export interface Person {
  user: NonNullable<RequestContext['user']>;
  cookie: string;
}

export interface ApiWorld {
  t: TestApp;
  treeId: number;
  treeToken: string;
  people: Record<Exclude<Asker, 'guest'>, Person>;
  /** A published piece by the owner on the trunk at (PIECE_ROW, PIECE_COLUMN). */
  piece: { cellToken: string; artToken: string };
  /** The owner's held reservation, on a square of the second seed row. */
  holding: { cellToken: string; reminderToken: string };
  /** The artist's published piece just above it. */
  neighbour: { cellToken: string; artToken: string };
  /** A browser for the asker holding its CSRF cookie and a session of its own (so a logout ends only that one). */
  browser: (asker: Asker) => Promise<BrowserLike>;
  userOf: (asker: Asker) => RequestContext['user'];
  /** A new observer with a signed-in browser, for calls that change what a person holds or follows. */
  newcomer: () => Promise<Person & { browser: BrowserLike }>;
  /** A square at (row, column) of the tree. */
  cell: (row: number, column: number) => Promise<{ token: string; id: number; status: number }>;
}

/**
 * The published piece sits on the trunk at this row and column, under a published square: (PIECE_ROW + 1, -1) then
 * touches one published square (a branch slot) and (PIECE_ROW, -1) touches two (not a slot).
 */
export const PIECE_ROW = 10;
export const PIECE_COLUMN = 0;

export async function createApiWorld(): Promise<ApiWorld> {
  const t = await createTestApp();
  const tree = await createTree(t.deps.db, t.clock.now(), 'API');
  const people = {
    observer: await t.addUser(Role.Observer),
    artist: await t.addUser(Role.Artist),
    owner: await t.addUser(Role.Artist),
    admin: await t.addUser(Role.Admin),
  };
  // A neighbour above the piece, by the artist, so the piece's square has something to connect to.
  const neighbour = await publishedPieceAt(
    t.deps.db,
    tree.id,
    PIECE_ROW - 1,
    PIECE_COLUMN,
    people.artist.user.id,
    'd'.repeat(32),
  );
  const piece = await publishedPieceAt(
    t.deps.db,
    tree.id,
    PIECE_ROW,
    PIECE_COLUMN,
    people.owner.user.id,
    'e'.repeat(32),
  );
  for (const made of [neighbour, piece]) await reindexArt(t.deps.db, await artIdOf(t, made.artToken));
  const held = await reserveCell(t.deps, people.owner.user, (await cellAt(t.deps.db, tree.id, SEED_ROW + 1, 3))!.token);
  const holding = {
    cellToken: held.token,
    reminderToken: (await activeReservationOf(t.deps.db, people.owner.user.id))!.token,
  };
  const world: ApiWorld = {
    t,
    treeId: tree.id,
    treeToken: tree.token,
    people,
    piece,
    neighbour,
    holding,
    browser: async (asker) =>
      browserFor(
        t,
        asker === 'guest'
          ? undefined
          : `session=${(await createSession(t.deps.db, t.clock, people[asker].user.id)).token}`,
      ),
    userOf: (asker) => (asker === 'guest' ? null : people[asker].user),
    async newcomer() {
      const person = await t.addUser(Role.Observer);
      return { ...person, browser: await browserFor(t, person.cookie) };
    },
    cell: async (row, column) => (await cellAt(t.deps.db, tree.id, row, column))!,
  };
  return world;
}

const artIdOf = async (t: TestApp, token: string): Promise<number> =>
  (await oneRow(t.deps.db.select({ id: art.id }).from(art).where(eq(art.token, token)))).id;
