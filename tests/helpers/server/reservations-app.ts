/**
 * The shared set-up of the server reservation tests: `const app = useReservationsApp()` at a test file's top sets up one
 * test app and one tree for the file (beforeAll/afterAll, through fileFixture), answered as `app.t` and `app.tree`,
 * with helpers to make members and open squares.
 */
import { expect } from 'vitest';
import { eq } from 'drizzle-orm';
import { trees } from '#drizzle/tables.ts';
import { CellStatus, Role } from '#shared/domain.ts';
import { createTree } from '#server/services/tree/tree.ts';
import { fileFixture } from '../file-fixture.ts';
import { createTestApp } from './test-app.ts';
import { browserOf, cellAt, setCellStatus, stateOf } from './reservation-fixtures.ts';
import { oneRow } from '#tests/helpers/server/rows.ts';

export const DAY = 24 * 60 * 60 * 1000;

export function useReservationsApp() {
  const app = fileFixture(
    async () => {
      const t = await createTestApp();
      return { t, tree: await createTree(t.deps.db, t.clock.now(), 'Reservations') };
    },
    ({ t }) => t.cleanup(),
  );
  /** Trunk squares opened so far (rows 20 and up, five a row). */
  let opened = 0;
  return {
    get t() {
      return app().t;
    },
    get tree() {
      return app().tree;
    },
    /** A new signed-in user with a browser. */
    async member(role: number = Role.Observer) {
      const { t } = app();
      const { user, cookie } = await t.addUser(role);
      return { user, browser: browserOf(t, cookie) };
    },
    /** Opens one more trunk square (rows 20 and up), as growth would, and answers its token. */
    async availableSquare(): Promise<string> {
      const { t, tree } = app();
      const row = 20 + Math.floor(opened / 5);
      const column = opened % 5;
      opened++;
      await setCellStatus(t.deps.db, tree.id, row, column, CellStatus.Available);
      return (await cellAt(t.deps.db, tree.id, row, column))!.token;
    },
    version: async () => {
      const { t, tree } = app();
      return (await oneRow(t.deps.db.select({ v: trees.version }).from(trees).where(eq(trees.id, tree.id)))).v;
    },
    /** Sends a refused request and checks its status, its code, and that nothing changed. */
    async expectRefused(send: () => Promise<{ status: number; body: any }>, status: number, code: string) {
      const { db } = app().t.deps;
      const before = await stateOf(db);
      const res = await send();
      expect({ status: res.status, error: res.body?.r?.error }).toEqual({ status, error: code });
      // Every refusal of the reservation rules says why in one sentence (the role check of userProcedure has no text).
      if (code !== 'unauthenticated') expect(typeof res.body.r.message).toBe('string');
      expect(await stateOf(db)).toEqual(before);
    },
  };
}
