/**
 * The snapshot and history builds in what both engines share (build-jobs.ts AWAITED_BUILDS: PostgreSQL's, and an
 * in-memory database's) give the same bytes as the build worker's streaming SQLite builds (BUILDS), for a tree small
 * enough to carry its tokens and thumbnails and for one past that limit, read in several batches.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDatabase, openDatabase, type Db } from '#server/db.ts';
import { generateSyntheticTree } from '#server/seed/synthetic.ts';
import { AWAITED_BUILDS, BUILDS } from '#server/services/tree/build-jobs.ts';
import { SNAPSHOT_DETAIL_LIMIT } from '#shared/tree/snapshot.ts';
import { tempDir } from '#tests/helpers/server/test-app.ts';
import { serverMediaUrlOf } from '#server/storage/index.ts';

const T = Date.UTC(2026, 10, 26, 12);

let dir: string;
let db: Db;
const treeIds: number[] = [];

beforeAll(async () => {
  dir = tempDir('awaited-builds-');
  db = openDatabase(path.join(dir, 'gallery.db'));
  for (const cells of [2_000, SNAPSHOT_DETAIL_LIMIT + 1_000])
    treeIds.push((await generateSyntheticTree(db, { cells, now: T })).treeId);
}, 120_000);

afterAll(() => {
  closeDatabase(db);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe.each([
  { tree: 0, name: 'a tree that carries its details' },
  { tree: 1, name: 'a tree past the detail limit' },
])('$name', ({ tree }) => {
  it.each(['snapshot', 'history'] as const)('builds the same %s either way', async (job) => {
    const treeId = treeIds[tree]!;
    const streamed = BUILDS[job](db, treeId, serverMediaUrlOf);
    const awaited = await AWAITED_BUILDS[job](db, treeId, serverMediaUrlOf);
    expect(awaited.version).toBe(streamed.version);
    expect(awaited.count).toBe(streamed.count);
    expect(awaited.count).toBeGreaterThan(0);
    expect(awaited.body.identity.equals(streamed.body.identity)).toBe(true);
  });
});
