/**
 * The deep-zoom viewers' tiles as the browser tests count them, by the Deep Zoom geometry written out here rather
 * than taken from the viewers' own code: the pixels of named tiles, and the tile budget's choice of level.
 */
import { levelSize, type PyramidDescriptor } from '#shared/deep-zoom.ts';

/** The pixels of the named tiles (`level-column-row`) of `level`: each its square and the overlap inside the level. */
export function tilePixels(d: PyramidDescriptor, level: number, tiles: Iterable<string>): number {
  const { width, height } = levelSize(d, level);
  const side = (start: number, end: number, limit: number) =>
    Math.min(limit, end + d.overlap) - Math.max(0, start - d.overlap);
  let pixels = 0;
  for (const tile of tiles) {
    const [, column, row] = tile.split('-').map(Number);
    pixels +=
      side(column! * d.tileSize, (column! + 1) * d.tileSize, width) *
      side(row! * d.tileSize, (row! + 1) * d.tileSize, height);
  }
  return pixels;
}

/** The level whose pixels a device pixel stay within `slack` a side, at `devicePerPicture` device pixels a picture pixel. */
export function levelWithin(d: PyramidDescriptor, devicePerPicture: number, slack: number): number {
  const level = d.levels - 1 + Math.floor(Math.log2(devicePerPicture * slack) + 1e-9);
  return Math.max(0, Math.min(d.levels - 1, level));
}

/**
 * The level a view should draw: the one within √1.5 a side, unless its tiles on screen with the backdrop's (`tilesAt`
 * names them) pass 1.5 times the screen's device pixels; then the one within 1.
 */
export function budgetedLevel(
  d: PyramidDescriptor,
  devicePerPicture: number,
  backdrop: number,
  tilesAt: (level: number) => Iterable<string>,
  screenPixels: number,
): number {
  const sharp = levelWithin(d, devicePerPicture, Math.sqrt(1.5));
  if (sharp <= backdrop) return sharp;
  const pixels = tilePixels(d, sharp, tilesAt(sharp)) + tilePixels(d, backdrop, tilesAt(backdrop));
  return pixels <= 1.5 * screenPixels ? sharp : levelWithin(d, devicePerPicture, 1);
}
