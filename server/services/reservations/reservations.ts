/**
 * Reservations (docs/product.md, Reservations; decision 008): reserving an AVAILABLE square or a branch slot, the
 * viewer's held square, the one extension. Each change is one IMMEDIATE transaction, and the partial unique indexes
 * (one active a user, one a square) are the last word: two reservations of a square, from any process, never both win.
 */
import { and, between, eq } from 'drizzle-orm';
import { art, cells, reservations, trees } from '#drizzle/schema.ts';
import type { ReservationDetails, ReservedCell } from '#shared/api-types.ts';
import { MAX_REMINDERS_FOR_EXTENSION } from '#shared/constants.ts';
import { ArtStatus, CellStatus, CellType } from '#shared/domain.ts';
import { ErrorCode } from '#shared/errors.ts';
import { branchSlotRefusal, gridOfCells, type BranchSlotRefusal, type TreeSettings } from '#shared/tree/geometry.ts';
import { IMMEDIATE, type Queryable } from '../../db.ts';
import { AppError } from '../../errors.ts';
import { mayManageReservation, mayReserve, type Viewer } from '../../permissions.ts';
import { newToken } from '../../tokens.ts';
import type { ServiceContext } from '../context.ts';
import { extensionDeadline, reservationDeadline, isActiveReservationOf } from '../squares/index.ts';
import { getDefaultTree, getTreeByToken, recordCellChanges } from '../tree/index.ts';
import { ERROR_TEXT } from '#shared/error-text.ts';

export type Member = NonNullable<Viewer>;

/** One sentence for each refusal; the client shows its own locale text for the code. */
export const RESERVATION_MESSAGES = {
  cell_not_available: 'This square cannot be reserved: it is not available.',
  already_reserved: 'You already hold a reserved square; upload your piece there before reserving another.',
  cell_taken: ERROR_TEXT.cell_taken,
  outside_branch_area: 'This position is outside the area where branches may grow.',
  slot_occupied: ERROR_TEXT.slot_occupied,
  slot_not_connected: ERROR_TEXT.slot_not_connected,
  slot_too_connected: ERROR_TEXT.slot_too_connected,
  reservation_not_found: ERROR_TEXT.reservation_not_found,
  extension_not_allowed: ERROR_TEXT.extension_not_allowed,
  reservation_expired: ERROR_TEXT.reservation_expired,
} as const;

type ReservationRefusal = keyof typeof RESERVATION_MESSAGES;

export function refusal(code: ReservationRefusal, message: string = RESERVATION_MESSAGES[code]): AppError {
  return new AppError(code, message);
}

const SLOT_REFUSALS: Record<BranchSlotRefusal, ReservationRefusal> = {
  outside_branch_area: ErrorCode.OutsideBranchArea,
  occupied: ErrorCode.SlotOccupied,
  not_connected: ErrorCode.SlotNotConnected,
  too_connected: ErrorCode.SlotTooConnected,
};

/**
 * Runs a reserve. The checks inside the transaction give the clear code; should two writers ever slip past them,
 * a unique index refuses the second, and its name says which code that is.
 */
function withUniqueRefusals<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    const message = error instanceof Error ? error.message : '';
    if (!/UNIQUE constraint failed/.test(message)) throw error;
    if (message.includes('reservations.user_id')) throw refusal(ErrorCode.AlreadyReserved);
    if (message.includes('reservations.cell_id')) throw refusal(ErrorCode.CellTaken);
    if (message.includes('cells.tree_id')) throw refusal(ErrorCode.SlotOccupied);
    throw error;
  }
}

function activeReservationOf(tx: Queryable, userId: number) {
  return tx
    .select({ id: reservations.id, cellId: reservations.cellId })
    .from(reservations)
    .where(isActiveReservationOf(userId))
    .get();
}

/**
 * The rows of a reservation, inside the caller's transaction: the user holds nothing, the square is AVAILABLE; then
 * the reservation, a draft piece for the user on the square, the square RESERVED and the tree's version moved.
 */
