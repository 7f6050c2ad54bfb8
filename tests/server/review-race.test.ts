/**
 * Two staff members publishing the same piece at the same moment: one wins, the other is told the piece is
 * not waiting any more, and the piece is published once (one staff log row, one e-mail). Two server processes share
 * one database file, and each piece gets two HTTP calls at once, one through each process.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq } from 'drizzle-orm';
import { art, cells, mailOutbox, pictures, staffActions, users } from '#drizzle/schema.ts';
import { ArtStatus, CellStatus, Role } from '#shared/domain.ts';
import { createSession } from '#server/auth/sessions.ts';
import { systemClock } from '#server/clock.ts';
import { closeDatabase, openDatabase, type Db } from '#server/db.ts';
import { createTree, type TreeRow } from '#server/services/tree/tree.ts';
import { newToken } from '#server/tokens.ts';
import { tempDir } from '#tests/helpers/server/test-app.ts';
import { cellAt } from '../helpers/server/reservation-fixtures.ts';
import { startRaceServer, stopRaceServers, type RaceServer } from '../helpers/server/race-servers.ts';

const CSRF = 'race-csrf-token-race-csrf-token-0123';
const PIECES = 5;

let dir: string;
let db: Db;
let tree: TreeRow;
const servers: RaceServer[] = [];

async function addUser(role: number): Promise<{ id: number; cookie: string }> {
  const now = Date.now();
  const user = db
    .insert(users)
    .values({
      token: newToken(),
      email: `staff-${newToken(6)}@race.test`,
      passwordHash: 'unusable',
      firstname: 'Staff',
      lastname: 'Racer',
      role,
      createdAt: now,
      updatedAt: now,
    })
    .returning({ id: users.id })
    .get();
  return { id: user.id, cookie: `session=${(await createSession(db, systemClock, user.id)).token}; csrf=${CSRF}` };
}

/** A SUBMITTED piece on the seed square (33, column), written straight into the shared file. */
async function submittedPieceAt(column: number, authorId: number): Promise<{ artToken: string; cellId: number }> {
  const cell = (await cellAt(db, tree.id, 33, column))!;
  const now = Date.now();
  const piece = db
    .insert(art)
    .values({
      token: newToken(),
      cellId: cell.id,
      authorId,
      status: ArtStatus.Submitted,
      title: `Race ${column}`,
      year: 2024,
      submittedAt: now,
      createdAt: now,
      updatedAt: now,
    })
    .returning()
    .get();
  db.insert(pictures)
    .values({
      token: newToken(),
      artId: piece.id,
      position: 0,
      mediaKey: `race${column}`,
      width: 10,
      height: 10,
      createdAt: now,
    })
    .run();
  db.update(cells).set({ status: CellStatus.Reserved, artId: piece.id }).where(eq(cells.id, cell.id)).run();
  return { artToken: piece.token, cellId: cell.id };
}

async function publish(server: RaceServer, cookie: string, artToken: string) {
  const res = await fetch(`${server.url}/trpc/admin.publish`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest', 'x-csrf-token': CSRF },
    body: JSON.stringify({ artToken }),
  });
  const body = (await res.json()) as { error?: { data: { app: { error: string } } } };
  return res.status === 200 ? '200' : `${res.status} ${body.error?.data.app.error}`;
}

beforeAll(async () => {
  dir = tempDir('gallery-review-race-');
  db = openDatabase(path.join(dir, 'gallery.db'));
  tree = await createTree(db, Date.now(), 'Review race');
  servers.push(...(await Promise.all([startRaceServer(dir), startRaceServer(dir)])));
}, 60_000);

afterAll(async () => {
  await stopRaceServers(servers);
  closeDatabase(db);
});

describe('two staff members publishing at once', () => {
  it('one wins, the other gets art_not_submitted, and each piece is published once', async () => {
    const [alice, bob] = [await addUser(Role.Admin), await addUser(Role.Admin)];
    const artist = await addUser(Role.Artist);
    const pieces: { artToken: string; cellId: number }[] = [];
    for (let column = 0; column < PIECES; column++) pieces.push(await submittedPieceAt(column, artist.id));

    const outcomes = await Promise.all(
      pieces.map((piece, i) =>
        Promise.all([
          publish(servers[i % 2]!, alice.cookie, piece.artToken),
          publish(servers[(i + 1) % 2]!, bob.cookie, piece.artToken),
        ]),
      ),
    );

    for (const pair of outcomes) expect([...pair].sort()).toEqual(['200', '409 art_not_submitted']);
    for (const piece of pieces) {
      expect(db.select({ status: art.status }).from(art).where(eq(art.token, piece.artToken)).get()!.status).toBe(
        ArtStatus.Published,
      );
      expect(db.select({ status: cells.status }).from(cells).where(eq(cells.id, piece.cellId)).get()!.status).toBe(
        CellStatus.Published,
      );
      const logged = db
        .select({ n: count() })
        .from(staffActions)
        .where(and(eq(staffActions.action, 'publish'), eq(staffActions.subjectToken, piece.artToken)))
        .get()!.n;
      expect(logged).toBe(1);
      expect(
        db
          .select({ n: count() })
          .from(mailOutbox)
          .where(eq(mailOutbox.dedupeKey, `art-published:${piece.artToken}`))
          .get()!.n,
      ).toBe(1);
    }
    expect(db.select({ n: count() }).from(mailOutbox).where(eq(mailOutbox.kind, 'art-published')).get()!.n).toBe(
      PIECES,
    );
  });
});
