/**
 * The shared set-up of the profiles' browser tests: `const site = useProfiles()` at a test file's top starts one gallery
 * and one Chromium for the file and signs an artist up with a submitted piece and a held square (beforeAll/afterAll,
 * through fileFixture), answered as `site.gallery`, `site.browser`, `site.artist`, `site.page`, `site.files`,
 * `site.squares` and `site.profilePosts`, with `site.tab`, a second page for other visitors, taken anew by each, and
 * the form's sample values and small page helpers.
 */
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { fileFixture } from '../file-fixture.ts';
import { launchBrowser, releaseBrowser, startGallery } from './harness.ts';
import { reusablePage, screenshotsTo } from './pages.ts';
import { availableSquares, pictureFiles, reserveSquare, signUp, submitPiece } from './profile-fixtures.ts';

/** With PROFILE_SHOTS=<folder> set, the test saves screenshots there. */
const shot = screenshotsTo(process.env.PROFILE_SHOTS);

export const EXHIBITIONS = Array.from(
  { length: 12 },
  (_, i) => `Group show ${i + 1}, Gallery of the Valley, ${2010 + i}`,
).join('\n');
export const FIELDS = {
  description: 'I paint rivers at dusk and the people who walk beside them.',
  exhibitions: EXHIBITIONS,
  education: 'School of Fine Arts, painting, 2008',
  personal: 'www.ada-paints.example',
  fb: 'https://facebook.example/ada',
  tw: 'https://x.example/ada',
  tt: 'https://tiktok.example/@ada',
  in: 'https://instagram.example/ada',
};

export function useProfiles() {
  const state = fileFixture(
    async () => {
      const [gallery, browser, files] = await Promise.all([startGallery(), launchBrowser('cpu'), pictureFiles()]);
      const artist = await signUp(gallery, browser, 'Ada', 'Rivers');
      const page = artist.page;
      const [submitted, held] = availableSquares(gallery);
      await submitPiece(page, submitted, 'Blue Hour');
      await reserveSquare(page, held);
      // The held square's draft brings the edit-reserved-cell popup once a session: answered "later" here.
      await page.reload();
      const prompt = page.getByTestId('edit-reserved-cell-popup');
      await prompt.waitFor();
      await prompt.getByRole('button', { name: 'No, later' }).click();
      await prompt.waitFor({ state: 'detached' });
      const made = {
        gallery,
        browser,
        files,
        artist,
        page,
        /** The submitted piece's square and the held square. */
        squares: { submitted, held },
        /** POSTs of the profile form that reached the server. */
        profilePosts: 0,
      };
      page.on('request', (request) => {
        if (request.method() === 'POST' && /\/api\/user\/[^/]+\/profile$/.test(new URL(request.url()).pathname))
          made.profilePosts += 1;
      });
      return made;
    },
    async ({ gallery, browser, files }) => {
      await releaseBrowser(browser);
      await gallery.stop();
      fs.rmSync(files.dir, { recursive: true, force: true });
    },
  );
  const page = () => state().page;
  const open = (to: string) => page().goto(`${state().gallery.url}${to}`);
  const tab = reusablePage(() => state().browser, { locale: 'en-US' });
  return {
    /** A page for other visitors than the artist, in a context of its own: each test takes it as a new one. */
    tab,
    get gallery() {
      return state().gallery;
    },
    get browser() {
      return state().browser;
    },
    get artist() {
      return state().artist;
    },
    get page() {
      return page();
    },
    get files() {
      return state().files;
    },
    /** The submitted piece's square and the held square. */
    get squares() {
      return state().squares;
    },
    /** POSTs of the profile form that reached the server. */
    get profilePosts() {
      return state().profilePosts;
    },
    open,
    field: (label: string) => page().getByLabel(label, { exact: true }),
    screenshot: (name: string, on: Page = page()) => shot(on, name),
    async openTab(tab: string): Promise<void> {
      await open(`/profile?tab=${tab}`);
      await page().getByRole('heading', { name: 'manage profile.' }).waitFor();
    },
  };
}
