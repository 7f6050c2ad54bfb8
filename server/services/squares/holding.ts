/**
 * Taking and keeping a square (docs/product.md, Reservations; decision 008): reserving an AVAILABLE square or a
 * branch slot made for the purpose, and the one extension of the hold. Each step runs inside the caller's IMMEDIATE
 * transaction and checks its rule there, against the rows as they are at that moment; the partial unique indexes (one
 * active reservation a member, one a square) are the last word should two writers ever slip past the checks.
 */
import { and, between, eq } from 'drizzle-orm';
import { art, cells, reservations, tablesEngine, trees } from '#drizzle/tables.ts';
import { MAX_REMINDERS_FOR_EXTENSION } from '#shared/constants.ts';
import { ArtStatus, CellStatus, CellType } from '#shared/domain.ts';
import { ERROR_TEXT } from '#shared/error-text.ts';
import { ErrorCode } from '#shared/errors.ts';
import { branchSlotRefusal, gridOfCells, type BranchSlotRefusal, type TreeSettings } from '#shared/tree/geometry.ts';
import type { Queryable } from '../../db.ts';
import type { PgTransaction } from '../../db-pg.ts';
import { AppError, causesOf } from '../../errors.ts';
import { newToken } from '../../tokens.ts';
import { recordCellChanges } from '../tree/index.ts';
import { isActiveReservationOf } from './holds.ts';
import { reserveSquarePostgres } from './holding-postgres.ts';
import { extensionDeadline, reservationDeadline } from './reservation-time.ts';

/** One sentence for each refusal; the client shows its own locale text for the code. */
const HOLD_MESSAGES = {
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

type HoldRefusal = keyof typeof HOLD_MESSAGES;

export function holdRefusal(code: HoldRefusal): AppError {
  return new AppError(code, HOLD_MESSAGES[code]);
}

const SLOT_REFUSALS: Record<BranchSlotRefusal, HoldRefusal> = {
  outside_branch_area: ErrorCode.OutsideBranchArea,
  occupied: ErrorCode.SlotOccupied,
  not_connected: ErrorCode.SlotNotConnected,
  too_connected: ErrorCode.SlotTooConnected,
};

/** The unique indexes behind the hold rules: PostgreSQL names the index it enforced, SQLite the index's columns. */
const UNIQUE_REFUSALS: readonly { index: string; columns: string; refusal: HoldRefusal }[] = [
  { index: 'reservations_one_per_user', columns: 'reservations.user_id', refusal: ErrorCode.AlreadyReserved },
  { index: 'reservations_one_per_cell', columns: 'reservations.cell_id', refusal: ErrorCode.CellTaken },
  { index: 'cells_position_unique', columns: 'cells.tree_id', refusal: ErrorCode.SlotOccupied },
];

/** The hold refusal a unique index's error stands for (the error or one it was caused by), or null. */
function refusalOfUniqueIndex(error: unknown): HoldRefusal | null {
  for (const current of causesOf(error)) {
    const { code, constraint } = current;
    const found =
      code === '23505'
        ? UNIQUE_REFUSALS.find((rule) => rule.index === constraint)
        : /UNIQUE constraint failed/.test(current.message)
          ? UNIQUE_REFUSALS.find((rule) => current.message.includes(rule.columns))
          : undefined;
    if (found) return found.refusal;
  }
  return null;
}

/**
 * Runs a transaction that reserves. Its checks give the clear code; should two writers ever slip past them, a unique
 * index refuses the second, and the index says which code that is, on either engine.
 */
export async function withHoldRefusals<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const refusal = refusalOfUniqueIndex(error);
    if (refusal) throw holdRefusal(refusal);
    throw error;
  }
}

/** A member reserving: who they are is all the rows need. */
export interface Reserver {
  id: number;
}

/** A square as reserving needs it. */
export interface SquareToReserve {
  id: number;
  treeId: number;
  status: number;
}

/** A square as reserving needs it, with what the answer to a reservation shows of it. */
export interface SquareAsFound extends SquareToReserve {
  token: string;
  row: number;
  column: number;
  type: number;
  treeToken: string;
}

async function refuseIfHolding(tx: Queryable, member: Reserver): Promise<void> {
  const held = (
    await tx.select({ id: reservations.id }).from(reservations).where(isActiveReservationOf(member.id)).limit(1)
  )[0];
  if (held) throw holdRefusal(ErrorCode.AlreadyReserved);
}

/**
 * The checks a reservation of the square `cellToken` names makes, in the order a member is told of them: the square
 * exists, the member holds nothing, the square is AVAILABLE. Answers the square. One read: the member's active
 * reservation, if any, comes joined to the square. They may run before the write that reserves (reserveCell runs
 * them on the database, so the write's transaction, which holds the one write lock, does only the writes): should
 * anything change in between, the write's conditional update and the unique indexes refuse it with the same codes
 * (withHoldRefusals).
 */
