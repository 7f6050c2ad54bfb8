/**
 * A picture's deep-zoom pyramid as the server writes it and the viewers read it (decision 048, docs/api.md): the
 * descriptor `<key>-dz.json`, the rule that sizes its levels, and the geometry both viewers (the details page's and
 * the tree's own zoom into a piece) share: which level to draw at a zoom and which of its tiles lie on screen.
 */

/** What `<key>-dz.json` holds: enough for a viewer to ask for the tiles it shows. */
export interface PyramidDescriptor {
  format: 'webp';
  /** The upload's own size, as displayed (its EXIF orientation applied). */
  width: number;
  height: number;
  tileSize: number;
  overlap: number;
  /** Levels 0 (one pixel) to levels - 1 (the whole picture); level n is the picture halved levels - 1 - n times. */
  levels: number;
  /** The tiles' names relative to the descriptor's address, with {level}, {column} and {row} to fill in. */
  tiles: string;
}

/** The picture's size at a level (the Deep Zoom rule: the full size divided by a power of two, rounded up). */
export function levelSize(descriptor: Pick<PyramidDescriptor, 'width' | 'height' | 'levels'>, level: number) {
  const factor = 2 ** (descriptor.levels - 1 - level);
  return { width: Math.ceil(descriptor.width / factor), height: Math.ceil(descriptor.height / factor) };
}

/** Where the picture is: `scale` CSS pixels a picture pixel, its top-left corner at (x, y) in the viewport. */
export interface View {
  scale: number;
  x: number;
  y: number;
}

/** One tile to draw: its address and where it lies in the level's pixels. */
export interface TileSpot {
  url: string;
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * A level's pixels may exceed the device pixels they cover by this much in area (1.5, so √1.5 a side): the level
 * chosen is the largest whose pixels stay within it, at least 0.61 of a level pixel a device pixel.
 */
const LEVEL_SLACK = Math.sqrt(1.5);

/** The level to draw at `scale` CSS pixels a picture pixel on a screen of `dpr` device pixels a CSS pixel. */
export function levelFor(descriptor: PyramidDescriptor, scale: number, dpr: number): number {
  const top = descriptor.levels - 1;
  const level = top + Math.floor(Math.log2(scale * dpr * LEVEL_SLACK) + 1e-9);
  return Math.max(0, Math.min(top, level));
}

/** A tile's address: its name (the descriptor's pattern filled in) beside the descriptor's own address. */
function tileUrl(descriptor: PyramidDescriptor, descriptorUrl: string, level: number, column: number, row: number) {
  const name = descriptor.tiles
    .replace('{level}', String(level))
    .replace('{column}', String(column))
    .replace('{row}', String(row));
  const path = descriptorUrl.split(/[?#]/)[0]!;
  return path.slice(0, path.lastIndexOf('/') + 1) + name;
}

/** The tiles of `level` that the viewport of `width` × `height` CSS pixels shows of the picture placed by `view`. */
export function tilesOnScreen(
  descriptor: PyramidDescriptor,
  descriptorUrl: string,
  level: number,
  view: View,
  width: number,
  height: number,
): TileSpot[] {
  const size = levelSize(descriptor, level);
  // Level pixels a picture pixel.
  const ratio = size.width / descriptor.width;
  const { tileSize: t, overlap } = descriptor;
  const left = Math.max(0, (-view.x / view.scale) * ratio);
  const top = Math.max(0, (-view.y / view.scale) * ratio);
  const right = Math.min(size.width, ((width - view.x) / view.scale) * ratio);
  const bottom = Math.min(size.height, ((height - view.y) / view.scale) * ratio);
  const spots: TileSpot[] = [];
  if (right <= left || bottom <= top) return spots;
  for (let row = Math.floor(top / t); row < Math.ceil(bottom / t); row++) {
    for (let column = Math.floor(left / t); column < Math.ceil(right / t); column++) {
      const x = Math.max(0, column * t - overlap);
      const y = Math.max(0, row * t - overlap);
      spots.push({
        url: tileUrl(descriptor, descriptorUrl, level, column, row),
        left: x,
        top: y,
        width: Math.min(size.width, (column + 1) * t + overlap) - x,
        height: Math.min(size.height, (row + 1) * t + overlap) - y,
      });
    }
  }
  return spots;
}

/** The largest level that is one tile: always drawn under the others, so the picture never shows a hole. */
export function backdropLevel(descriptor: PyramidDescriptor): number {
  let level = descriptor.levels - 1;
  while (level > 0) {
    const size = levelSize(descriptor, level);
    if (size.width <= descriptor.tileSize && size.height <= descriptor.tileSize) break;
    level--;
  }
  return level;
}

/** A picture's pyramid as a viewer holds it: the descriptor and the address it was read from (its tiles lie beside). */
export interface PiecePyramid {
  descriptorUrl: string;
  descriptor: PyramidDescriptor;
}
