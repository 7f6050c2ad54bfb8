/**
 * The shared set-up of the account tests: `useAccountsApp()` registers one test app for the file (beforeAll/afterAll), and
 * answers it as `t` with the helpers that register a fresh member.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { sessions, users } from '#drizzle/schema.ts';
import { createTestApp, type TestApp } from './test-app.ts';
import { BrowserLike } from './browser-like.ts';

// Set by useAccountsApp's beforeAll; importers read the live binding.
export let t: TestApp;
/** Registers the shared set-up (beforeAll/afterAll) in the calling test file; call it once, at the file's top. */
export function useAccountsApp(): void {
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.cleanup());
}

export const userCount = () => t.deps.db.select({ n: count() }).from(users).get()!.n;
export const sessionCount = (userId: number) =>
  t.deps.db.select({ n: count() }).from(sessions).where(eq(sessions.userId, userId)).get()!.n;
let serial = 0;
export const freshEmail = () => `Person${++serial}.Example@Mail.Test`;
export const goodPassword = 'brushes&ink7';

export async function registered(email = freshEmail(), password = goodPassword) {
  const browser = new BrowserLike(t.server);
  const res = await browser.post('/api/register', { firstname: 'Ada', lastname: 'Lovelace', email, password });
  expect(res.status).toBe(200);
  return { browser, email, password, user: res.body.r };
}
