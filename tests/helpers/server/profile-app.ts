/**
 * The shared set-up of the server profile tests: importing this registers one test app for the file
 * (beforeAll/afterAll), answered as the live binding `t`, and `state()` reads every profile row and file.
 */
import { afterAll, beforeAll } from 'vitest';
import { createTestApp, type TestApp } from './test-app.ts';
import { profileState } from './profile-fixtures.ts';

// Set by the beforeAll below; importers read the live binding.
export let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.cleanup());

export const state = () => profileState(t.deps.db, t.deps.config.mediaDir);
