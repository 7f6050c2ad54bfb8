/**
 * The shared set-up of the server art tests: `useArtApp()` registers one test app for the file with a tree, a member
 * holding a reserved square and a PNG to upload (beforeAll/afterAll), answered as live bindings.
 */
import { afterAll, beforeAll } from 'vitest';
import { Role } from '#shared/domain.ts';
import { reserveCell } from '#server/services/reservations/reservations.ts';
import { createTree } from '#server/services/tree/tree.ts';
import { createTestApp, type TestApp } from './test-app.ts';
import { cellAt, png, type FormFile } from '../art-fixtures.ts';

export const SEED_ROW = 33;

// Set by useArtApp's beforeAll; importers read the live bindings.
export let t: TestApp;
export let treeId: number;
export let author: ReturnType<TestApp['addUser']>;
export let reservedToken: string;
export let pngBytes: Buffer;

/** Registers the shared set-up (beforeAll/afterAll) in the calling test file; call it once, at the file's top. */
export function useArtApp(): void {
  beforeAll(async () => {
    t = await createTestApp();
    treeId = createTree(t.deps.db, t.clock.now(), 'Art').id;
    author = t.addUser(Role.Observer);
    reservedToken = cellAt(t.deps.db, treeId, SEED_ROW, 2).token;
    reserveCell(t.deps, author.user, reservedToken);
    pngBytes = await png();
  }, 60_000);
  afterAll(() => t.cleanup());
}

export const pngFile = (bytes: Buffer = pngBytes, name = 'main.png'): FormFile => ({ bytes, name, type: 'image/png' });
