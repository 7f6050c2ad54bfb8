/**
 * A burst of large uploads: the image pipeline decodes at most IMAGE_WORK_AT_ONCE pictures at a time, keeps a short
 * line, and tells the rest busy (503, Retry-After) without writing anything; saves are limited per account.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { eq } from 'drizzle-orm';
import { art, pictures } from '#drizzle/tables.ts';
import { Role } from '#shared/domain.ts';
import { IMAGE_WORK_AT_ONCE, imageWork } from '#server/services/media/images.ts';
import { LIMITS } from '#server/services/rate-limit.ts';
import { createTree } from '#server/services/tree/tree.ts';
import { createTestApp, type TestApp } from '#tests/helpers/server/test-app.ts';
import { artForm, browserFor, cellAt, postForm, validFields } from '../helpers/art-fixtures.ts';
import { oneRow } from '#tests/helpers/server/rows.ts';

let t: TestApp;
let treeId: number;

beforeAll(async () => {
  t = await createTestApp();
  treeId = (await createTree(t.deps.db, t.clock.now(), 'Uploads')).id;
});
afterAll(() => t.cleanup());

/** A 12-megapixel picture: small as a file, large once decoded. */
const large = (shade: number) =>
  sharp({ create: { width: 4000, height: 3000, channels: 3, background: { r: shade, g: 90, b: 160 } } })
    .png({ compressionLevel: 1 })
    .toBuffer();

describe('a burst of large uploads', () => {
  it(`decodes at most ${IMAGE_WORK_AT_ONCE} at once; past the line the save is refused (busy, Retry-After), writing nothing`, async () => {
    const artist = await t.addUser(Role.Artist);
    const browser = await browserFor(t, artist.cookie);
    const square = (await cellAt(t.deps.db, treeId, 33, 1)).token;
    // The square is the artist's first (a small save), then 20 large saves of it arrive at once.
    expect(
      (
        await postForm(
          t,
          browser,
          `/api/cell/${square}`,
          artForm(validFields(), [{ bytes: await large(255), name: 'first.png', type: 'image/png' }]),
        )
      ).status,
    ).toBe(200);
    const images = await Promise.all(Array.from({ length: 20 }, (_, i) => large(i * 10)));
    const before = imageWork.started;
    const answers = await Promise.all(
      images.map((bytes, i) =>
        postForm(
          t,
          browser,
          `/api/cell/${square}`,
          artForm(validFields({ title: `Burst ${i}` }), [{ bytes, name: `b${i}.png`, type: 'image/png' }]),
        ),
      ),
    );
    expect(imageWork.mostAtOnce).toBeLessThanOrEqual(IMAGE_WORK_AT_ONCE);
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([]);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(0);
    for (const refused of answers.filter((a) => a.status === 503)) expect(refused.body.r.error).toBe('busy');
    // Every accepted save decoded its picture; a refused one decoded nothing.
    expect(imageWork.started - before).toBe(statuses.filter((s) => s === 200).length);
    const piece = await oneRow(t.deps.db.select().from(art).where(eq(art.authorId, artist.user.id)));
    expect(await t.deps.db.select().from(pictures).where(eq(pictures.artId, piece.id))).toHaveLength(1);
  }, 120_000);

  it('answers busy with Retry-After once the line is full', async () => {
    // Fill the queue with work that waits on a signal, then ask once more.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const held = Array.from({ length: 64 }, () => imageWork.run(() => gate).catch((error: unknown) => error));
    const artist = await t.addUser(Role.Artist);
    const browser = await browserFor(t, artist.cookie);
    const answer = await postForm(
      t,
      browser,
      `/api/cell/${(await cellAt(t.deps.db, treeId, 33, 3)).token}`,
      artForm(validFields(), [{ bytes: await large(1), name: 'x.png', type: 'image/png' }]),
    );
    release();
    await Promise.all(held);
    expect(answer.status).toBe(503);
    expect(answer.body.r.error).toBe('busy');
    expect(await t.deps.db.select().from(art).where(eq(art.authorId, artist.user.id))).toEqual([]);
  });

  it(`limits saves to ${LIMITS.artSavesPerUser.max} an hour per account`, async () => {
    const artist = await t.addUser(Role.Artist);
    const browser = await browserFor(t, artist.cookie);
    const square = (await cellAt(t.deps.db, treeId, 34, 1)).token;
    const first = await postForm(
      t,
      browser,
      `/api/cell/${square}`,
      artForm(validFields(), [{ bytes: await large(2), name: 'x.png', type: 'image/png' }]),
    );
    expect(first.status).toBe(200);
    const kept = [first.body.r.art.pictures[0].token as string];
    for (let i = 1; i < LIMITS.artSavesPerUser.max; i++) {
      expect(
        (await postForm(t, browser, `/api/cell/${square}`, artForm(validFields({ title: `Save ${i}` }), [], kept)))
          .status,
      ).toBe(200);
    }
    const refused = await postForm(
      t,
      browser,
      `/api/cell/${square}`,
      artForm(validFields({ title: 'One too many' }), [], kept),
    );
    expect(refused.status).toBe(429);
    expect((await oneRow(t.deps.db.select().from(art).where(eq(art.authorId, artist.user.id)))).title).toBe(
      `Save ${LIMITS.artSavesPerUser.max - 1}`,
    );
  }, 120_000);
});
