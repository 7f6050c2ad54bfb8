/**
 * Reservation races for real (docs/product.md, Reservations): two server processes share one database file and many
 * users fire interleaved HTTP requests at both. Only separate processes make the race real: inside one Node process a
 * synchronous transaction never interleaves with another.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq } from 'drizzle-orm';
import { art, cells, reservations, users } from '#drizzle/schema.ts';
import { CellStatus, CellType, Role } from '#shared/domain.ts';
import { createSession } from '#server/auth/sessions.ts';
import { systemClock } from '#server/clock.ts';
import { closeDatabase, openDatabase, type Db } from '#server/db.ts';
import { createTree, type TreeRow } from '#server/services/tree/tree.ts';
import { newToken } from '#server/tokens.ts';
import { tempDir } from '#tests/helpers/server/test-app.ts';
import { cellAt, publishAt, setCellStatus } from '../helpers/server/reservation-fixtures.ts';
import { startRaceServer, stopRaceServers, type RaceServer } from '../helpers/server/race-servers.ts';

const CSRF = 'race-csrf-token-race-csrf-token-0123';

let dir: string;
let db: Db;
let tree: TreeRow;
const servers: RaceServer[] = [];

/** Users with sessions, written straight into the shared file. */
async function addUsers(n: number): Promise<{ id: number; cookie: string }[]> {
  const now = Date.now();
  const made = Array.from({ length: n }, async (_, i) => {
    const user = db
      .insert(users)
      .values({
        token: newToken(),
        email: `racer${i}-${newToken(4)}@race.test`,
        passwordHash: 'unusable',
        firstname: 'Race',
        lastname: `R${i}`,
        role: Role.Observer,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: users.id })
      .get();
    return { id: user.id, cookie: `session=${(await createSession(db, systemClock, user.id)).token}; csrf=${CSRF}` };
  });
  return Promise.all(made);
}

/** A browser's POST: session and CSRF cookies, the CSRF header pair, a JSON body. */
async function post(serverIndex: number, cookie: string, apiPath: string, body: unknown = {}) {
  const res = await fetch(servers[serverIndex % servers.length]!.url + apiPath, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest', 'x-csrf-token': CSRF },
    body: JSON.stringify(body),
  });
  return {
    status: res.status,
    headers: res.headers,
    body: (await res.json()) as { r: { error?: string; message?: string; token?: string } },
  };
}

const activeOnCell = (cellId: number) =>
  db
    .select({ n: count() })
    .from(reservations)
    .where(and(eq(reservations.cellId, cellId), eq(reservations.state, 'active')))
    .get()!.n;

beforeAll(async () => {
  dir = tempDir('gallery-race-');
  db = openDatabase(path.join(dir, 'gallery.db'));
  tree = await createTree(db, Date.now(), 'Race');
  servers.push(...(await Promise.all([startRaceServer(dir), startRaceServer(dir)])));
}, 60_000);

afterAll(async () => {
  await stopRaceServers(servers);
  closeDatabase(db);
});

