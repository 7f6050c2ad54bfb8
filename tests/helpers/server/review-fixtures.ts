/** Shared by the review and admin tests: a piece submitted for review the way the editor does it, and a state snapshot. */
import fs from 'node:fs';
import { asc, eq, sql } from 'drizzle-orm';
import {
  art,
  cells,
  connections,
  contactMessages,
  removalRequests,
  sessions,
  staffActions,
  users,
  tablesEngine,
} from '#drizzle/tables.ts';
import { artSearch } from '#drizzle/schema-pg.ts';
import type { PgDb } from '#server/db-pg.ts';
import type { Db } from '#server/db.ts';
import { deliverOutbox } from '#server/services/mail/mail.ts';
import { saveArt } from '#server/services/art/art.ts';
import { reserveCell } from '#server/services/reservations/reservations.ts';
import { readOutbox, type ReadMail } from '#tests/helpers/outbox.ts';
import type { TestApp } from '#tests/helpers/server/test-app.ts';
import { cellAt, png, validFields } from '../art-fixtures.ts';
import { stateOf } from './reservation-fixtures.ts';
import { oneRow } from '#tests/helpers/server/rows.ts';

type Member = Awaited<ReturnType<TestApp['addUser']>>['user'];

/** Reserves (row, column) for `author` and submits a piece there with one picture, as the editor's SUBMIT does. */
export async function submitPieceAt(
  t: TestApp,
  treeId: number,
  row: number,
  column: number,
  author: Member,
  title = `Piece ${row}/${column}`,
) {
  const cell = await cellAt(t.deps.db, treeId, row, column);
  await reserveCell(t.deps, author, cell.token);
  const saved = await saveArt(t.deps, author, cell.token, {
    fields: validFields({ title }),
    slots: [{ file: await png(64, 48, '#884422') }],
    submit: true,
  });
  return { cellToken: cell.token, cellId: cell.id, artToken: saved.art!.token };
}

export async function artRow(db: Db, artToken: string) {
  return await oneRow(db.select().from(art).where(eq(art.token, artToken)));
}

export async function cellRow(db: Db, cellToken: string) {
  return await oneRow(db.select().from(cells).where(eq(cells.token, cellToken)));
}

/**
 * The ids of the pieces the search index holds, in order (only `artId`'s, when given). The index is each engine's own:
 * an FTS5 table outside drizzle's schema on SQLite, a table of drizzle/schema-pg.ts on PostgreSQL.
 */
export async function searchIndexOf(db: Db, artId?: number): Promise<number[]> {
  if (tablesEngine() === 'postgres') {
    const rows = await (db as unknown as PgDb)
      .select({ id: artSearch.artId })
      .from(artSearch)
      .where(artId === undefined ? undefined : eq(artSearch.artId, artId))
      .orderBy(asc(artSearch.artId));
    return rows.map((row) => row.id);
  }
  const rows = db.all<{ rowid: number }>(
    artId === undefined
      ? sql`select rowid from art_search order by rowid`
      : sql`select rowid from art_search where rowid = ${artId}`,
  );
  return rows.map((row) => row.rowid);
}

/** Everything a staff action could change, to prove a refusal changed nothing. */
export async function adminStateOf(db: Db) {
  return {
    ...(await stateOf(db)),
    artRows: await db.select().from(art).orderBy(asc(art.id)),
    connections: await db.select().from(connections).orderBy(asc(connections.id)),
    removals: await db.select().from(removalRequests).orderBy(asc(removalRequests.id)),
    messages: await db.select().from(contactMessages).orderBy(asc(contactMessages.id)),
    users: await db.select().from(users).orderBy(asc(users.id)),
    sessions: await db.select({ id: sessions.id }).from(sessions).orderBy(asc(sessions.id)),
    staffLog: await db.select().from(staffActions).orderBy(asc(staffActions.id)),
    search: await searchIndexOf(db),
  };
}

/** Delivers the queued e-mails to the outbox folder and reads them all, as a mail client would show them. */
export async function mailsOf(t: TestApp): Promise<ReadMail[]> {
  while ((await deliverOutbox(t.deps)) > 0);
  return fs.existsSync(t.deps.config.outboxDir) ? readOutbox(t.deps.config.outboxDir) : [];
}
