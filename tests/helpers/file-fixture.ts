/**
 * A value set up once for the test file that asks for it. `fileFixture(setUp, tearDown)` registers beforeAll and
 * afterAll where it is called (a test file's top level, directly or through a `useX()` helper called there) and
 * answers a reader of the value, which throws when read outside the file's tests (at collection, or after the file).
 * Nothing is registered by importing a helper, and every file gets a value of its own, even when the Node projects
 * share one module graph per worker (`isolate: false`).
 */
import { afterAll, beforeAll } from 'vitest';

export function fileFixture<T>(
  setUp: () => Promise<T> | T,
  tearDown: (value: T) => unknown,
  timeout?: number,
): () => T {
  let ready = false;
  let value: T | undefined;
  beforeAll(async () => {
    value = await setUp();
    ready = true;
  }, timeout);
  afterAll(async () => {
    if (!ready) return;
    ready = false;
    const made = value as T;
    value = undefined;
    await tearDown(made);
  });
  return () => {
    if (!ready)
      throw new Error('A file fixture was read outside its file’s tests (before its beforeAll or after its afterAll).');
    return value as T;
  };
}