describe('reservation races across two processes sharing one database file', () => {
  it('200 users reserving one square at once: exactly one wins, 199 are told it is taken, one reservation exists', async () => {
    const racers = await addUsers(200);
    const square = (await cellAt(db, tree.id, 33, 2))!;
    const answers = await Promise.all(
      racers.map((racer, i) => post(i, racer.cookie, `/api/cell/${square.token}/reserve`)),
    );

    const won = answers.filter((a) => a.status === 200);
    expect(won).toHaveLength(1);
    const lost = answers.filter((a) => a.status !== 200);
    expect(lost.map((a) => `${a.status} ${a.body.r.error}`)).toEqual(Array(199).fill('409 cell_taken'));

    expect(activeOnCell(square.id)).toBe(1);
    expect(await cellAt(db, tree.id, 33, 2)).toMatchObject({ status: CellStatus.Reserved });
    expect(db.select({ n: count() }).from(art).where(eq(art.cellId, square.id)).get()!.n).toBe(1);
    const holder = db.select().from(reservations).where(eq(reservations.cellId, square.id)).get()!;
    expect(racers.map((r) => r.id)).toContain(holder.userId);
  });

  it('50 users racing for 10 squares, each trying all 10: no square has two holders and no user holds two', async () => {
    const positions = Array.from({ length: 10 }, (_, i) => ({ row: 28 + Math.floor(i / 5), column: i % 5 }));
    for (const p of positions) await setCellStatus(db, tree.id, p.row, p.column, CellStatus.Available);
    const squares = await Promise.all(positions.map(async (p) => (await cellAt(db, tree.id, p.row, p.column))!));
    const racers = await addUsers(50);
    // Every user's 10 requests, interleaved user by user and spread over both servers.
    const attempts = squares.flatMap((square, s) => racers.map((racer, r) => ({ racer, square, server: r + s })));
    const answers = await Promise.all(
      attempts.map((a) => post(a.server, a.racer.cookie, `/api/cell/${a.square.token}/reserve`)),
    );

    const codes = new Set(answers.filter((a) => a.status !== 200).map((a) => `${a.status} ${a.body.r.error}`));
    expect([...codes].every((code) => code === '409 cell_taken' || code === '409 already_reserved')).toBe(true);

    const racerIds = new Set(racers.map((r) => r.id));
    const held = db
      .select()
      .from(reservations)
      .where(eq(reservations.state, 'active'))
      .all()
      .filter((r) => racerIds.has(r.userId));
    const wins = answers.filter((a) => a.status === 200).length;
    expect(held).toHaveLength(wins);
    expect(new Set(held.map((r) => r.userId)).size).toBe(held.length);
    expect(new Set(held.map((r) => r.cellId)).size).toBe(held.length);
    for (const square of squares) {
      expect(activeOnCell(square.id)).toBeLessThanOrEqual(1);
      const now = db.select().from(cells).where(eq(cells.id, square.id)).get()!;
      expect(now.status).toBe(activeOnCell(square.id) === 1 ? CellStatus.Reserved : CellStatus.Available);
    }
    // Every square is taken: when a square is tried, at most 9 of the 50 users can already hold another one.
    expect(wins).toBe(10);
  });

  it('a reserve arriving while another process holds the write lock waits for it, then sees the square taken', async () => {
    const [winner, late] = await addUsers(2);
    await setCellStatus(db, tree.id, 26, 0, CellStatus.Available);
    const square = (await cellAt(db, tree.id, 26, 0))!;
    const now = Date.now();
    // This process is the other writer, caught in the middle of its reserve transaction.
    db.$client.exec('BEGIN IMMEDIATE');
    db.insert(reservations)
      .values({
        token: newToken(),
        userId: winner!.id,
        cellId: square.id,
        expiresAt: now + 14 * 86_400_000,
        createdAt: now,
        updatedAt: now,
      })
      .run();
    db.update(cells).set({ status: CellStatus.Reserved }).where(eq(cells.id, square.id)).run();
    const pending = post(0, late!.cookie, `/api/cell/${square.token}/reserve`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    db.$client.exec('COMMIT');
    // A deferred transaction would have read the old snapshot and failed on the upgrade; IMMEDIATE waits and re-reads.
    const answer = await pending;
    expect(`${answer.status} ${answer.body.r.error}`).toBe('409 cell_taken');
    expect(activeOnCell(square.id)).toBe(1);
  });

  it('a reserve that waits past the busy timeout for another process is told the gallery is busy, and writes nothing', async () => {
    const [member] = await addUsers(1);
    await setCellStatus(db, tree.id, 26, 2, CellStatus.Available);
    const square = (await cellAt(db, tree.id, 26, 2))!;
    // Another process holds the write lock longer than the server's busy timeout (5 s).
    db.$client.exec('BEGIN IMMEDIATE');
    let answer;
    try {
      answer = await post(0, member!.cookie, `/api/cell/${square.token}/reserve`);
    } finally {
      db.$client.exec('ROLLBACK');
    }
    expect(`${answer.status} ${answer.body.r.error}`).toBe('503 busy');
    expect(answer.body.r.message).toMatch(/nothing was saved/);
    expect(answer.headers.get('retry-after')).toBe('1');
    // Logged for the operator (the line may reach this process a moment after the answer).
    await expect.poll(() => servers[0]!.errors()).toMatch(/database is locked/);
    expect(activeOnCell(square.id)).toBe(0);
    expect((await cellAt(db, tree.id, 26, 2))!.status).toBe(CellStatus.Available);
    // Once the lock is free, the same request goes through.
    const again = await post(0, member!.cookie, `/api/cell/${square.token}/reserve`);
    expect(again.status).toBe(200);
    expect(activeOnCell(square.id)).toBe(1);
  }, 20_000);

  it('the unique index is the last word: a reservation slipped in without the status change still blocks a second', async () => {
    const [first, second] = await addUsers(2);
    await setCellStatus(db, tree.id, 26, 1, CellStatus.Available);
    const square = (await cellAt(db, tree.id, 26, 1))!;
    const now = Date.now();
    db.insert(reservations)
      .values({
        token: newToken(),
        userId: first!.id,
        cellId: square.id,
        expiresAt: now + 14 * 86_400_000,
        createdAt: now,
        updatedAt: now,
      })
      .run();
    const artBefore = db.select({ n: count() }).from(art).get()!.n;
    const answer = await post(1, second!.cookie, `/api/cell/${square.token}/reserve`);
    expect(`${answer.status} ${answer.body.r.error}`).toBe('409 cell_taken');
    expect(activeOnCell(square.id)).toBe(1);
    // The refused transaction left nothing behind: no draft, the square unchanged.
    expect(db.select({ n: count() }).from(art).get()!.n).toBe(artBefore);
    expect(await cellAt(db, tree.id, 26, 1)).toMatchObject({ status: CellStatus.Available, artId: null });
  });

  it('the same branch position requested by many users at once: one square is created, not two', async () => {
    await publishAt(db, tree.id, 15, 4);
    const racers = await addUsers(20);
    const answers = await Promise.all(
      racers.map((racer, i) => post(i, racer.cookie, '/api/branch/reserve', { row: 15, column: 5 })),
    );

    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(new Set(answers.filter((a) => a.status !== 200).map((a) => `${a.status} ${a.body.r.error}`))).toEqual(
      new Set(['409 slot_occupied']),
    );
    const created = db
      .select()
      .from(cells)
      .where(and(eq(cells.treeId, tree.id), eq(cells.row, 15), eq(cells.column, 5)))
      .all();
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ type: CellType.Branch, status: CellStatus.Reserved });
    expect(activeOnCell(created[0]!.id)).toBe(1);
  });
});
