/**
 * The shared set-up of the art editor's browser tests: `const editor = useArtEditor()` at a test file's top writes the
 * image files and starts one gallery and one Chromium for the file (beforeAll/afterAll, through fileFixture),
 * answered as `editor.gallery`, `editor.browser` and `editor.files`, with small readers of the database, and
 * `editor.tab`, one page the file's members take in turn (member(gallery, editor.tab, name)).
 */
import fs from 'node:fs';
import { count, eq } from 'drizzle-orm';
import { artViews } from '#drizzle/schema.ts';
import { fileFixture } from '../file-fixture.ts';
import { EDITOR_PAGE, writeImageFiles } from './art-editor-fixtures.ts';
import { launchBrowser, releaseBrowser, startGallery } from './harness.ts';
import { reusablePage } from './pages.ts';

export function useArtEditor() {
  const state = fileFixture(
    async () => {
      const [files, gallery, browser] = await Promise.all([writeImageFiles(), startGallery(), launchBrowser('cpu')]);
      return { files, gallery, browser };
    },
    async ({ files, gallery, browser }) => {
      await releaseBrowser(browser);
      await gallery.stop();
      fs.rmSync(files.dir, { recursive: true, force: true });
    },
  );
  const dbOf = () => state().gallery.app.deps.db;
  const tab = reusablePage(() => state().browser, EDITOR_PAGE);
  return {
    /** One page for members who do not need to stay signed in beyond their test. */
    tab,
    get gallery() {
      return state().gallery;
    },
    get browser() {
      return state().browser;
    },
    get files() {
      return state().files;
    },
    file: (name: string) => state().files.file(name),
    dbOf,
    viewsOf: (artId: number) => dbOf().select({ n: count() }).from(artViews).where(eq(artViews.artId, artId)).get()!.n,
  };
}
