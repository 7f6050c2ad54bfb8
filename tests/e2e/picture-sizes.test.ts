/**
 * Pictures at the size they are shown (decision 047): a details page on a 390 × 844 phone at three device pixels per
 * CSS pixel fetches one of the picture's narrower widths, not its 1,600 px copy. One page load; the picture bytes it
 * transfers are held to 45 % of the large copy's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import sharp from 'sharp';
import type { Browser, BrowserContext } from 'playwright-core';
import { art, cells, pictures } from '#drizzle/schema.ts';
import { ArtStatus, CellStatus } from '#shared/domain.ts';
import { renderArtwork } from '#server/seed/art-generator.ts';
import { mediaNameOf } from '#server/services/display/index.ts';
import { storePicture } from '#server/services/media/images.ts';
import { launchBrowser, releaseBrowser, startGallery, watchErrors, type Gallery } from '../helpers/browser/harness.ts';

let gallery: Gallery;
let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  [gallery, browser] = await Promise.all([startGallery(), launchBrowser('cpu')]);
  context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 3,
    hasTouch: true,
    isMobile: true,
  });
});

afterAll(async () => {
  await releaseBrowser(browser);
  await gallery?.stop();
});

describe('a details page on a phone', () => {
  it('fetches at most 45 % of the 1,600 px copy’s bytes for its picture', async () => {
    const { db, media } = gallery.app.deps;
    // The demo's pictures are 800 px: the first published piece is given a photographed piece's 2,000 × 1,500 picture,
    // stored as an upload stores it.
    const photo = await sharp(await renderArtwork(3, 1500))
      .resize(2000, 1500, { fit: 'fill' })
      .png({ compressionLevel: 1 })
      .toBuffer();
    const stored = await storePicture(media, photo);
    const piece = db
      .select({ artId: art.id, cellToken: cells.token })
      .from(cells)
      .innerJoin(art, eq(art.id, cells.artId))
      .where(and(eq(cells.status, CellStatus.Published), eq(art.status, ArtStatus.Published)))
      .orderBy(asc(cells.row), asc(cells.column))
      .limit(1)
      .get()!;
    db.update(pictures)
      .set({ mediaKey: stored.key, width: stored.width, height: stored.height, sizes: stored.sizes })
      .where(and(eq(pictures.artId, piece.artId), eq(pictures.position, 0)))
      .run();
    const largeBytes = (await media.lookUp(mediaNameOf(stored.key, 'large')))!.size;

    const page = await context.newPage();
    const errors = watchErrors(page);
    const fetched: { name: string; bytes: number }[] = [];
    page.on('response', (response) => {
      const name = new URL(response.url()).pathname.replace(/^\/media\//, '');
      if (name.startsWith(stored.key) && !name.endsWith('-thumb.webp'))
        void response.body().then((body) => fetched.push({ name, bytes: body.length }));
    });
    await page.goto(`${gallery.url}/observe/cell/${piece.cellToken}/details`);
    const image = page.getByTestId('art-main-image');
    await image.waitFor();
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeTruthy();
    await expect.poll(() => fetched.length).toBeGreaterThan(0);

    const bytes = fetched.reduce((sum, file) => sum + file.bytes, 0);
    console.log(
      `picture bytes on a 390 px phone (DPR 3): ${bytes} (${fetched.map((f) => f.name.slice(33)).join(', ')}) ` +
        `against the 1,600 px copy's ${largeBytes}: ${((bytes / largeBytes) * 100).toFixed(1)} %`,
    );
    expect(fetched.map((file) => file.name)).not.toContain(mediaNameOf(stored.key, 'large'));
    expect(bytes).toBeLessThanOrEqual(0.45 * largeBytes);
    expect(errors).toEqual([]);
    await page.close();
  });
});
