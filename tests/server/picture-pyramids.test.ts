/**
 * Deep-zoom pyramids (decision 048), on the media folder and on object storage (a real S3-compatible server): an
 * upload larger than the large size is kept and queued ('building'); the job cuts every level into tiles, writes
 * them and the descriptor last, and the row says 'ready' with the descriptor's address in the answers; the tiles and
 * descriptor are served as other media, the kept upload never; a damaged upload ends 'failed' with no tile written;
 * the piece removed, the sweep takes the tiles after the day's grace; a build interrupted by a stop is resumed by the
 * next process.
 */
import fs from 'node:fs';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { art, pictures } from '#drizzle/tables.ts';
import { buildApp } from '#server/app.ts';
import { testConfig } from '#server/config.ts';
import { readPictures } from '#server/services/display/index.ts';
import { MEDIA_ORPHAN_GRACE_MS, sweepOrphanMedia } from '#server/services/media/art-media.ts';
import { buildQueuedPyramids, pyramidFileNames } from '#server/services/media/pyramids.ts';
import type { PyramidDescriptor } from '#shared/deep-zoom.ts';
import { createTree } from '#server/services/tree/tree.ts';
import { createTestApp, TEST_ENGINE, type TestApp } from '#tests/helpers/server/test-app.ts';
import { storedFiles } from '../helpers/server/media-files.ts';
import { photo, upload } from '../helpers/server/large-uploads.ts';
import { postgresDatabase } from '../helpers/server/postgres.ts';
import { mediaAdapters } from '../helpers/server/s3-media.ts';

const ADAPTERS = mediaAdapters();

const pyramidFiles = async (t: TestApp, key: string) =>
  (await storedFiles(t.deps.media)).filter((name) => name.startsWith(`${key}-dz`));

/** The sweep a day after now, by the store's own dates. */
const sweepDayLater = (t: TestApp) =>
  sweepOrphanMedia({ ...t.deps, clock: { now: () => Date.now() + MEDIA_ORPHAN_GRACE_MS + 2_000 } });

describe.each(ADAPTERS)('pyramids: $kind', (adapter) => {
  let t: TestApp;
  let treeId: number;
  beforeAll(async () => {
    t = await createTestApp(await adapter.config());
    treeId = (await createTree(t.deps.db, t.clock.now(), 'Pyramids')).id;
  }, 60_000);
  afterAll(() => t.cleanup());

  it('queues a large upload, cuts it, serves it, and sweeps it with the piece', async () => {
    const { picture, row, artToken } = await upload(t, treeId, 33, 0, await photo(5));
    // Queued: the state says so, and the upload is kept under a name no page links and /media/ refuses.
    expect(picture.deep_zoom).toEqual({ state: 'building', descriptor: null });
    expect(row.pyramid).toBe('building');
    expect(row.pyramidSource).toMatch(/^[0-9a-f]{32}-src-[0-9a-f]{16}\.orig$/);
    expect(await t.deps.media.exists(row.pyramidSource!)).toBe(true);
    expect((await t.server.inject({ url: `/media/${row.pyramidSource}` })).statusCode).toBe(404);

    expect(await buildQueuedPyramids(t.deps)).toBe(1);
    const [built] = await t.deps.db.select().from(pictures).where(eq(pictures.id, row.id));
    expect([built!.pyramid, built!.pyramidSource]).toEqual(['ready', null]);

    // The descriptor over HTTP as other media is served: cached a year, the same cross-origin policy.
    const descriptorUrl = `/media/${row.mediaKey}-dz.json`;
    const served = await t.server.inject({ url: descriptorUrl });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toMatch(/^application\/json/);
    const large = await t.server.inject({ url: `/media/${row.mediaKey}-large.webp` });
    expect(served.headers['cache-control']).toBe(large.headers['cache-control']);
    expect(served.headers['cache-control']).toMatch(/max-age=31536000/);
    expect(served.headers['cross-origin-resource-policy']).toBe(large.headers['cross-origin-resource-policy']);
    const descriptor = served.json<PyramidDescriptor>();
    // 2,400 px: levels 0 (1 px) to 12 (2,048 < 2,400 ≤ 4,096), tiles of 128 with one pixel of overlap.
    expect(descriptor).toEqual({
      format: 'webp',
      width: 2400,
      height: 1800,
      tileSize: 128,
      overlap: 1,
      levels: 13,
      tiles: `${row.mediaKey}-dz{level}-{column}-{row}.webp`,
    });
    // Every tile of every level, and nothing else: 19 × 15 at the top, 10 × 8, 5 × 4, 3 × 2, 2 × 1, then one each.
    const expected = 19 * 15 + 10 * 8 + 5 * 4 + 3 * 2 + 2 * 1 + 8 + 1;
    const files = await pyramidFiles(t, row.mediaKey);
    expect(files.length).toBe(expected);
    expect(files).toEqual(pyramidFileNames(row.mediaKey, descriptor).sort());
    const tile = (level: number, column: number, r: number) =>
      `/media/${descriptor.tiles.replace('{level}', `${level}`).replace('{column}', `${column}`).replace('{row}', `${r}`)}`;
    // A tile inside the picture repeats a pixel on each side; the last column and row are what is left.
    const inner = await t.server.inject({ url: tile(12, 1, 1) });
    expect(inner.statusCode).toBe(200);
    expect(inner.headers['content-type']).toBe('image/webp');
    expect(inner.headers['cache-control']).toBe(large.headers['cache-control']);
    const innerMeta = await sharp(inner.rawPayload).metadata();
    expect([innerMeta.width, innerMeta.height]).toEqual([130, 130]);
    const corner = await sharp((await t.server.inject({ url: tile(12, 18, 14) })).rawPayload).metadata();
    expect([corner.width, corner.height]).toEqual([2400 - 18 * 128 + 1, 1800 - 14 * 128 + 1]);
    const one = await sharp((await t.server.inject({ url: tile(0, 0, 0) })).rawPayload).metadata();
    expect([one.width, one.height]).toEqual([1, 1]);
    // The tiles show the picture: the top level's first tile against the upload's own pixels.
    const original = await sharp(await photo(5))
      .extract({ left: 0, top: 0, width: 129, height: 129 })
      .raw()
      .toBuffer();
    const cut = await sharp((await t.server.inject({ url: tile(12, 0, 0) })).rawPayload)
      .removeAlpha()
      .raw()
      .toBuffer();
    let difference = 0;
    for (let i = 0; i < original.length; i++) difference += Math.abs(original[i]! - cut[i]!);
    expect(difference / original.length).toBeLessThan(6);

    // The answers carry the descriptor's address now.
    const [read] = await readPictures(t.deps.db, row.artId, t.deps.media.urlOf);
    expect(read!.deepZoom).toEqual({ state: 'ready', descriptor: t.deps.media.urlOf(`${row.mediaKey}-dz.json`) });

    // Named by a ready row: the sweep a day later keeps every tile, and takes the kept upload, no longer named.
    const removed = await sweepDayLater(t);
    expect(removed).toContain(row.pyramidSource);
    expect(removed.filter((name) => name.includes('-dz'))).toEqual([]);
    // The piece removed: its tiles and descriptor go with its pictures.
    await t.deps.db.delete(art).where(eq(art.token, artToken));
    const swept = await sweepDayLater(t);
    expect(swept).toEqual(expect.arrayContaining(files));
    expect(await pyramidFiles(t, row.mediaKey)).toEqual([]);
  }, 120_000);
});

