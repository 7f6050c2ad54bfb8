/**
 * The shared set-up of the server profile tests: `const app = useProfileApp()` at a test file's top sets up one test
 * app for the file (beforeAll/afterAll, through fileFixture), answered as `app.t`, and `app.state()` reads every
 * profile row and file.
 */
import { fileFixture } from '../file-fixture.ts';
import { createTestApp } from './test-app.ts';
import { profileState } from './profile-fixtures.ts';

export function useProfileApp() {
  const app = fileFixture(
    () => createTestApp(),
    (t) => t.cleanup(),
  );
  return {
    get t() {
      return app();
    },
    state: () => profileState(app().deps.db, app().deps.media),
  };
}
