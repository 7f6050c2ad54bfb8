/**
 * The tree's zoom into a piece (decision 048), its pure rules: the camera's own upper limit past the tree's (a view
 * zoomed into a piece may go on to its picture's own pixels, every other view keeps the tree's range and steps), where
 * the pyramid lies over the square (the thumbnail's middle crop), which tiles a view asks for, and the book of which
 * pieces have a pyramid (asked once).
 */
import { describe, expect, it } from 'vitest';
import { TREE_VIEW } from '#shared/constants.ts';
import { levelFor, type PiecePyramid, type PyramidDescriptor } from '#shared/deep-zoom.ts';
import { canZoomIn, clampScale, DEEP_ZOOM_STEP, steppedScale, zoomAt } from '#shared/tree/camera.ts';
import {
  deepZoomTiles,
  outgrowsThumbnail,
  ownPixelsScale,
  picturePlacement,
  thumbnailCrop,
} from '#client/tree/engine/deep-zoom-view.ts';
import { NO_PYRAMID_BELIEVED_MS, PyramidBook } from '#client/tree/engine/pyramid-book.ts';

/** A 3,200 × 2,400 picture's pyramid: 13 levels, the top one 25 × 19 tiles of 128 px. */
const DESCRIPTOR: PyramidDescriptor = {
  format: 'webp',
  width: 3200,
  height: 2400,
  tileSize: 128,
  overlap: 1,
  levels: 13,
  tiles: 'k-dz{level}-{column}-{row}.webp',
};
const PYRAMID = { descriptor: DESCRIPTOR, descriptorUrl: '/media/k-dz.json' };

describe('the camera’s own upper limit', () => {
  it('keeps the tree’s range and steps when a view has none of its own', () => {
    expect(clampScale(7)).toBe(TREE_VIEW.zoomMax);
    expect(steppedScale(2, 1)).toBe(2.5);
    expect(steppedScale(2.5, 1)).toBe(2.5);
    expect(steppedScale(7, -1)).toBe(2.5);
    expect(canZoomIn(2.5)).toBe(false);
    expect(canZoomIn(2)).toBe(true);
    // A limit below the tree's never lowers it.
    expect(clampScale(2.5, 1)).toBe(2.5);
    expect(canZoomIn(2, 1)).toBe(true);
  });

  it('goes past the tree’s limit up to a view’s own, doubling and halving there, and back onto the grid', () => {
    expect(clampScale(40, 24)).toBe(24);
    expect(steppedScale(2.5, 1, 24)).toBe(2.5 * DEEP_ZOOM_STEP);
    expect(steppedScale(20, 1, 24)).toBe(24);
    expect(steppedScale(24, -1, 24)).toBe(12);
    expect(steppedScale(4, -1, 24)).toBe(2.5);
    expect(steppedScale(2.5, -1, 24)).toBe(2);
    // Below the tree's limit the 0.5 grid holds whatever the view's own.
    expect(steppedScale(1, 1, 24)).toBe(1.5);
    expect(canZoomIn(2.5, 24)).toBe(true);
    expect(canZoomIn(24, 24)).toBe(false);
    const camera = zoomAt({ x: 0, y: 0, scale: 2.5 }, { x: 100, y: 50 }, 10, 24);
    expect(camera.scale).toBe(10);
    // The world point under the anchor stays there.
    expect(camera.x + 100 / camera.scale).toBeCloseTo(40, 9);
    expect(camera.y + 50 / camera.scale).toBeCloseTo(20, 9);
  });
});

