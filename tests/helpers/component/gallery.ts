/**
 * The component tests' gallery: `const gallery = useComponentGallery()` at a test file's top sets up one test app with
 * one tree for the file (through fileFixture), with available squares to open, members to sign up, and each page's
 * answers asked of the real server as a given viewer.
 */
import { CellStatus, Role } from '#shared/domain.ts';
import { createTree } from '#server/services/tree/tree.ts';
import { trpc } from '#client/api/trpc.ts';
import { fileFixture } from '../file-fixture.ts';
import { cellAt, setCellStatus } from '../server/reservation-fixtures.ts';
import { createTestApp } from '../server/test-app.ts';
import { answered, apiClient, type Answer } from './render.ts';

export interface Square {
  token: string;
  row: number;
  column: number;
  status: number;
}

export function useComponentGallery() {
  const state = fileFixture(
    async () => {
      const t = await createTestApp();
      return { t, tree: await createTree(t.deps.db, t.clock.now(), 'Components') };
    },
    ({ t }) => t.cleanup(),
  );
  /** Trunk squares opened so far (rows 20 and up, five a row). */
  let opened = 0;
  return {
    get t() {
      return state().t;
    },
    /** Opens one more trunk square (rows 20 and up), as growth would. */
    async availableSquare(): Promise<Square> {
      const { t, tree } = state();
      const row = 20 + Math.floor(opened / 5);
      const column = opened++ % 5;
      await setCellStatus(t.deps.db, tree.id, row, column, CellStatus.Available);
      return {
        token: (await cellAt(t.deps.db, tree.id, row, column))!.token,
        row,
        column,
        status: CellStatus.Available,
      };
    },
    /** A new member: their session cookie, and the app's tRPC client as them. */
    async member() {
      const { user, cookie } = await state().t.addUser(Role.Observer);
      return { user, cookie, api: apiClient(state().t, cookie) };
    },
    /** What every page of the app knows first: who the viewer is, and the square they hold (asked as they). */
    async viewerAnswers(cookie = '') {
      const api = apiClient(state().t, cookie);
      const user = await api.auth.current.query();
      const queries: Answer[] = [answered(trpc.auth.current, undefined, user)];
      if (user) {
        const input = { token: user.token };
        queries.push(answered(trpc.user.reservedCell, input, await api.user.reservedCell.query(input)));
      }
      return queries;
    },
  };
}