function reserveInTx(
  tx: Queryable,
  now: number,
  user: Member,
  cell: { id: number; treeId: number; status: number },
): void {
  if (activeReservationOf(tx, user.id)) throw refusal(ErrorCode.AlreadyReserved);
  if (cell.status === CellStatus.Reserved) throw refusal(ErrorCode.CellTaken);
  if (cell.status !== CellStatus.Available) throw refusal(ErrorCode.CellNotAvailable);
  tx.insert(reservations)
    .values({
      token: newToken(),
      userId: user.id,
      cellId: cell.id,
      state: 'active',
      expiresAt: reservationDeadline(now),
      createdAt: now,
      updatedAt: now,
    })
    .run();
  const draft = tx
    .insert(art)
    .values({
      token: newToken(),
      cellId: cell.id,
      authorId: user.id,
      status: ArtStatus.Draft,
      createdAt: now,
      updatedAt: now,
    })
    .returning({ id: art.id })
    .get();
  const changed = tx
    .update(cells)
    .set({ status: CellStatus.Reserved, artId: draft.id, updatedAt: now })
    .where(and(eq(cells.id, cell.id), eq(cells.status, CellStatus.Available)))
    .run().changes;
  if (changed !== 1) throw refusal(ErrorCode.CellTaken);
  recordCellChanges(tx, cell.treeId, [cell.id], now);
}

/** Reserves an AVAILABLE square (POST /api/cell/{cellToken}/reserve) and answers the user's held square. */
export function reserveCell(ctx: ServiceContext, user: Viewer, cellToken: string): ReservedCell {
  if (!mayReserve(user)) throw new AppError(ErrorCode.Unauthenticated, 'Log in to reserve a square.');
  const now = ctx.clock.now();
  return withUniqueRefusals(() =>
    ctx.db.transaction((tx) => {
      const cell = tx
        .select({ id: cells.id, treeId: cells.treeId, status: cells.status })
        .from(cells)
        .where(eq(cells.token, cellToken))
        .get();
      if (!cell) throw new AppError(ErrorCode.CellNotFound, 'No cell has this token.');
      reserveInTx(tx, now, user, cell);
      return readReservedCell(tx, user.id, now, ctx.config.siteTimezone)!;
    }, IMMEDIATE),
  );
}

export interface BranchPosition {
  treeToken?: string | undefined;
  row: number;
  column: number;
}

/**
 * Creates a branch square at (row, column) and reserves it (POST /api/branch/reserve). The branch rule of
 * shared/tree/geometry.ts, the one the canvas draws with, is checked again inside the transaction over the position
 * and its 8 neighbours as they are at that moment.
 */
export function reserveBranchSlot(ctx: ServiceContext, user: Viewer, position: BranchPosition): ReservedCell {
  if (!mayReserve(user)) throw new AppError(ErrorCode.Unauthenticated, 'Log in to reserve a square.');
  const tree = position.treeToken ? getTreeByToken(ctx.db, position.treeToken) : getDefaultTree(ctx.db);
  if (!tree) throw new AppError(ErrorCode.TreeNotFound, 'There is no tree yet.');
  const { row, column } = position;
  const now = ctx.clock.now();
  return withUniqueRefusals(() =>
    ctx.db.transaction((tx) => {
      if (activeReservationOf(tx, user.id)) throw refusal(ErrorCode.AlreadyReserved);
      const around = tx
        .select({ row: cells.row, column: cells.column, status: cells.status })
        .from(cells)
        .where(
          and(
            eq(cells.treeId, tree.id),
            between(cells.row, row - 1, row + 1),
            between(cells.column, column - 1, column + 1),
          ),
        )
        .all();
      const refused = branchSlotRefusal(tree.settings as TreeSettings, gridOfCells(around), row, column);
      if (refused) throw refusal(SLOT_REFUSALS[refused]);
      const cell = tx
        .insert(cells)
        .values({
          token: newToken(),
          treeId: tree.id,
          row,
          column,
          type: CellType.Branch,
          status: CellStatus.Available,
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: cells.id, treeId: cells.treeId, status: cells.status })
        .get();
      reserveInTx(tx, now, user, cell);
      return readReservedCell(tx, user.id, now, ctx.config.siteTimezone)!;
    }, IMMEDIATE),
  );
}

