/** Shared by the reservation tests: a tree to work on, squares by position, browsers per user, and a whole-state snapshot. */
import { and, asc, count, eq } from 'drizzle-orm';
import { art, cells, mailOutbox, pictures, reservations, subscriptions, trees } from '#drizzle/tables.ts';
import { CellStatus } from '#shared/domain.ts';
import type { Db } from '#server/db.ts';
import { BrowserLike } from '#tests/helpers/server/browser-like.ts';
import type { TestApp } from '#tests/helpers/server/test-app.ts';
import { firstRow, oneRow } from '#tests/helpers/server/rows.ts';

/** Default geometry: crown rows 0-2, trunk 3-32, seed 33-34 (AVAILABLE), roots 35-44; branches in rows 3-26. */
export const SEED_ROW = 33;

export async function cellAt(db: Db, treeId: number, row: number, column: number) {
  return await firstRow(
    db
      .select()
      .from(cells)
      .where(and(eq(cells.treeId, treeId), eq(cells.row, row), eq(cells.column, column))),
  );
}

export async function setCellStatus(
  db: Db,
  treeId: number,
  row: number,
  column: number,
  status: number,
): Promise<void> {
  await db
    .update(cells)
    .set({ status })
    .where(and(eq(cells.treeId, treeId), eq(cells.row, row), eq(cells.column, column)));
}

/** Marks a trunk square PUBLISHED directly (publishing itself belongs to review). */
export async function publishAt(db: Db, treeId: number, row: number, column: number): Promise<void> {
  await setCellStatus(db, treeId, row, column, CellStatus.Published);
}

/** A browser signed in with the session cookie `t.addUser` gave (or a guest's, without one). */
export function browserOf(t: TestApp, cookie?: string): BrowserLike {
  const browser = new BrowserLike(t.server);
  if (cookie) browser.setCookie('session', cookie.slice('session='.length));
  return browser;
}

/** Everything a reservation call could change, to prove a refusal changed nothing. */
export async function stateOf(db: Db) {
  return {
    trees: await db.select({ id: trees.id, version: trees.version }).from(trees).orderBy(asc(trees.id)),
    cells: await db
      .select({ id: cells.id, status: cells.status, artId: cells.artId, updatedAt: cells.updatedAt })
      .from(cells)
      .orderBy(asc(cells.id)),
    art: await db.select({ id: art.id, status: art.status, cellId: art.cellId }).from(art).orderBy(asc(art.id)),
    pictures: (await oneRow(db.select({ n: count() }).from(pictures))).n,
    reservations: await db.select().from(reservations).orderBy(asc(reservations.id)),
    subscriptions: await db.select().from(subscriptions).orderBy(asc(subscriptions.id)),
    mails: (await oneRow(db.select({ n: count() }).from(mailOutbox))).n,
  };
}

export async function activeReservationOf(db: Db, userId: number) {
  return await firstRow(
    db
      .select()
      .from(reservations)
      .where(and(eq(reservations.userId, userId), eq(reservations.state, 'active'))),
  );
}

/** Ends a user's hold without the timers, so the next test can reserve again with the same user. */
export async function releaseHold(db: Db, userId: number): Promise<void> {
  await db
    .update(reservations)
    .set({ state: 'released' })
    .where(and(eq(reservations.userId, userId), eq(reservations.state, 'active')));
}
