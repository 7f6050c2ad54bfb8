/**
 * The shared set-up of the server profile tests: `useProfileApp()` registers one test app for the file
 * (beforeAll/afterAll), answered as the live binding `t`, and `state()` reads every profile row and file.
 */
import { afterAll, beforeAll } from 'vitest';
import { createTestApp, type TestApp } from './test-app.ts';
import { profileState } from './profile-fixtures.ts';

// Set by useProfileApp's beforeAll; importers read the live binding.
export let t: TestApp;
/** Registers the shared set-up (beforeAll/afterAll) in the calling test file; call it once, at the file's top. */
export function useProfileApp(): void {
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.cleanup());
}

export const state = () => profileState(t.deps.db, t.deps.config.mediaDir);
