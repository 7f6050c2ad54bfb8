/**
 * Where the tree's zoom into a piece (decision 048) draws its pyramid's tiles: over the piece's square, exactly where
 * its thumbnail lies, and only the tiles of the level the zoom needs that show on screen. Pure geometry, so the rules
 * are unit-tested without a browser; the level and tile rules are the details page's viewer's (shared/deep-zoom.ts).
 */
import {
  backdropLevel,
  levelOnScreen,
  levelSize,
  tilesOnScreen,
  type PyramidDescriptor,
  type TileSpot,
  type View,
} from '#shared/deep-zoom.ts';
import { CELL_SIZE, cellToWorld, type Camera, type Point } from '#shared/tree/camera.ts';

/**
 * The thumbnail's side in pixels (the server's THUMB_SIZE): a square shows it until it is larger than this on the
 * screen, in device pixels; past that the pyramid's tiles take over.
 */
export const THUMBNAIL_PIXELS = 256;

/**
 * The part of the picture a square's thumbnail shows, in picture pixels: the middle square of the picture, as the
 * server cuts the thumbnail (sharp's `cover` fit, centred), stretched over the square.
 */
export function thumbnailCrop(descriptor: Pick<PyramidDescriptor, 'width' | 'height'>): Point & { side: number } {
  const side = Math.min(descriptor.width, descriptor.height);
  return { x: (descriptor.width - side) / 2, y: (descriptor.height - side) / 2, side };
}

/**
 * The camera's scale at which the square shows its picture's own pixels, one to a device pixel (`pixelRatio` device
 * pixels a CSS pixel): the deep zoom's upper limit.
 */
export function ownPixelsScale(descriptor: Pick<PyramidDescriptor, 'width' | 'height'>, pixelRatio: number): number {
  return thumbnailCrop(descriptor).side / CELL_SIZE / pixelRatio;
}

/** Whether the square is larger on the screen than its thumbnail's pixels, so the pyramid is worth drawing. */
export function outgrowsThumbnail(scale: number, pixelRatio: number): boolean {
  return CELL_SIZE * scale * pixelRatio > THUMBNAIL_PIXELS;
}

/** The world point of the picture's top-left corner and world pixels a picture pixel, over the square at a position. */
export function picturePlacement(descriptor: PyramidDescriptor, row: number, column: number) {
  const crop = thumbnailCrop(descriptor);
  const cell = cellToWorld(row, column);
  const perPixel = CELL_SIZE / crop.side;
  return { x: cell.x - crop.x * perPixel, y: cell.y - crop.y * perPixel, perPixel };
}

/** What to draw of a pyramid over a square: a level's tiles, those of the one-tile level under them. */
export interface DeepZoomTiles {
  level: number;
  tiles: TileSpot[];
  backdrop: number;
  backdropTiles: TileSpot[];
}

/**
 * The tiles the square at (row, column) shows under `camera` in a viewport of `width` × `height` CSS pixels: only
 * those within both the viewport and the square (the rest of the picture, beyond the thumbnail's crop, is never
 * shown). Null when the square is off screen.
 */
export function deepZoomTiles(
  pyramid: { descriptor: PyramidDescriptor; descriptorUrl: string },
  position: { row: number; column: number },
  camera: Camera,
  viewport: { width: number; height: number; pixelRatio: number },
): DeepZoomTiles | null {
  const { descriptor, descriptorUrl } = pyramid;
  const cell = cellToWorld(position.row, position.column);
  const left = Math.max(0, (cell.x - camera.x) * camera.scale);
  const top = Math.max(0, (cell.y - camera.y) * camera.scale);
  const right = Math.min(viewport.width, (cell.x + cell.width - camera.x) * camera.scale);
  const bottom = Math.min(viewport.height, (cell.y + cell.height - camera.y) * camera.scale);
  if (right <= left || bottom <= top) return null;
  const placed = picturePlacement(descriptor, position.row, position.column);
  // The picture as the viewer places it, in the visible part of the square (its top-left corner the origin).
  const view: View = {
    scale: placed.perPixel * camera.scale,
    x: (placed.x - camera.x) * camera.scale - left,
    y: (placed.y - camera.y) * camera.scale - top,
  };
  const { width, height, pixelRatio } = viewport;
  const screenPixels = width * height * pixelRatio ** 2;
  const level = levelOnScreen(descriptor, view, right - left, bottom - top, pixelRatio, screenPixels);
  const backdrop = backdropLevel(descriptor);
  const on = (n: number) => tilesOnScreen(descriptor, descriptorUrl, n, view, right - left, bottom - top);
  return { level, tiles: level > backdrop ? on(level) : [], backdrop, backdropTiles: on(backdrop) };
}

/** World pixels a level pixel of the picture placed over a square (`perPixel` world pixels a picture pixel). */
export function levelPixelWorld(descriptor: PyramidDescriptor, level: number, perPixel: number): number {
  return (perPixel * descriptor.width) / levelSize(descriptor, level).width;
}
