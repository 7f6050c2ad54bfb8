/**
 * Pictures larger than the large size, as a camera or an artist uploads them, saved through the REST API: each is
 * kept and queued for its deep-zoom pyramid (decision 048).
 */
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { pictures } from '#drizzle/tables.ts';
import type { ArtPicture } from '#shared/art-api.ts';
import { Role } from '#shared/domain.ts';
import { renderArtwork } from '#server/seed/art-generator.ts';
import { reserveCell } from '#server/services/reservations/reservations.ts';
import type { TestApp } from './test-app.ts';
import { artForm, browserFor, cellAt, postForm, validFields } from '../art-fixtures.ts';

/** A photographed piece of 2,400 × 1,800 (4.3 megapixels), as a camera's JPEG. */
export const photo = async (seed: number) =>
  sharp(await renderArtwork(seed, 1800))
    .resize(2400, 1800, { fit: 'fill' })
    .jpeg({ quality: 90 })
    .toBuffer();

/**
 * Saves a draft with one picture on the square at (row, column) as a new member; answers the saved picture. Throws
 * when the save is refused (plainly, so a benchmark can call it too).
 */
export async function upload(t: TestApp, treeId: number, row: number, column: number, bytes: Buffer) {
  const holder = await t.addUser(Role.Observer);
  const cellToken = (await cellAt(t.deps.db, treeId, row, column)).token;
  await reserveCell(t.deps, holder.user, cellToken);
  const browser = await browserFor(t, holder.cookie);
  const answer = await postForm(
    t,
    browser,
    `/api/cell/${cellToken}`,
    artForm(validFields(), [{ bytes, name: 'a.jpg', type: 'image/jpeg' }]),
  );
  // The REST answer's keys are snake_case (decision 028).
  const saved = answer.body.r.art as
    { token: string; pictures: { token: string; deep_zoom: ArtPicture['deepZoom'] }[] } | undefined;
  if (answer.status !== 200 || !saved?.pictures[0])
    throw new Error(`the upload answered ${answer.status}: ${JSON.stringify(answer.body.r)}`);
  const [row0] = await t.deps.db.select().from(pictures).where(eq(pictures.token, saved.pictures[0]!.token));
  return { artToken: saved.token, picture: saved.pictures[0]!, row: row0! };
}
