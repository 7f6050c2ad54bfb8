/** A real app on a real SQLite file in a temporary folder, for server tests (inject or listen). */
import fs from 'node:fs';
import { buildApp, type App, type BuildOptions } from '#server/app.ts';
import { manualClock } from '#server/clock.ts';
import { testConfig, type AppConfig } from '#server/config.ts';
import { createSession } from '#server/auth/sessions.ts';
import { users } from '#drizzle/tables.ts';
import { Role } from '#shared/domain.ts';
import { newToken } from '#server/tokens.ts';
import { createCaller } from '#server/root.ts';
import type { RequestContext } from '#server/trpc.ts';
import { tempDir } from '#tests/helpers/temp-dirs.ts';
import { postgresDatabase } from './postgres.ts';

/**
 * The engine the server tests' apps run on: SQLite in their temporary folder, or, with GALLERY_TEST_ENGINE=postgres
 * (the PostgreSQL lane of `npm test`), a new database of their own on the run's PostgreSQL server.
 */
export const TEST_ENGINE = process.env.GALLERY_TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite';

export { tempDir };

export interface TestApp extends App {
  dir: string;
  clock: ReturnType<typeof manualClock>;
  /** A tRPC caller as the given user (or a guest). */
  caller: (user?: RequestContext['user']) => ReturnType<typeof createCaller>;
  /** Inserts a user with the given role (password hash unusable) and returns it with a session cookie. */
  addUser: (role?: number) => Promise<{ user: NonNullable<RequestContext['user']>; cookie: string }>;
  cleanup: () => Promise<void>;
}

/** `options.logOutput` takes the log lines (a test that reads them also sets a `logLevel` other than 'silent'). */
export async function createTestApp(
  overrides: Partial<AppConfig> = {},
  options: Pick<BuildOptions, 'logOutput'> = {},
): Promise<TestApp> {
  const dir = tempDir();
  const clock = manualClock(Date.UTC(2026, 5, 1, 12));
  const database = TEST_ENGINE === 'postgres' && overrides.databaseUrl === undefined ? await postgresDatabase() : null;
  const config = testConfig(dir, database ? { databaseUrl: database.url, ...overrides } : overrides);
  const app = await buildApp(config, { ...options, clock });
  const { db } = app.deps;
  let userCount = 0;
  return {
    ...app,
    dir,
    clock,
    caller: (user = null) =>
      createCaller({ ...app.deps, user, session: null, ip: '127.0.0.1', sessionCookie: { set() {}, clear() {} } }),
    async addUser(role = Role.Observer) {
      userCount++;
      const now = clock.now();
      const [user] = await db
        .insert(users)
        .values({
          token: newToken(),
          email: `user${userCount}-${newToken(4)}@example.test`,
          passwordHash: 'unusable',
          firstname: `First${userCount}`,
          lastname: `Last${userCount}`,
          role,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      const session = await createSession(db, clock, user!.id);
      return { user: user!, cookie: `session=${session.token}` };
    },
    async cleanup() {
      await app.stop();
      await database?.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Headers a same-origin page sends with a mutating request, for a given CSRF token. */
export function csrfHeaders(token: string): Record<string, string> {
  return { 'x-requested-with': 'XMLHttpRequest', 'x-csrf-token': token, cookie: `csrf=${token}` };
}