describe('a pyramid that cannot be cut, and one interrupted', () => {
  let t: TestApp;
  let treeId: number;
  beforeAll(async () => {
    t = await createTestApp();
    treeId = (await createTree(t.deps.db, t.clock.now(), 'Pyramids')).id;
  });
  afterAll(() => t.cleanup());

  it('a damaged upload fails with no tile written, and its kept upload is swept', async () => {
    const { row } = await upload(t, treeId, 34, 0, await photo(7));
    // The kept upload damaged after the save: its second half gone.
    const whole = (await t.deps.media.get(row.pyramidSource!))!;
    await t.deps.media.delete(row.pyramidSource!);
    await t.deps.media.put(row.pyramidSource!, whole.subarray(0, whole.length >> 1));

    await buildQueuedPyramids(t.deps);
    const [after] = await t.deps.db.select().from(pictures).where(eq(pictures.id, row.id));
    expect([after!.pyramid, after!.pyramidSource]).toEqual(['failed', null]);
    expect(await pyramidFiles(t, row.mediaKey)).toEqual([]);
    const [read] = await t.deps.db.select({ pyramid: pictures.pyramid }).from(pictures).where(eq(pictures.id, row.id));
    expect(read!.pyramid).toBe('failed');
    expect(await sweepDayLater(t)).toContain(row.pyramidSource);
  }, 60_000);

  it('a failed row keeps no tiles: what a failed build may have left is swept', async () => {
    const { row } = await upload(t, treeId, 34, 1, await photo(8));
    await buildQueuedPyramids(t.deps);
    const files = await pyramidFiles(t, row.mediaKey);
    expect(files.length).toBeGreaterThan(0);
    // As if the build had failed after writing: a 'failed' row names none of the tiles.
    await t.deps.db.update(pictures).set({ pyramid: 'failed' }).where(eq(pictures.id, row.id));
    expect(await sweepDayLater(t)).toEqual(expect.arrayContaining(files));
  }, 60_000);
});

describe('a restart', () => {
  it('resumes a build a stopping process left: the queue is the rows', async () => {
    // The database is made here, so that a second process can open it after the first has stopped.
    const database = TEST_ENGINE === 'postgres' ? await postgresDatabase() : null;
    const overrides = database ? { databaseUrl: database.url } : {};
    const first = await createTestApp(overrides);
    let row: typeof pictures.$inferSelect;
    try {
      const treeId = (await createTree(first.deps.db, first.clock.now(), 'Restart')).id;
      ({ row } = await upload(first, treeId, 33, 0, await photo(9)));
      // The process is told to stop after the build's first levels: it leaves the picture queued, and no descriptor.
      let steps = 0;
      const claim = { owner: 'first', leaseMs: 30_000, stopping: () => ++steps > 4 };
      expect(await buildQueuedPyramids(first.deps, claim)).toBe(0);
      expect(steps).toBeGreaterThan(4);
      const [left] = await first.deps.db.select().from(pictures).where(eq(pictures.id, row.id));
      expect(left!.pyramid).toBe('building');
      expect(await first.deps.media.exists(`${row.mediaKey}-dz.json`)).toBe(false);
    } finally {
      await first.stop();
    }

    // The next process over the same database and media runs its jobs: the picture is cut.
    // Its clock where the first one's was, so that the draft's reservation has not run out by the time its jobs run.
    const second = await buildApp(testConfig(first.dir, { ...overrides, runJobs: true }), { clock: first.clock });
    try {
      await second.jobs!.runAll();
      const [done] = await second.deps.db.select().from(pictures).where(eq(pictures.id, row.id));
      expect([done!.pyramid, done!.pyramidSource]).toEqual(['ready', null]);
      expect(await second.deps.media.exists(`${row.mediaKey}-dz.json`)).toBe(true);
    } finally {
      await second.stop();
      await database?.drop();
      fs.rmSync(first.dir, { recursive: true, force: true });
    }
  }, 120_000);
});