export async function squareToReserve(q: Queryable, member: Reserver, cellToken: string): Promise<SquareAsFound> {
  const found = (
    await q
      .select({
        id: cells.id,
        treeId: cells.treeId,
        status: cells.status,
        token: cells.token,
        row: cells.row,
        column: cells.column,
        type: cells.type,
        treeToken: trees.token,
        held: reservations.id,
      })
      .from(cells)
      .innerJoin(trees, eq(trees.id, cells.treeId))
      .leftJoin(reservations, isActiveReservationOf(member.id))
      .where(eq(cells.token, cellToken))
      .limit(1)
  )[0];
  if (!found) throw new AppError(ErrorCode.CellNotFound, 'No cell has this token.');
  const { held, ...square } = found;
  if (held !== null) throw holdRefusal(ErrorCode.AlreadyReserved);
  if (square.status === CellStatus.Reserved) throw holdRefusal(ErrorCode.CellTaken);
  if (square.status !== CellStatus.Available) throw holdRefusal(ErrorCode.CellNotAvailable);
  return square;
}

/** What reserving wrote: the reservation's token and deadline, and the draft piece's token. */
export interface SquareReserved {
  reminderToken: string;
  expiresAt: number;
  artToken: string;
}

/**
 * Reserves a square its checks passed for (squareToReserve, or a branch slot just made): the reservation with its
 * deadline, a draft piece for the member on the square, the square RESERVED (only if it still is AVAILABLE) and the
 * tree's version moved.
 */
export async function reserveSquare(
  tx: Queryable,
  now: number,
  member: Reserver,
  square: SquareToReserve,
): Promise<SquareReserved> {
  const reserved = { reminderToken: newToken(), expiresAt: reservationDeadline(now), artToken: newToken() };
  if (tablesEngine() === 'postgres') {
    const written = await reserveSquarePostgres(tx as unknown as PgTransaction, {
      cellId: square.id,
      userId: member.id,
      now,
      ...reserved,
    });
    if (!written) throw holdRefusal(ErrorCode.CellTaken);
    return reserved;
  }
  await tx.insert(reservations).values({
    token: reserved.reminderToken,
    userId: member.id,
    cellId: square.id,
    state: 'active',
    expiresAt: reserved.expiresAt,
    createdAt: now,
    updatedAt: now,
  });
  const draft = (
    await tx
      .insert(art)
      .values({
        token: reserved.artToken,
        cellId: square.id,
        authorId: member.id,
        status: ArtStatus.Draft,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: art.id })
  )[0]!;
  const changed = (
    await tx
      .update(cells)
      .set({ status: CellStatus.Reserved, artId: draft.id, updatedAt: now })
      .where(and(eq(cells.id, square.id), eq(cells.status, CellStatus.Available)))
      .returning({ id: cells.id })
  ).length;
  if (changed !== 1) throw holdRefusal(ErrorCode.CellTaken);
  await recordCellChanges(tx, square.treeId, [square.id], now);
  return reserved;
}

/** Reserves the square a token names, checks and writes in the caller's transaction (a first save on a free square). */
export async function reserveSquareByToken(
  tx: Queryable,
  now: number,
  member: Reserver,
  cellToken: string,
): Promise<void> {
  await reserveSquare(tx, now, member, await squareToReserve(tx, member, cellToken));
}

/**
 * Makes a branch square at (row, column) and reserves it. The branch rule of shared/tree/geometry.ts, the one the
 * canvas draws with, is checked over the position and its 8 neighbours as they are inside the transaction.
 */
export async function reserveBranchSlotSquare(
  tx: Queryable,
  now: number,
  member: Reserver,
  tree: { id: number; settings: unknown },
  position: { row: number; column: number },
): Promise<void> {
  const { row, column } = position;
  await refuseIfHolding(tx, member);
  const around = await tx
    .select({ row: cells.row, column: cells.column, status: cells.status })
    .from(cells)
    .where(
      and(
        eq(cells.treeId, tree.id),
        between(cells.row, row - 1, row + 1),
        between(cells.column, column - 1, column + 1),
      ),
    );
  const refused = branchSlotRefusal(tree.settings as TreeSettings, gridOfCells(around), row, column);
  if (refused) throw holdRefusal(SLOT_REFUSALS[refused]);
  const square = (
    await tx
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
  )[0]!;
  await reserveSquare(tx, now, member, square);
}

/** What the extension's rule looks at. */
export interface ExtensionFacts {
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

/**
 * Extends a hold once: the new deadline is midnight in the site's zone ending the day 7 days after the current one
 * (decision 027). updated_at moves to now, so the reminder steps of the new deadline that fall before now are not
 * sent.
 */
export async function extendHold(
  tx: Queryable,
  now: number,
  zone: string,
  hold: ExtensionFacts & { id: number },
): Promise<void> {
  const refused = extensionRefusal(hold, now);
  if (refused) throw holdRefusal(refused);
  const changed = (
    await tx
      .update(reservations)
      .set({ expiresAt: extensionDeadline(hold.expiresAt, zone), extended: true, updatedAt: now })
      .where(and(eq(reservations.id, hold.id), eq(reservations.state, 'active'), eq(reservations.extended, false)))
      .returning({ id: reservations.id })
  ).length;
  if (changed !== 1) throw holdRefusal(ErrorCode.ExtensionNotAllowed);
}