interface ExtensionFacts {
  state: string;
  expiresAt: number;
  extended: boolean;
  reminderCount: number;
  artStatus: number | null;
}

/**
 * Why the one-time extension is refused now, or null (decisions 008, 027): once, at any time before the deadline
 * (from the square itself or from a reminder's link), while no more than four reminders have gone out, and only for
 * a draft or a piece sent back for changes (decision 019): a submitted piece is never released, so it has nothing
 * to extend.
 */
export function extensionRefusal(
  facts: ExtensionFacts,
  now: number,
): 'extension_not_allowed' | 'reservation_expired' | null {
  if (facts.state === 'expired' || (facts.state === 'active' && now >= facts.expiresAt))
    return ErrorCode.ReservationExpired;
  if (facts.state !== 'active' || facts.extended) return ErrorCode.ExtensionNotAllowed;
  if (facts.reminderCount > MAX_REMINDERS_FOR_EXTENSION) return ErrorCode.ExtensionNotAllowed;
  if (facts.artStatus !== null && facts.artStatus !== ArtStatus.Draft && facts.artStatus !== ArtStatus.ChangesRequested)
    return ErrorCode.ExtensionNotAllowed;
  return null;
}

/** The user's active reservation as the client shows it, or null. */
export function readReservedCell(q: Queryable, userId: number, now: number, zone: string): ReservedCell | null {
  const found = q
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
    .get();
  if (!found) return null;
  const { artToken, artStatus, state: _state, ...rest } = found;
  return {
    ...rest,
    art: { token: artToken ?? '', status: artStatus ?? ArtStatus.Draft },
    extensionAllowed: extensionRefusal(found, now) === null,
    extendedUntil: extensionDeadline(found.expiresAt, zone),
  };
}

/** GET /api/user/{token}/reserve and user.reservedCell: the viewer's held square, or null. */
export function getMyReservation(ctx: ServiceContext, user: Member): ReservedCell | null {
  return readReservedCell(ctx.db, user.id, ctx.clock.now(), ctx.config.siteTimezone);
}

/** The reservation a reminder link names: its token and its square's token must belong together. */
function findByReminder(q: Queryable, cellToken: string, reminderToken: string) {
  const found = q
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
    .get();
  if (!found || found.cellToken !== cellToken) throw refusal(ErrorCode.ReservationNotFound);
  return found;
}

type FoundReservation = ReturnType<typeof findByReminder>;

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
export function getReservation(
  ctx: ServiceContext,
  user: Viewer,
  cellToken: string,
  reminderToken: string,
): ReservationDetails {
  return detailsOf(
    authorised(user, findByReminder(ctx.db, cellToken, reminderToken)),
    ctx.clock.now(),
    ctx.config.siteTimezone,
  );
}

/**
 * Extends once (POST /api/cell/{cellToken}/reserve/{reminderToken}): the new deadline is midnight in the site's zone
 * ending the day 7 days after the current deadline (decision 027). updated_at moves to now, so the reminder steps of
 * the new deadline that fall before now are not sent.
 */
export function extendReservation(
  ctx: ServiceContext,
  user: Viewer,
  cellToken: string,
  reminderToken: string,
): ReservationDetails {
  const now = ctx.clock.now();
  return ctx.db.transaction((tx) => {
    const found = authorised(user, findByReminder(tx, cellToken, reminderToken));
    const refused = extensionRefusal(found, now);
    if (refused) throw refusal(refused);
    const zone = ctx.config.siteTimezone;
    const expiresAt = extensionDeadline(found.expiresAt, zone);
    const changed = tx
      .update(reservations)
      .set({ expiresAt, extended: true, updatedAt: now })
      .where(and(eq(reservations.id, found.id), eq(reservations.state, 'active'), eq(reservations.extended, false)))
      .run().changes;
    if (changed !== 1) throw refusal(ErrorCode.ExtensionNotAllowed);
    return detailsOf(findByReminder(tx, cellToken, reminderToken), now, zone);
  }, IMMEDIATE);
}
