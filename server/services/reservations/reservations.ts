/**
 * Reservations (docs/product.md, Reservations; decision 008): reserving an AVAILABLE square or a branch slot, the
 * viewer's held square, the one extension. Each change is one IMMEDIATE transaction around the step squares/holding.ts
 * writes; the partial unique indexes (one active a user, one a square) are the last word: two reservations of a
 * square, from any process, never both win.
 */
import { and, eq } from 'drizzle-orm';
import { art, cells, reservations, trees } from '#drizzle/tables.ts';
import type { ReservationDetails, ReservedCell } from '#shared/api-types.ts';
import { ArtStatus, CellStatus } from '#shared/domain.ts';
import { ErrorCode } from '#shared/errors.ts';
import { write, type Queryable } from '../../db.ts';
import { AppError } from '../../errors.ts';
import { mayManageReservation, mayReserve, type Viewer } from '../../permissions.ts';
import type { ServiceContext } from '../context.ts';
import {
  extendHold,
  extensionDeadline,
  extensionRefusal,
  holdRefusal,
  reserveBranchSlotSquare,
  reserveSquare,
  squareToReserve,
  withHoldRefusals,
} from '../squares/index.ts';
import { getDefaultTree, getTreeByToken } from '../tree/index.ts';

export type Member = NonNullable<Viewer>;

/** Reserves an AVAILABLE square (POST /api/cell/{cellToken}/reserve) and answers the user's held square. */
export async function reserveCell(ctx: ServiceContext, user: Viewer, cellToken: string): Promise<ReservedCell> {
  if (!mayReserve(user)) throw new AppError(ErrorCode.Unauthenticated, 'Log in to reserve a square.');
  const now = ctx.clock.now();
  // The checks read before the write, and the answer is what the write wrote: the transaction, which holds the one
  // write lock, only writes, and nothing is read again after it (on PostgreSQL every statement is a round trip, and
  // every one inside the transaction one that every other writer waits for).
  const found = await squareToReserve(ctx.db, user, cellToken);
  const reserved = await withHoldRefusals(() => write(ctx.db, (tx) => reserveSquare(tx, now, user, found)));
  const { id: _id, treeId: _treeId, ...square } = found;
  return reservedCellOf(
    {
      ...square,
      status: CellStatus.Reserved,
      state: 'active',
      artToken: reserved.artToken,
      artStatus: ArtStatus.Draft,
      expiresAt: reserved.expiresAt,
      reminderCount: 0,
      updatedAt: now,
      extended: false,
      reminderToken: reserved.reminderToken,
    },
    now,
    ctx.config.siteTimezone,
  );
}

export interface BranchPosition {
  treeToken?: string | undefined;
  row: number;
  column: number;
}

/**
 * Creates a branch square at (row, column) and reserves it (POST /api/branch/reserve), the branch rule checked
 * inside the transaction.
 */
export async function reserveBranchSlot(
  ctx: ServiceContext,
  user: Viewer,
  position: BranchPosition,
): Promise<ReservedCell> {
  if (!mayReserve(user)) throw new AppError(ErrorCode.Unauthenticated, 'Log in to reserve a square.');
  const tree = position.treeToken ? await getTreeByToken(ctx.db, position.treeToken) : await getDefaultTree(ctx.db);
  if (!tree) throw new AppError(ErrorCode.TreeNotFound, 'There is no tree yet.');
  const now = ctx.clock.now();
  await withHoldRefusals(() => write(ctx.db, (tx) => reserveBranchSlotSquare(tx, now, user, tree, position)));
  return (await readReservedCell(ctx.db, user.id, now, ctx.config.siteTimezone))!;
}

/** The user's active reservation as the client shows it, or null. */
export async function readReservedCell(
  q: Queryable,
  userId: number,
  now: number,
  zone: string,
): Promise<ReservedCell | null> {
  const found = (
    await q
      .select({
        token: cells.token,
        row: cells.row,
        column: cells.column,
        type: cells.type,
        status: cells.status,
        treeToken: trees.token,
        artToken: art.token,
        artStatus: art.status,
        state: reservations.state,
        expiresAt: reservations.expiresAt,
        reminderCount: reservations.reminderCount,
        updatedAt: reservations.updatedAt,
        extended: reservations.extended,
        reminderToken: reservations.token,
      })
      .from(reservations)
      .innerJoin(cells, eq(cells.id, reservations.cellId))
      .innerJoin(trees, eq(trees.id, cells.treeId))
      .leftJoin(art, eq(art.id, cells.artId))
      .where(and(eq(reservations.userId, userId), eq(reservations.state, 'active')))
      .limit(1)
  )[0];
  return found ? reservedCellOf(found, now, zone) : null;
}

