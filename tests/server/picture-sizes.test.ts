/**
 * A picture's narrower widths (decision 047): an upload stores WebP at the widths narrower than its large size and
 * AVIF beside them where it is smaller, never an enlargement; the save's answer lists them; the pictures row names
 * them, so the sweep keeps them while the piece is there and removes them with it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { eq } from 'drizzle-orm';
import { art, pictures } from '#drizzle/tables.ts';
import { Role } from '#shared/domain.ts';
import type { PictureVariantUrl } from '#shared/art-api.ts';
import { MEDIA_ORPHAN_GRACE_MS, sweepOrphanMedia } from '#server/services/media/art-media.ts';
import { reserveCell } from '#server/services/reservations/reservations.ts';
import { createTree } from '#server/services/tree/tree.ts';
import { readPictures } from '#server/services/display/index.ts';
import { renderArtwork } from '#server/seed/art-generator.ts';
import { createTestApp, type TestApp } from '#tests/helpers/server/test-app.ts';
import { artForm, browserFor, cellAt, postForm, validFields } from '../helpers/art-fixtures.ts';

let t: TestApp;
let treeId: number;

beforeAll(async () => {
  t = await createTestApp();
  treeId = (await createTree(t.deps.db, t.clock.now(), 'Sizes')).id;
});
afterAll(() => t.cleanup());

/** Saves a draft with one picture on the square at (row, column) as a new member; answers the saved picture. */
async function upload(row: number, column: number, bytes: Buffer) {
  const holder = await t.addUser(Role.Observer);
  const cellToken = (await cellAt(t.deps.db, treeId, row, column)).token;
  await reserveCell(t.deps, holder.user, cellToken);
  const answer = await postForm(
    t,
    await browserFor(t, holder.cookie),
    `/api/cell/${cellToken}`,
    artForm(validFields(), [{ bytes, name: 'a.png', type: 'image/png' }]),
  );
  expect(answer.status).toBe(200);
  const art = answer.body.r.art as { token: string; pictures: { image: string; variants: PictureVariantUrl[] }[] };
  return { artToken: art.token, picture: art.pictures[0]! };
}

const nameOf = (url: string) => url.slice('/media/'.length);

describe('an upload stores its narrower widths', () => {
  it('as WebP below the large size, AVIF where smaller, listed in the answer, kept while named, swept with the piece', async () => {
    // A 1,300 × 650 picture with the grain of paper, as a photographed piece has (kept small: AVIF takes time).
    const wide = await sharp(await renderArtwork(5, 650))
      .resize(1300, 650, { fit: 'fill' })
      .png()
      .toBuffer();
    const { artToken, picture } = await upload(33, 0, wide);
    const { variants } = picture;
    expect(variants.filter((v) => v.type === 'image/webp').map((v) => v.width)).toEqual([480, 800, 1200, 1300]);
    expect(variants.find((v) => v.width === 1300 && v.type === 'image/webp')!.url).toBe(picture.image);
    // This art is far smaller as AVIF at every width (sharp's AVIF is kept only where it is).
    expect(variants.filter((v) => v.type === 'image/avif').map((v) => v.width)).toEqual([480, 800, 1200, 1300]);
    for (const variant of variants) {
      const bytes = (await t.deps.media.get(nameOf(variant.url)))!;
      const meta = await sharp(bytes).metadata();
      expect([meta.width, meta.height, meta.format]).toEqual([
        variant.width,
        variant.width / 2,
        variant.type === 'image/avif' ? 'heif' : 'webp',
      ]);
      if (variant.type === 'image/avif') {
        const webp = variants.find((v) => v.width === variant.width && v.type === 'image/webp')!;
        expect(bytes.length).toBeLessThan((await t.deps.media.get(nameOf(webp.url)))!.length);
      }
    }

    // Named by the piece's row: the sweep a day later keeps every one.
    const names = variants.map((v) => nameOf(v.url));
    const dayLater = { ...t.deps, clock: { now: () => Date.now() + MEDIA_ORPHAN_GRACE_MS } };
    expect(await sweepOrphanMedia(dayLater)).toEqual([]);
    // The piece removed, its every width goes with its large size and thumbnail.
    await t.deps.db.delete(art).where(eq(art.token, artToken));
    const removed = await sweepOrphanMedia(dayLater);
    expect(removed).toEqual(expect.arrayContaining(names));
    for (const name of names) expect(await t.deps.media.exists(name)).toBe(false);
  });

  it('never enlarges: a 600 px picture has only the 480 px width beside its large size', async () => {
    const small = await sharp(await renderArtwork(9, 600))
      .png()
      .toBuffer();
    const { picture } = await upload(34, 0, small);
    expect(new Set(picture.variants.map((v) => v.width))).toEqual(new Set([480, 600]));
    const row = (
      await t.deps.db
        .select()
        .from(pictures)
        .where(eq(pictures.mediaKey, nameOf(picture.image).slice(0, 32)))
    )[0]!;
    expect(row.width).toBe(600);
    expect(row.sizes.split(' ')).toContain('480.webp');
  });

  it('a picture stored before the widths is shown by its large size alone', async () => {
    const small = await sharp(await renderArtwork(11, 300))
      .png()
      .toBuffer();
    const { artToken } = await upload(33, 1, small);
    const [piece] = await t.deps.db.select({ id: art.id }).from(art).where(eq(art.token, artToken));
    await t.deps.db.update(pictures).set({ sizes: '' }).where(eq(pictures.artId, piece!.id));
    const [row] = await t.deps.db.select().from(pictures).where(eq(pictures.artId, piece!.id));
    const [read] = await readPictures(t.deps.db, piece!.id, t.deps.media.urlOf);
    expect(read!.variants).toEqual([{ width: 300, type: 'image/webp', url: `/media/${row!.mediaKey}-large.webp` }]);
  });
});