describe('the pyramid over a square', () => {
  it('lies where the thumbnail does: the picture’s middle square stretched over the square', () => {
    expect(thumbnailCrop(DESCRIPTOR)).toEqual({ x: 400, y: 0, side: 2400 });
    expect(thumbnailCrop({ width: 1000, height: 3000 })).toEqual({ x: 0, y: 1000, side: 1000 });
    // The square at row 2, column 3 starts at (330, 220); 2,400 picture pixels over its 100 world pixels.
    const placed = picturePlacement(DESCRIPTOR, 2, 3);
    expect(placed.perPixel).toBeCloseTo(100 / 2400, 12);
    expect(placed.x).toBeCloseTo(330 - 400 * (100 / 2400), 9);
    expect(placed.y).toBe(220);
  });

  it('goes up to the picture’s own pixels, one to a device pixel, and takes over from the thumbnail past its pixels', () => {
    expect(ownPixelsScale(DESCRIPTOR, 1)).toBe(24);
    expect(ownPixelsScale(DESCRIPTOR, 2)).toBe(12);
    expect(outgrowsThumbnail(2.5, 1)).toBe(false);
    expect(outgrowsThumbnail(2.6, 1)).toBe(true);
    expect(outgrowsThumbnail(1.5, 2)).toBe(true);
  });

  it('asks only for the tiles of the view’s level within both the canvas and the square', () => {
    // The square filling a 1000 × 700 canvas from its middle: at its own pixels the canvas shows 1000 × 700 of them.
    const scale = 24;
    const square = { row: 0, column: 0 };
    const camera = { x: 50 - 500 / scale, y: 50 - 350 / scale, scale };
    const tiles = deepZoomTiles(PYRAMID, square, camera, { width: 1000, height: 700, pixelRatio: 1 })!;
    expect(tiles.level).toBe(12);
    expect(levelFor(DESCRIPTOR, 1, 1)).toBe(12);
    // Picture pixels 1100..2100 across (400 crop + 1200 middle ± 500) and 850..1550 down: tiles 8..16 and 6..12.
    const names = tiles.tiles.map((tile) => tile.url.replace('/media/k-dz12-', ''));
    expect(names.length).toBe(9 * 7);
    expect(names).toContain('8-6.webp');
    expect(names).toContain('16-12.webp');
    expect(names).not.toContain('7-6.webp');
    expect(names).not.toContain('17-12.webp');
    expect(tiles.backdropTiles.map((tile) => tile.url)).toEqual([`/media/k-dz${tiles.backdrop}-0-0.webp`]);
  });

  it('leaves out the picture beyond the square’s crop, and answers nothing for a square off screen', () => {
    // The whole square on screen at the tree's limit: the tiles of the crop only, never the picture's sides.
    const camera = { x: -100, y: -100, scale: 2.5 };
    const tiles = deepZoomTiles(PYRAMID, { row: 0, column: 0 }, camera, { width: 1000, height: 700, pixelRatio: 4 })!;
    const level = tiles.level;
    const size = Math.ceil(3200 / 2 ** (12 - level));
    const cropLeft = (400 * size) / 3200;
    for (const tile of tiles.tiles) {
      expect(tile.left + tile.width).toBeGreaterThan(cropLeft);
      expect(tile.left).toBeLessThan(size - cropLeft);
    }
    expect(deepZoomTiles(PYRAMID, { row: 50, column: 50 }, camera, { width: 1000, height: 700, pixelRatio: 1 })).toBe(
      null,
    );
  });
});

describe('the book of pyramids', () => {
  const square = { row: 1, column: 2, token: 't', thumb: '/media/k-thumb.webp' };

  it('asks again a while after "none": the pyramid may have been still being cut', async () => {
    let now = 0;
    let ready = false;
    let asked = 0;
    const book = new PyramidBook(
      async () => {
        asked++;
        return ready ? (PYRAMID as PiecePyramid) : null;
      },
      () => now,
    );
    expect(await book.ask(square)).toBeNull();
    ready = true;
    // Within the while, "none" stands and nothing is asked.
    now = 1000;
    expect(await book.ask(square)).toBeNull();
    expect(asked).toBe(1);
    now = NO_PYRAMID_BELIEVED_MS + 1000;
    expect(await book.ask(square)).toBe(PYRAMID);
    expect(asked).toBe(2);
    // A pyramid, once known, is kept.
    now = 10 * NO_PYRAMID_BELIEVED_MS;
    expect(book.unknown(square)).toBe(false);
    expect(book.known(square)).toBe(PYRAMID);
    expect(asked).toBe(2);
  });

  it('asks once per picture, every caller getting the one answer, and remembers it', async () => {
    let asked = 0;
    const book = new PyramidBook(async () => {
      asked++;
      return PYRAMID as PiecePyramid;
    });
    expect(book.unknown(square)).toBe(true);
    expect(book.known(square)).toBeNull();
    const [a, b] = await Promise.all([book.ask(square), book.ask(square)]);
    expect(a).toBe(b);
    expect(await book.ask(square)).toBe(a);
    expect(asked).toBe(1);
    expect(book.unknown(square)).toBe(false);
    expect(book.known(square)).toBe(a);
  });

  it('remembers a failed question as no pyramid for a while, and knows of none without a way to ask', async () => {
    let now = 0;
    const book = new PyramidBook(
      () => Promise.reject(new Error('offline')),
      () => now,
    );
    expect(await book.ask(square)).toBeNull();
    expect(book.unknown(square)).toBe(false);
    now = NO_PYRAMID_BELIEVED_MS - 1;
    expect(book.unknown(square)).toBe(false);
    now = NO_PYRAMID_BELIEVED_MS;
    expect(book.unknown(square)).toBe(true);
    const none = new PyramidBook(undefined);
    expect(none.unknown(square)).toBe(false);
    expect(await none.ask(square)).toBeNull();
  });
});
