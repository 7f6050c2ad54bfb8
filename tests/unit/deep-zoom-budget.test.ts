/**
 * The deep-zoom viewers' level rule (decision 048): the sharpest level whose tiles on screen, with the one-tile
 * backdrop's, stay within 1.5 times the screen's device pixels, at any zoom and however the tiles' edges fall.
 */
import { describe, expect, it } from 'vitest';
import {
  backdropLevel,
  levelFor,
  levelOnScreen,
  TILE_BUDGET,
  tilePixelsOnScreen,
  tilesOnScreen,
  type PyramidDescriptor,
  type View,
} from '#shared/deep-zoom.ts';

/** A 6,000 × 4,000 picture's pyramid (14 levels) with tiles of `tileSize`. */
function pyramid(tileSize: number): PyramidDescriptor {
  return {
    format: 'webp',
    width: 6000,
    height: 4000,
    tileSize,
    overlap: 1,
    levels: 14,
    tiles: '{level}-{column}-{row}',
  };
}

/** A repeatable stream of numbers in [0, 1), so every run checks the same views. */
function numbers(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const SCREENS = [
  { name: 'a laptop', width: 1280, height: 735, dpr: 1 },
  { name: 'a phone', width: 390, height: 844, dpr: 3 },
];

/** The pixels a view asks for at `level`: its tiles on screen and the backdrop's. */
function askedPixels(descriptor: PyramidDescriptor, level: number, view: View, width: number, height: number) {
  const backdrop = tilePixelsOnScreen(descriptor, backdropLevel(descriptor), view, width, height);
  return (
    backdrop + (level > backdropLevel(descriptor) ? tilePixelsOnScreen(descriptor, level, view, width, height) : 0)
  );
}

describe('the tiles one screen asks for', () => {
  it('counts the pixels of the tiles it names, the picture’s edges and the overlap included', () => {
    const descriptor = pyramid(128);
    const view = { scale: 0.37, x: -120.5, y: 33 };
    for (const level of [6, 9, 11, 13]) {
      const named = tilesOnScreen(descriptor, '/media/k-dz.json', level, view, 1280, 735);
      const sum = named.reduce((total, tile) => total + tile.width * tile.height, 0);
      expect(tilePixelsOnScreen(descriptor, level, view, 1280, 735)).toBe(sum);
    }
    expect(tilePixelsOnScreen(descriptor, 13, { scale: 1, x: 2000, y: 0 }, 1280, 735)).toBe(0);
  });

  it('drops to the level no larger than the device pixels where the sharper one’s tiles would pass the budget', () => {
    // 256 px tiles a little short of the picture's own pixels on a 1,000 × 700 screen: the top level's pixels are
    // 1.23 times the device pixels in area, and the 6 × 4 tiles the screen meets more than twice.
    const descriptor = pyramid(256);
    const view = { scale: 0.9, x: -2000, y: -1200 };
    expect(levelFor(descriptor, 0.9, 1)).toBe(13);
    expect(tilePixelsOnScreen(descriptor, 13, view, 1000, 700)).toBeGreaterThan(TILE_BUDGET * 1000 * 700);
    expect(levelOnScreen(descriptor, view, 1000, 700, 1, 1000 * 700)).toBe(12);
    // At the picture's own pixels the top level is drawn whatever its tiles cost: nothing coarser shows them.
    const own = { scale: 1, x: -2500, y: -1650 };
    expect(tilePixelsOnScreen(descriptor, 13, own, 1000, 700)).toBeGreaterThan(TILE_BUDGET * 1000 * 700);
    expect(levelOnScreen(descriptor, own, 1000, 700, 1, 1000 * 700)).toBe(13);
  });

  for (const screen of SCREENS)
    it(`stays within ${TILE_BUDGET} times the device pixels of ${screen.name} at every zoom, with 128 px tiles`, () => {
      const descriptor = pyramid(128);
      const random = numbers(screen.width);
      const devicePixels = screen.width * screen.height * screen.dpr ** 2;
      let sharpest = 0;
      for (let n = 0; n < 1000; n++) {
        // From the whole picture on screen up to its own pixels, one to a device pixel, anywhere over it.
        const fitted = Math.min(screen.width / 6000, screen.height / 4000);
        const scale = fitted * (1 / screen.dpr / fitted) ** random();
        const view = {
          scale,
          x: -random() * Math.max(0, 6000 * scale - screen.width),
          y: -random() * Math.max(0, 4000 * scale - screen.height),
        };
        const level = levelOnScreen(descriptor, view, screen.width, screen.height, screen.dpr, devicePixels);
        expect(askedPixels(descriptor, level, view, screen.width, screen.height)).toBeLessThanOrEqual(
          TILE_BUDGET * devicePixels,
        );
        // Never coarser than the level whose pixels are no more than the device pixels.
        expect(level).toBeGreaterThanOrEqual(levelFor(descriptor, scale, screen.dpr, 1));
        if (level === levelFor(descriptor, scale, screen.dpr)) sharpest++;
      }
      // Most views get levelFor's own level.
      expect(sharpest).toBeGreaterThan(600);
    });
});
