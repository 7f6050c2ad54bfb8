/**
 * Deep-zoom pyramids (decision 048): a picture larger than its 1,600 px copy keeps its upload until a background job
 * has cut it into tiles at every level, from one pixel up to the upload's own resolution, so the details page can
 * show an artist's detail without ever sending the whole picture. The pictures rows in state 'building' are the
 * queue: it survives a restart, and the job's lease (jobs.ts) makes one process of the gallery cut one picture at a
 * time. Tiles and a descriptor are written through the media storage under the large size's key, the descriptor last;
 * the row says 'ready' only after both.
 */
import { and, asc, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { pictures } from '#drizzle/tables.ts';
import { levelSize, type PyramidDescriptor } from '#shared/deep-zoom.ts';
import { write } from '../../db.ts';
import type { MediaStorage } from '../../storage/index.ts';
import type { ServiceContext } from '../context.ts';
import type { JobClaim } from '../jobs.ts';
import { pyramidDescriptorNameOf, pyramidTileNameOf } from '../display/index.ts';
import { imageWork, MAX_INPUT_PIXELS } from './images.ts';
import { mapAtOnce } from '../../at-once.ts';

/** Tiles are this many pixels square (the last of a row or column smaller), with the overlap added inside the picture. */
export const PYRAMID_TILE_SIZE = 128;
/**
 * Each tile repeats one pixel of its neighbours on the sides it has one: a viewer that places tiles at fractional
 * positions then draws no hairline gap between them.
 */
export const PYRAMID_OVERLAP = 1;
/**
 * WebP at quality 80: the tiles of a generated 24-megapixel piece came to less than its JPEG's bytes (all levels
 * together, see decision 048's measurements), and every browser that runs the viewer decodes WebP.
 */
const TILE_WEBP = { quality: 80, effort: 2 } as const;
/** Tiles encoded at once while cutting one level: the build is one at a time, but each tile uses one core. */
const TILES_AT_ONCE = 2;
/**
 * Tiles written at once: a 24-megapixel picture has about two thousand, and on object storage each is a round trip
 * that costs the process nothing while it waits.
 */
const WRITES_AT_ONCE = 8;

/** How many levels a Deep Zoom pyramid of a picture has: down to one pixel, halving (rounding up) each time. */
export function pyramidLevels(width: number, height: number): number {
  return Math.ceil(Math.log2(Math.max(width, height, 1))) + 1;
}

/** Every file of a written pyramid: its descriptor, then each tile of each level (as cutPyramid names them). */
export function pyramidFileNames(key: string, descriptor: PyramidDescriptor): string[] {
  const names = [pyramidDescriptorNameOf(key)];
  for (let level = 0; level < descriptor.levels; level++) {
    const { width, height } = levelSize(descriptor, level);
    for (let row = 0; row < Math.ceil(height / descriptor.tileSize); row++)
      for (let column = 0; column < Math.ceil(width / descriptor.tileSize); column++)
        names.push(pyramidTileNameOf(key, level, column, row));
  }
  return names;
}

/** A pyramid cut in memory, nothing written yet. */
export interface CutPyramid {
  descriptor: PyramidDescriptor;
  tiles: { name: string; data: Buffer }[];
}

/** A picture the pyramid cannot be cut from (not decodable, or beyond the pixel limit): its state becomes 'failed'. */
export class PyramidSourceRejected extends Error {}

/**
 * Cuts the pyramid of `source` in memory: decoded once at full size, each level's tiles cut from its pixels, each level
 * halved from the one above (levels are never decoded twice). Throws PyramidSourceRejected for a source that is not
 * a picture; `stopping` ends the cut early (null then), for a process that is shutting down.
 */
export async function cutPyramid(
  key: string,
  source: Buffer,
  stopping: () => boolean = () => false,
): Promise<CutPyramid | null> {
  let pixels: { data: Buffer; info: sharp.OutputInfo };
  try {
    pixels = await sharp(source, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
      .rotate()
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch (error) {
    throw new PyramidSourceRejected(error instanceof Error ? error.message : String(error));
  }
  const { width, height, channels } = pixels.info;
  const levels = pyramidLevels(width, height);
  const tiles: { name: string; data: Buffer }[] = [];
  let level = pixels;
  for (let n = levels - 1; n >= 0; n--) {
    if (stopping()) return null;
    const { width: w, height: h } = level.info;
    const raw = { width: w, height: h, channels };
    const columns = Math.ceil(w / PYRAMID_TILE_SIZE);
    const rows = Math.ceil(h / PYRAMID_TILE_SIZE);
    const cuts: { name: string; left: number; top: number; width: number; height: number }[] = [];
    for (let row = 0; row < rows; row++) {
      for (let column = 0; column < columns; column++) {
        const left = Math.max(0, column * PYRAMID_TILE_SIZE - PYRAMID_OVERLAP);
        const top = Math.max(0, row * PYRAMID_TILE_SIZE - PYRAMID_OVERLAP);
        const right = Math.min(w, (column + 1) * PYRAMID_TILE_SIZE + PYRAMID_OVERLAP);
        const bottom = Math.min(h, (row + 1) * PYRAMID_TILE_SIZE + PYRAMID_OVERLAP);
        cuts.push({
          name: pyramidTileNameOf(key, n, column, row),
          left,
          top,
          width: right - left,
          height: bottom - top,
        });
      }
    }
    const data = level.data;
    const cut = await mapAtOnce(cuts, TILES_AT_ONCE, async ({ name, ...region }) => ({
      name,
      data: await sharp(data, { raw }).extract(region).webp(TILE_WEBP).toBuffer(),
    }));
    tiles.push(...cut);
    if (n > 0) {
      level = await sharp(data, { raw })
        .resize(Math.ceil(w / 2), Math.ceil(h / 2), { fit: 'fill', kernel: 'lanczos3' })
        .raw()
        .toBuffer({ resolveWithObject: true });
    }
  }
  const descriptor: PyramidDescriptor = {
    format: 'webp',
    width,
    height,
    tileSize: PYRAMID_TILE_SIZE,
    overlap: PYRAMID_OVERLAP,
    levels,
    tiles: `${key}-dz{level}-{column}-{row}.webp`,
  };
  return { descriptor, tiles };
}

/**
 * Writes a cut pyramid: every tile, then the descriptor last, so a descriptor in the storage always stands beside all
 * its tiles. A name written already keeps its bytes and has its date renewed (the storage port's rule).
 */
export async function writePyramid(media: MediaStorage, key: string, pyramid: CutPyramid): Promise<void> {
  await mapAtOnce(pyramid.tiles, WRITES_AT_ONCE, (tile) => media.put(tile.name, tile.data));
  await media.put(pyramidDescriptorNameOf(key), Buffer.from(JSON.stringify(pyramid.descriptor)));
}

/** How often the job looks for pictures to cut; a save's pyramid starts within this time. */
export const PYRAMID_JOB_EVERY_MS = 10_000;

/**
 * The job: cuts the queued pyramids one after the other, oldest first, until none is left or the runner stops. A
 * picture whose upload cannot be read (damaged, or gone) becomes 'failed' with nothing named; a storage that fails
 * while tiles are written ends the run with the picture still queued, and the next run cuts it again. What a failed
 * or interrupted build wrote is named by no 'ready' or 'building' row, so the sweep takes it after the day's grace.
 */
export async function buildQueuedPyramids(ctx: ServiceContext, claim?: JobClaim): Promise<number> {
  let built = 0;
  for (;;) {
    if (claim?.stopping?.()) return built;
    const [next] = await ctx.db
      .select({ id: pictures.id, key: pictures.mediaKey, source: pictures.pyramidSource })
      .from(pictures)
      .where(eq(pictures.pyramid, 'building'))
      .orderBy(asc(pictures.id))
      .limit(1);
    if (!next) return built;
    const outcome = await buildPyramidOf(ctx, next, claim?.stopping);
    if (outcome === 'stopped') return built;
    built++;
  }
}

/** Cuts and writes one picture's pyramid and records the outcome on its row. */
async function buildPyramidOf(
  ctx: ServiceContext,
  picture: { id: number; key: string; source: string | null },
  stopping: () => boolean = () => false,
): Promise<'ready' | 'failed' | 'stopped'> {
  const source = picture.source ? await ctx.media.get(picture.source) : null;
  let cut: CutPyramid | null;
  try {
    if (!source) throw new PyramidSourceRejected('the kept upload is not in the media storage');
    const started = performance.now();
    // One of the image pipeline's places: a 40-megapixel picture decoded holds over 100 MB, as an upload's does.
    cut = await imageWork.run(() => cutPyramid(picture.key, source, stopping), true);
    if (cut)
      ctx.log.info(
        { picture: picture.id, tiles: cut.tiles.length, ms: Math.round(performance.now() - started) },
        'pyramid cut',
      );
  } catch (error) {
    if (!(error instanceof PyramidSourceRejected)) throw error;
    ctx.log.warn({ picture: picture.id, reason: error.message }, 'pyramid failed');
    await settle(ctx, picture.id, 'failed');
    return 'failed';
  }
  if (!cut) return 'stopped';
  await writePyramid(ctx.media, picture.key, cut);
  await settle(ctx, picture.id, 'ready');
  return 'ready';
}

/** Ends a build: its state, and the upload no longer named (the sweep's after the day's grace). */
async function settle(ctx: ServiceContext, id: number, state: 'ready' | 'failed'): Promise<void> {
  await write(ctx.db, (tx) =>
    tx
      .update(pictures)
      .set({ pyramid: state, pyramidSource: null })
      .where(and(eq(pictures.id, id), eq(pictures.pyramid, 'building'))),
  );
}
