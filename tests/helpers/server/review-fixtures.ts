/** Shared by the review and admin tests: a piece submitted for review the way the editor does it, and a state snapshot. */
import fs from 'node:fs';
import { asc, eq } from 'drizzle-orm';
import {
  art,
  cells,
  connections,
  contactMessages,
  removalRequests,
  sessions,
  staffActions,
  users,
} from '#drizzle/schema.ts';
import type { Db } from '#server/db.ts';
import { deliverOutbox } from '#server/services/mail/mail.ts';
import { saveArt } from '#server/services/art/art.ts';
import { reserveCell } from '#server/services/reservations/reservations.ts';
import { readOutbox, type ReadMail } from '#tests/helpers/outbox.ts';
import type { TestApp } from '#tests/helpers/server/test-app.ts';
import { cellAt, png, validFields } from '../art-fixtures.ts';
import { stateOf } from './reservation-fixtures.ts';

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
  const cell = cellAt(t.deps.db, treeId, row, column);
  await reserveCell(t.deps, author, cell.token);
  const saved = await saveArt(t.deps, author, cell.token, {
    fields: validFields({ title }),
    slots: [{ file: await png(64, 48, '#884422') }],
    submit: true,
  });
  return { cellToken: cell.token, cellId: cell.id, artToken: saved.art!.token };
}

export function artRow(db: Db, artToken: string) {
  return db.select().from(art).where(eq(art.token, artToken)).get()!;
}

export function cellRow(db: Db, cellToken: string) {
  return db.select().from(cells).where(eq(cells.token, cellToken)).get()!;
}

/** Everything a staff action could change, to prove a refusal changed nothing. */
export function adminStateOf(db: Db) {
  return {
    ...stateOf(db),
    artRows: db.select().from(art).orderBy(asc(art.id)).all(),
    connections: db.select().from(connections).orderBy(asc(connections.id)).all(),
    removals: db.select().from(removalRequests).orderBy(asc(removalRequests.id)).all(),
    messages: db.select().from(contactMessages).orderBy(asc(contactMessages.id)).all(),
    users: db.select().from(users).orderBy(asc(users.id)).all(),
    sessions: db.select({ id: sessions.id }).from(sessions).orderBy(asc(sessions.id)).all(),
    staffLog: db.select().from(staffActions).orderBy(asc(staffActions.id)).all(),
    search: db.all(`select rowid from art_search order by rowid`),
  };
}

/** Delivers the queued e-mails to the outbox folder and reads them all, as a mail client would show them. */
export async function mailsOf(t: TestApp): Promise<ReadMail[]> {
  while ((await deliverOutbox(t.deps)) > 0);
  return fs.existsSync(t.deps.config.outboxDir) ? readOutbox(t.deps.config.outboxDir) : [];
}
