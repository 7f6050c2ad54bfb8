/**
 * The shared set-up of the server art tests: `const app = useArtApp()` at a test file's top sets up one test app for the
 * file with a tree, a member holding a reserved square and a PNG to upload (beforeAll/afterAll, through fileFixture),
 * answered as `app.t`, `app.treeId`, `app.author`, `app.reservedToken` and `app.pngBytes`.
 */
import { Role } from '#shared/domain.ts';
import { reserveCell } from '#server/services/reservations/reservations.ts';
import { createTree } from '#server/services/tree/tree.ts';
import { fileFixture } from '../file-fixture.ts';
import { createTestApp } from './test-app.ts';
import { cellAt, png, type FormFile } from '../art-fixtures.ts';

export const SEED_ROW = 33;

export function useArtApp() {
  const app = fileFixture(
    async () => {
      const t = await createTestApp();
      const treeId = (await createTree(t.deps.db, t.clock.now(), 'Art')).id;
      const author = await t.addUser(Role.Observer);
      const reservedToken = (await cellAt(t.deps.db, treeId, SEED_ROW, 2)).token;
      await reserveCell(t.deps, author.user, reservedToken);
      return { t, treeId, author, reservedToken, pngBytes: await png() };
    },
    ({ t }) => t.cleanup(),
    60_000,
  );
  return {
    get t() {
      return app().t;
    },
    get treeId() {
      return app().treeId;
    },
    get author() {
      return app().author;
    },
    get reservedToken() {
      return app().reservedToken;
    },
    get pngBytes() {
      return app().pngBytes;
    },
    pngFile: (bytes: Buffer = app().pngBytes, name = 'main.png'): FormFile => ({ bytes, name, type: 'image/png' }),
  };
}
