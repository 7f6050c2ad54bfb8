/**
 * The shared set-up of the server reservation tests: `useReservationsApp()` registers one test app and one tree for the file
 * (beforeAll/afterAll), answered as the live bindings `t` and `tree`, with helpers to make members and open squares.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { eq } from 'drizzle-orm';
import { trees } from '#drizzle/schema.ts';
import { CellStatus, Role } from '#shared/domain.ts';
import { createTree, type TreeRow } from '#server/services/tree/tree.ts';
import { createTestApp, type TestApp } from './test-app.ts';
import { browserOf, cellAt, setCellStatus, stateOf } from './reservation-fixtures.ts';

export const DAY = 24 * 60 * 60 * 1000;

// Set by useReservationsApp's beforeAll; importers read the live bindings.
export let t: TestApp;
export let tree: TreeRow;

/** Registers the shared set-up (beforeAll/afterAll) in the calling test file; call it once, at the file's top. */
export function useReservationsApp(): void {
  beforeAll(async () => {
    t = await createTestApp();
    tree = createTree(t.deps.db, t.clock.now(), 'Reservations');
  });
  afterAll(() => t.cleanup());
}

/** A new signed-in user with a browser. */
export function member(role: number = Role.Observer) {
  const { user, cookie } = t.addUser(role);
  return { user, browser: browserOf(t, cookie) };
}

/** Opens one more trunk square (rows 20 and up), as growth would, and answers its token. */
let opened = 0;
export function availableSquare(): string {
  const row = 20 + Math.floor(opened / 5);
  const column = opened % 5;
  opened++;
  setCellStatus(t.deps.db, tree.id, row, column, CellStatus.Available);
  return cellAt(t.deps.db, tree.id, row, column)!.token;
}

export const version = () => t.deps.db.select({ v: trees.version }).from(trees).where(eq(trees.id, tree.id)).get()!.v;

/** Sends a refused request and checks its status, its code, and that nothing changed. */
export async function expectRefused(send: () => Promise<{ status: number; body: any }>, status: number, code: string) {
  const before = stateOf(t.deps.db);
  const res = await send();
  expect({ status: res.status, error: res.body?.r?.error }).toEqual({ status, error: code });
  // Every refusal of the reservation rules says why in one sentence (the role check of userProcedure has no text).
  if (code !== 'unauthenticated') expect(typeof res.body.r.message).toBe('string');
  expect(stateOf(t.deps.db)).toEqual(before);
}
