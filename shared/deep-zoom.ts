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

/**
 * The level to draw at `scale` CSS pixels a picture pixel on a screen of `dpr` device pixels a CSS pixel; with
 * `slack` 1, the largest whose pixels are no more than the device pixels (half a level pixel a device pixel at worst).
 */
export function levelFor(descriptor: PyramidDescriptor, scale: number, dpr: number, slack = LEVEL_SLACK): number {
  const top = descriptor.levels - 1;
  const level = top + Math.floor(Math.log2(scale * dpr * slack) + 1e-9);
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

/** The tiles of `level`, as columns and rows from first to past-last, that a viewport shows of the placed picture. */
function tileRange(descriptor: PyramidDescriptor, level: number, view: View, width: number, height: number) {
  const size = levelSize(descriptor, level);
  // Level pixels a picture pixel.
  const ratio = size.width / descriptor.width;
  const t = descriptor.tileSize;
  const left = Math.max(0, (-view.x / view.scale) * ratio);
  const top = Math.max(0, (-view.y / view.scale) * ratio);
  const right = Math.min(size.width, ((width - view.x) / view.scale) * ratio);
  const bottom = Math.min(size.height, ((height - view.y) / view.scale) * ratio);
  if (right <= left || bottom <= top) return null;
  return {
    size,
    columns: [Math.floor(left / t), Math.ceil(right / t)] as const,
    rows: [Math.floor(top / t), Math.ceil(bottom / t)] as const,
  };
}

/** Where a tile lies in its level's pixels: its square widened by the overlap on the sides inside the level. */
function tileBounds(
  descriptor: PyramidDescriptor,
  size: { width: number; height: number },
  column: number,
  row: number,
) {
  const { tileSize: t, overlap } = descriptor;
  const left = Math.max(0, column * t - overlap);
  const top = Math.max(0, row * t - overlap);
  return {
    left,
    top,
    width: Math.min(size.width, (column + 1) * t + overlap) - left,
    height: Math.min(size.height, (row + 1) * t + overlap) - top,
  };
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
  const range = tileRange(descriptor, level, view, width, height);
  const spots: TileSpot[] = [];
  if (!range) return spots;
  for (let row = range.rows[0]; row < range.rows[1]; row++) {
    for (let column = range.columns[0]; column < range.columns[1]; column++)
      spots.push({
        url: tileUrl(descriptor, descriptorUrl, level, column, row),
        ...tileBounds(descriptor, range.size, column, row),
      });
  }
  return spots;
}

/** The pixels of the tiles of `level` that the viewport shows (tilesOnScreen's, without naming them). */
export function tilePixelsOnScreen(
  descriptor: PyramidDescriptor,
  level: number,
  view: View,
  width: number,
  height: number,
): number {
  const range = tileRange(descriptor, level, view, width, height);
  let pixels = 0;
  if (!range) return pixels;
  for (let row = range.rows[0]; row < range.rows[1]; row++) {
    for (let column = range.columns[0]; column < range.columns[1]; column++) {
      const bounds = tileBounds(descriptor, range.size, column, row);
      pixels += bounds.width * bounds.height;
    }
  }
  return pixels;
}

/**
 * The tiles a view asks for should have at most this many times the screen's device pixels: a viewer downloads little
 * more than it can show, however the tiles' edges fall across the screen.
 */
export const TILE_BUDGET = 1.5;

/**
 * The level to draw the picture placed by `view` in a viewport of `width` × `height` CSS pixels, on a screen of
 * `screenPixels` device pixels (`dpr` a CSS pixel): levelFor's when its tiles on screen, with the one-tile
 * backdrop's, stay within TILE_BUDGET × the screen; else the one below, whose pixels are no more than the device
 * pixels. Never coarser than that: at the picture's own pixels the top level is drawn, the fringe of tiles the
 * screen's edges cut included (with 128 px tiles about 1.4 times a laptop's or a phone's screen at worst).
 */
export function levelOnScreen(
  descriptor: PyramidDescriptor,
  view: View,
  width: number,
  height: number,
  dpr: number,
  screenPixels: number,
): number {
  const backdrop = backdropLevel(descriptor);
  const level = levelFor(descriptor, view.scale, dpr);
  if (level <= backdrop) return level;
  const pixels =
    tilePixelsOnScreen(descriptor, level, view, width, height) +
    tilePixelsOnScreen(descriptor, backdrop, view, width, height);
  return pixels <= TILE_BUDGET * screenPixels ? level : levelFor(descriptor, view.scale, dpr, 1);
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
