/**
 * The last word on the hold rules is a unique index (one active reservation a member, one a square, one square a
 * position), and a write it refuses must read as the rule's own code on both engines: SQLite's error names the
 * index's columns, PostgreSQL's names the index. The checks before the write normally refuse first, so these writes
 * go around them, as two writers slipping past the checks at once would.
 */
import { and, count, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { art, cells, reservations, treeChanges, trees, useTablesOf } from '#drizzle/tables.ts';
import { write } from '#server/db.ts';
import { toAppError } from '#server/errors.ts';
import { reserveCell } from '#server/services/reservations/index.ts';
import { reserveSquare, squareToReserve, withHoldRefusals } from '#server/services/squares/holding.ts';
import { createTree, type TreeRow } from '#server/services/tree/index.ts';
import { newToken } from '#server/tokens.ts';
import { ArtStatus, CellStatus, Role } from '#shared/domain.ts';
import { ENGINES } from '#tests/helpers/server/engines.ts';
import { postgresDatabase, type TestDatabase } from '#tests/helpers/server/postgres.ts';
import { SEED_ROW } from '#tests/helpers/server/reservation-fixtures.ts';
import { createTestApp, type TestApp } from '#tests/helpers/server/test-app.ts';

describe.each(ENGINES)('a unique index refusing a hold on %s', (engine) => {
  let t: TestApp;
  let database: TestDatabase | null = null;
  let tree: TreeRow;
  let held: { cellId: number; userId: number };
  let free: { id: number; row: number; column: number };
  /** Available squares the reservation's own write takes. */
  let spare: { token: string }[];

  beforeAll(async () => {
    if (engine === 'postgres') database = await postgresDatabase();
    t = await createTestApp(database ? { databaseUrl: database.url } : {});
    tree = await createTree(t.deps.db, t.clock.now(), 'Unique');
    const seeds = await t.deps.db
      .select({ id: cells.id, token: cells.token, row: cells.row, column: cells.column })
      .from(cells)
      .where(and(eq(cells.treeId, tree.id), eq(cells.row, SEED_ROW), eq(cells.status, CellStatus.Available)))
      .orderBy(cells.column);
    const { user } = await t.addUser(Role.Artist);
    await reserveCell(t.deps, user, seeds[0]!.token);
    held = { cellId: seeds[0]!.id, userId: user.id };
    free = seeds[1]!;
    spare = seeds.slice(2, 5);
  });

  afterAll(async () => {
    await t?.cleanup();
    useTablesOf('sqlite');
    await database?.drop();
  });

  const activeReservations = async () =>
    (await t.deps.db.select({ n: count() }).from(reservations).where(eq(reservations.state, 'active')))[0]!.n;

  /** A reservation row written straight, past the checks. */
  const reservationRow = (userId: number, cellId: number) => ({
    token: newToken(),
    userId,
    cellId,
    state: 'active' as const,
    expiresAt: t.clock.now() + 60_000,
    createdAt: t.clock.now(),
    updatedAt: t.clock.now(),
  });

  async function codeOf(work: () => Promise<unknown>): Promise<string> {
    try {
      await withHoldRefusals(work);
      return 'written';
    } catch (error) {
      return toAppError(error).code;
    }
  }

  it('reads a second active reservation of one member as already_reserved, and writes nothing', async () => {
    const before = await activeReservations();
    const code = await codeOf(() =>
      write(t.deps.db, async (tx) => {
        await tx.insert(reservations).values(reservationRow(held.userId, free.id));
      }),
    );
    expect(code).toBe('already_reserved');
    expect(await activeReservations()).toBe(before);
  });

  it('reads a second active reservation of one square as cell_taken', async () => {
    const { user } = await t.addUser(Role.Artist);
    const code = await codeOf(() =>
      write(t.deps.db, async (tx) => {
        await tx.insert(reservations).values(reservationRow(user.id, held.cellId));
      }),
    );
    expect(code).toBe('cell_taken');
  });

  it('reads a second square at one position as slot_occupied', async () => {
    const code = await codeOf(() =>
      write(t.deps.db, async (tx) => {
        await tx.insert(cells).values({
          token: newToken(),
          treeId: tree.id,
          row: free.row,
          column: free.column,
          type: 0,
          status: CellStatus.Available,
          createdAt: t.clock.now(),
          updatedAt: t.clock.now(),
        });
      }),
    );
    expect(code).toBe('slot_occupied');
  });

  /** What a hold writes: holds, drafts, logged changes, and the tree's version. */
  const written = async () => ({
    reservations: (await t.deps.db.select({ n: count() }).from(reservations))[0]!.n,
    drafts: (await t.deps.db.select({ n: count() }).from(art))[0]!.n,
    changes: (await t.deps.db.select({ n: count() }).from(treeChanges))[0]!.n,
    version: (await t.deps.db.select({ version: trees.version }).from(trees).where(eq(trees.id, tree.id)))[0]!.version,
  });

  it('reserves in one write: the square names its new draft, and one change moves the tree to its number', async () => {
    const { user } = await t.addUser(Role.Artist);
    const square = await squareToReserve(t.deps.db, user, spare[0]!.token);
    const before = await written();
    const reserved = await write(t.deps.db, (tx) => reserveSquare(tx, t.clock.now(), user, square));
    const [cell] = await t.deps.db.select().from(cells).where(eq(cells.id, square.id));
    const [draft] = await t.deps.db.select().from(art).where(eq(art.token, reserved.artToken));
    expect(cell).toMatchObject({ status: CellStatus.Reserved, artId: draft!.id, updatedAt: t.clock.now() });
    expect(draft).toMatchObject({ cellId: square.id, authorId: user.id, status: ArtStatus.Draft });
    const [hold] = await t.deps.db.select().from(reservations).where(eq(reservations.token, reserved.reminderToken));
    expect(hold).toMatchObject({ userId: user.id, cellId: square.id, state: 'active', expiresAt: reserved.expiresAt });
    const [change] = await t.deps.db.select().from(treeChanges).orderBy(desc(treeChanges.seq)).limit(1);
    expect(change).toMatchObject({ treeId: tree.id, cellId: square.id });
    const after = await written();
    expect(after).toEqual({
      reservations: before.reservations + 1,
      drafts: before.drafts + 1,
      changes: before.changes + 1,
      version: change!.seq,
    });
  });

  it('refuses a square taken between its read and the write as cell_taken, and writes nothing of it', async () => {
    const [late, early] = [(await t.addUser(Role.Artist)).user, (await t.addUser(Role.Artist)).user];
    const square = await squareToReserve(t.deps.db, late, spare[1]!.token);
    await reserveCell(t.deps, early, spare[1]!.token);
    const before = await written();
    const code = await codeOf(() => write(t.deps.db, (tx) => reserveSquare(tx, t.clock.now(), late, square)));
    expect(code).toBe('cell_taken');
    expect(await written()).toEqual(before);
  });

  it('refuses a member who holds a square already, past the checks, as already_reserved, and writes nothing', async () => {
    const square = await squareToReserve(t.deps.db, { id: -1 }, spare[2]!.token);
    const before = await written();
    const code = await codeOf(() =>
      write(t.deps.db, (tx) => reserveSquare(tx, t.clock.now(), { id: held.userId }, square)),
    );
    expect(code).toBe('already_reserved');
    expect(await written()).toEqual(before);
    const [cell] = await t.deps.db.select().from(cells).where(eq(cells.id, square.id));
    expect(cell).toMatchObject({ status: CellStatus.Available, artId: null });
  });

  it('lets any other error through as it is', async () => {
    const failure = new Error('something else');
    await expect(withHoldRefusals(() => Promise.reject(failure))).rejects.toBe(failure);
  });
});
