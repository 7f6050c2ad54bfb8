/**
 * Whether squares show their pieces' pictures at a zoom: once a square is big enough on the screen itself, counted in
 * the canvas's device pixels, so a dense phone screen shows pictures at zooms where a plain screen still shows colours.
 */
import { CELL_SIZE } from '#shared/tree/camera.ts';

/**
 * A square's side, in device pixels, from which it shows its picture. On a plain screen (one device pixel per CSS
 * pixel) that is zoom 0.75, where pictures always began: desktops and the frame-cost benchmark see no change. A
 * 256-pixel thumbnail is still legible at 75 pixels; below that it is a blur of its dominant colour, which the square
 * already shows. Squares never shrink below 50 CSS pixels (the smallest zoom), so a screen holds at most a few hundred.
 */
export const THUMBNAIL_MIN_DEVICE_PX = 75;

/** `pixelRatio`: device pixels per CSS pixel the canvas draws with (its renderer's resolution). */
export function showsThumbnails(scale: number, pixelRatio: number): boolean {
  const ratio = Number.isFinite(pixelRatio) && pixelRatio > 0 ? pixelRatio : 1;
  return CELL_SIZE * scale * ratio >= THUMBNAIL_MIN_DEVICE_PX;
}