/** A held square's row, as a reservation's answer shows it. */
interface HeldSquare extends Omit<ReservedCell, 'art' | 'extensionAllowed' | 'extendedUntil'> {
  state: string;
  artToken: string | null;
  artStatus: number | null;
}

/** The answer for a held square: its piece, and what an extension would allow now (decision 027). */
function reservedCellOf(held: HeldSquare, now: number, zone: string): ReservedCell {
  const { artToken, artStatus, state: _state, ...rest } = held;
  return {
    ...rest,
    art: { token: artToken ?? '', status: artStatus ?? ArtStatus.Draft },
    extensionAllowed: extensionRefusal(held, now) === null,
    extendedUntil: extensionDeadline(held.expiresAt, zone),
  };
}

/** GET /api/user/{token}/reserve and user.reservedCell: the viewer's held square, or null. */
export async function getMyReservation(ctx: ServiceContext, user: Member): Promise<ReservedCell | null> {
  return readReservedCell(ctx.db, user.id, ctx.clock.now(), ctx.config.siteTimezone);
}

/** The reservation a reminder link names: its token and its square's token must belong together. */
async function findByReminder(q: Queryable, cellToken: string, reminderToken: string) {
  const found = (
    await q
      .select({
        id: reservations.id,
        userId: reservations.userId,
        cellToken: cells.token,
        state: reservations.state,
        expiresAt: reservations.expiresAt,
        reminderCount: reservations.reminderCount,
        updatedAt: reservations.updatedAt,
        extended: reservations.extended,
        artStatus: art.status,
      })
      .from(reservations)
      .innerJoin(cells, eq(cells.id, reservations.cellId))
      .leftJoin(art, and(eq(art.id, cells.artId), eq(art.authorId, reservations.userId)))
      .where(eq(reservations.token, reminderToken))
  )[0];
  if (!found || found.cellToken !== cellToken) throw holdRefusal(ErrorCode.ReservationNotFound);
  return found;
}

type FoundReservation = Awaited<ReturnType<typeof findByReminder>>;

function authorised(user: Viewer, found: FoundReservation): FoundReservation {
  if (!mayManageReservation(user, found))
    throw new AppError(ErrorCode.Forbidden, 'This reservation belongs to someone else.');
  return found;
}

function detailsOf(found: FoundReservation, now: number, zone: string): ReservationDetails {
  const refused = extensionRefusal(found, now);
  return {
    cellToken: found.cellToken,
    state: found.state,
    expiresAt: found.expiresAt,
    reminderCount: found.reminderCount,
    updatedAt: found.updatedAt,
    extended: found.extended,
    extensionAllowed: refused === null,
    refusal: refused,
    extendedUntil: extensionDeadline(found.expiresAt, zone),
  };
}

/** The extend page's question (GET /api/cell/{cellToken}/reserve/{reminderToken}): whether and until when. */
export async function getReservation(
  ctx: ServiceContext,
  user: Viewer,
  cellToken: string,
  reminderToken: string,
): Promise<ReservationDetails> {
  return detailsOf(
    authorised(user, await findByReminder(ctx.db, cellToken, reminderToken)),
    ctx.clock.now(),
    ctx.config.siteTimezone,
  );
}

/**
 * Extends once (POST /api/cell/{cellToken}/reserve/{reminderToken}): squares' extendHold says when and until
 * when.
 */
export async function extendReservation(
  ctx: ServiceContext,
  user: Viewer,
  cellToken: string,
  reminderToken: string,
): Promise<ReservationDetails> {
  const now = ctx.clock.now();
  return write(ctx.db, async (tx) => {
    await extendHold(
      tx,
      now,
      ctx.config.siteTimezone,
      authorised(user, await findByReminder(tx, cellToken, reminderToken)),
    );
    return detailsOf(await findByReminder(tx, cellToken, reminderToken), now, ctx.config.siteTimezone);
  });
}
