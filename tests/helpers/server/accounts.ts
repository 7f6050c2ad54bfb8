/**
 * The shared set-up of the account tests: `const app = useAccountsApp()` at a test file's top sets up one test app for
 * the file (beforeAll/afterAll, through fileFixture) and answers it as `app.t`, with the helpers that count users and
 * sessions and register a fresh member on it.
 */
import { expect } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { sessions, users } from '#drizzle/tables.ts';
import { fileFixture } from '../file-fixture.ts';
import { createTestApp } from './test-app.ts';
import { BrowserLike } from './browser-like.ts';
import { oneRow } from '#tests/helpers/server/rows.ts';

let serial = 0;
export const freshEmail = () => `Person${++serial}.Example@Mail.Test`;
export const goodPassword = 'brushes&ink7';

export function useAccountsApp() {
  const app = fileFixture(
    () => createTestApp(),
    (t) => t.cleanup(),
  );
  return {
    get t() {
      return app();
    },
    userCount: async () => (await oneRow(app().deps.db.select({ n: count() }).from(users))).n,
    sessionCount: async (userId: number) =>
      (await oneRow(app().deps.db.select({ n: count() }).from(sessions).where(eq(sessions.userId, userId)))).n,
    async registered(email = freshEmail(), password = goodPassword) {
      const browser = new BrowserLike(app().server);
      const res = await browser.post('/api/register', { firstname: 'Ada', lastname: 'Lovelace', email, password });
      expect(res.status).toBe(200);
      return { browser, email, password, user: res.body.r };
    },
  };
}
