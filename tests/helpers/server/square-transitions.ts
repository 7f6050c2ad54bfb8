/**
 * The transitions of a square and its piece, driven through the real services for property tests: reserve, reserve a
 * branch slot, subscribe, submit, publish, request changes, extend, release, expire, remove. An action that does not
 * fit the state (nothing to publish) does nothing; a refusal (the square was taken) changes nothing and is tested
 * elsewhere.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { art, cells, reservations } from '#drizzle/tables.ts';
import { RESERVATION_DAYS } from '#shared/constants.ts';
import { ArtStatus, CellStatus } from '#shared/domain.ts';
import { DAY_MS } from '#shared/durations.ts';
import { computeBranchSlots, gridOfCells, type TreeSettings } from '#shared/tree/geometry.ts';
import { releaseReservationByStaff } from '#server/services/admin/reservations.ts';
import { acceptRemoval } from '#server/services/admin/removals.ts';
import { saveArt } from '#server/services/art/art.ts';
import { requestRemoval } from '#server/services/art/removal-requests.ts';
import { expireReservations } from '#server/services/reservations/reservation-jobs.ts';
import { extendReservation, reserveBranchSlot, reserveCell } from '#server/services/reservations/reservations.ts';
import { publishArt, requestChanges } from '#server/services/review/review.ts';
import { subscribe } from '#server/services/squares/subscriptions.ts';
import { readSnapshotCells } from '#server/services/tree/snapshot-build.ts';
import type { TreeRow } from '#server/services/tree/tree.ts';
import { validFields } from '../art-fixtures.ts';
import type { TestApp } from './test-app.ts';

export const TRANSITIONS = [
  'reserve',
  'reserveSlot',
  'subscribe',
  'submit',
  'publish',
  'requestChanges',
  'extend',
  'release',
  'expire',
  'removal',
] as const;
export type Transition = { kind: (typeof TRANSITIONS)[number]; who: number; pick: number };

type Member = Awaited<ReturnType<TestApp['addUser']>>['user'];

export interface TransitionWorld {
  t: TestApp;
  tree: TreeRow;
  admin: Member;
  members: Member[];
  /** A picture for the pieces submitted. */
  picture: Buffer;
}

/** Runs one transition through the real services. */
export async function runTransition(world: TransitionWorld, action: Transition): Promise<void> {
  const { t, tree, admin, members } = world;
  const member = members[action.who % members.length]!;
  const ctx = t.deps;
  const db = t.deps.db;
  const pickOf = <T>(list: readonly T[]): T | undefined => list[action.pick % Math.max(1, list.length)];
  const swallow = async (call: () => Promise<unknown>) => {
    try {
      await call();
    } catch {
      // A refusal changes nothing.
    }
  };
  const held = async () =>
    await db
      .select({ cellToken: cells.token, artStatus: art.status, token: reservations.token })
      .from(reservations)
      .innerJoin(cells, eq(cells.id, reservations.cellId))
      .leftJoin(art, eq(art.id, cells.artId))
      .where(and(eq(reservations.userId, member.id), inArray(reservations.state, ['active', 'submitted'])));
  const artWith = async (status: number) =>
    await db.select({ token: art.token }).from(art).where(eq(art.status, status));
  switch (action.kind) {
    case 'reserve': {
      const free = await db
        .select({ token: cells.token })
        .from(cells)
        .where(and(eq(cells.treeId, tree.id), eq(cells.status, CellStatus.Available)));
      const chosen = pickOf(free);
      if (chosen) await swallow(() => reserveCell(ctx, member, chosen.token));
      return;
    }
    case 'reserveSlot': {
      const slots = computeBranchSlots(
        tree.settings as TreeSettings,
        gridOfCells(await readSnapshotCells(db, tree.id)),
      );
      const slot = pickOf(slots);
      if (slot) await swallow(() => reserveBranchSlot(ctx, member, { treeToken: tree.token, ...slot }));
      return;
    }
    case 'subscribe': {
      // Any square but a free one (that one can be reserved instead), or any square at all.
      const taken = await db
        .select({ token: cells.token })
        .from(cells)
        .where(and(eq(cells.treeId, tree.id), inArray(cells.status, [CellStatus.Pending, CellStatus.Reserved])));
      const chosen = action.pick % 3 === 0 ? null : pickOf(taken);
      await swallow(() => subscribe(ctx, member, chosen ? chosen.token : null));
      return;
    }
    case 'submit': {
      const piece = (await held()).find(
        (row) => row.artStatus === ArtStatus.Draft || row.artStatus === ArtStatus.ChangesRequested,
      );
      if (piece) {
        await saveArt(ctx, member, piece.cellToken, {
          fields: validFields({ title: `Piece ${action.pick}` }),
          slots: [{ file: world.picture }],
          submit: true,
        });
      }
      return;
    }
    case 'publish': {
      const waiting = pickOf(await artWith(ArtStatus.Submitted));
      if (waiting) await publishArt(ctx, admin, waiting.token);
      return;
    }
    case 'requestChanges': {
      const waiting = pickOf(await artWith(ArtStatus.Submitted));
      if (waiting) await requestChanges(ctx, admin, waiting.token, 'Please send a sharper photograph.');
      return;
    }
    case 'extend': {
      const hold = (await held())[0];
      if (hold) await swallow(() => extendReservation(ctx, member, hold.cellToken, hold.token));
      return;
    }
    case 'release': {
      const active = await db
        .select({ id: reservations.id })
        .from(reservations)
        .where(eq(reservations.state, 'active'));
      const chosen = pickOf(active);
      if (chosen) await releaseReservationByStaff(ctx, admin, chosen.id);
      return;
    }
    case 'expire':
      t.clock.advance((RESERVATION_DAYS + 1) * DAY_MS);
      await expireReservations(ctx);
      return;
    case 'removal': {
      const published = (
        await db
          .select({ cellToken: cells.token, authorId: art.authorId })
          .from(art)
          .innerJoin(cells, eq(cells.artId, art.id))
          .where(and(eq(art.status, ArtStatus.Published), eq(cells.treeId, tree.id)))
      ).filter((row) => members.some((m) => m.id === row.authorId));
      const chosen = pickOf(published);
      if (!chosen) return;
      const author = members.find((m) => m.id === chosen.authorId)!;
      const request = await requestRemoval(ctx, author, chosen.cellToken, 'Please take it down.');
      await acceptRemoval(ctx, admin, request.token);
      return;
    }
  }
}
