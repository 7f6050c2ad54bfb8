/**
 * Search work is bounded (decision 017): however many pieces a term matches, only the newest SEARCH_CANDIDATES are
 * ranked, so one search holds the server for one bounded query. rebuildSearchIndex makes a bulk-written
 * (synthetic) tree searchable.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, desc, eq } from 'drizzle-orm';
import { art } from '#drizzle/schema.ts';
import { ArtStatus } from '#shared/domain.ts';
import { closeDatabase, openDatabase, type Db } from '#server/db.ts';
import { generateSyntheticTree } from '#server/seed/synthetic.ts';
import {
  rebuildSearchIndex,
  SEARCH_CANDIDATES,
  SEARCH_RESULT_LIMIT,
  searchCells,
} from '#server/services/search/search.ts';
import { tempDir } from '#tests/helpers/server/test-app.ts';

let db: Db;
beforeAll(async () => {
  db = openDatabase(path.join(tempDir(), 'gallery.db'));
  await generateSyntheticTree(db, { cells: 3000 });
});
afterAll(() => closeDatabase(db));

const published = () => db.select({ n: count() }).from(art).where(eq(art.status, ArtStatus.Published)).get()!.n;

describe('bounded search over a large tree', () => {
  it('finds nothing in a synthetic tree until its index is rebuilt, then every published piece', async () => {
    expect(await searchCells(db, 'synthetic')).toEqual([]);
    expect(published()).toBeGreaterThan(SEARCH_CANDIDATES);
    expect(rebuildSearchIndex(db)).toBe(published());
    expect(await searchCells(db, 'synthetic')).toHaveLength(SEARCH_RESULT_LIMIT);
  });

  it('ranks only the newest matches when a term matches more than the candidate bound', async () => {
    // Every piece's artist is "Synthetic Artist": the term matches them all, equally well.
    const newest = new Set(
      db
        .select({ token: art.token })
        .from(art)
        .where(eq(art.status, ArtStatus.Published))
        .orderBy(desc(art.id))
        .limit(SEARCH_CANDIDATES)
        .all()
        .map((a) => a.token),
    );
    const hits = await searchCells(db, 'syn');
    expect(hits).toHaveLength(SEARCH_RESULT_LIMIT);
    expect(hits.every((hit) => newest.has(hit.artToken))).toBe(true);
  });
});
