/**
 * Reserving a square on PostgreSQL in one statement (decision 037): the square taken, the reservation and the draft
 * written, the change logged and the tree's version moved, each a part of one `with` statement. Inside the write
 * transaction every statement is a round trip that every other writer waits for (the one write lock), and these five
 * as drizzle sends them were most of a reservation's time there; as one, the lock is held for three round trips
 * (BEGIN with the lock, this, COMMIT) instead of seven. SQLite runs them one by one (holding.ts): a statement costs it
 * no round trip.
 *
 * The parts run on one snapshot, so each reads what an earlier one returns, never its table: the square's update
 * returns its row only when it was still available, and every insert selects from it, so a square taken meanwhile
 * writes nothing and answers no row. The draft's id is drawn from its identity's sequence first, so the square names
 * it in the same update. The partial unique indexes (one active reservation a member, one a square) still refuse a
 * second hold, as an error of the whole statement.
 */
import { sql } from 'drizzle-orm';
import { ArtStatus, CellStatus } from '#shared/domain.ts';
import type { PgTransaction } from '../../db-pg.ts';

export interface SquareReservation {
  cellId: number;
  userId: number;
  now: number;
  reminderToken: string;
  expiresAt: number;
  artToken: string;
}

/** Writes the reservation; false when the square was no longer available (nothing written then). */
export async function reserveSquarePostgres(tx: PgTransaction, r: SquareReservation): Promise<boolean> {
  const result = await tx.execute(sql`
    with draft_id as (select nextval(pg_get_serial_sequence('art', 'id'))::int as id),
    square as (
      update cells
      set status = ${CellStatus.Reserved}, art_id = (select id from draft_id), updated_at = ${r.now}::bigint
      where id = ${r.cellId} and status = ${CellStatus.Available}
      returning id, tree_id
    ),
    held as (
      insert into reservations (token, user_id, cell_id, state, expires_at, created_at, updated_at)
      select ${r.reminderToken}::text, ${r.userId}::int, id, 'active', ${r.expiresAt}::bigint, ${r.now}::bigint,
        ${r.now}::bigint
      from square
    ),
    draft as (
      insert into art (id, token, cell_id, author_id, status, created_at, updated_at)
      select (select id from draft_id), ${r.artToken}::text, id, ${r.userId}::int, ${ArtStatus.Draft}::int,
        ${r.now}::bigint, ${r.now}::bigint
      from square
    ),
    logged as (
      insert into tree_changes (tree_id, cell_id, at)
      select tree_id, id, ${r.now}::bigint from square
      returning tree_id, seq
    )
    update trees set version = logged.seq from logged where trees.id = logged.tree_id
  `);
  return result.rowCount === 1;
}
