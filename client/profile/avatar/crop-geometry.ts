/**
 * The avatar cropper's arithmetic, free of the DOM so it can be tested alone. The frame covers 5 to 3000 picture
 * pixels (AVATAR_LIMITS; decision 015); zoomed out, what the picture does not cover comes out white.
 */
import { AVATAR_LIMITS } from '#shared/constants.ts';

export interface PictureSize {
  width: number;
  height: number;
}

/**
 * How the picture sits under the square frame of `frame` screen pixels: `scale` is screen pixels per picture pixel,
 * and (offsetX, offsetY) moves the picture's centre away from the frame's centre.
 */
export interface CropView {
  scale: number;
  offsetX: number;
  offsetY: number;
}

export interface ZoomRange {
  min: number;
  max: number;
}

/** Picture pixels the frame may cover: the whole picture at most (and never over 3000), 5 at least. */
export function zoomRange(picture: PictureSize, frame: number): ZoomRange {
  const longest = Math.max(picture.width, picture.height);
  const min = frame / Math.min(longest, AVATAR_LIMITS.cropMax);
  const max = Math.max(frame / AVATAR_LIMITS.cropMin, min);
  return { min, max };
}

/** The first view: the picture fills the frame (its shorter side across it), centred. */
export function initialView(picture: PictureSize, frame: number): CropView {
  const cover = frame / Math.min(picture.width, picture.height);
  return { scale: clamp(cover, zoomRange(picture, frame)), offsetX: 0, offsetY: 0 };
}

/**
 * Keeps the picture where it makes sense: along an axis where it is larger than the frame it may not leave a gap
 * inside the frame; where it is smaller it may not leave the frame.
 */
export function clampView(view: CropView, picture: PictureSize, frame: number): CropView {
  const scale = clamp(view.scale, zoomRange(picture, frame));
  const limitX = Math.abs(picture.width * scale - frame) / 2;
  const limitY = Math.abs(picture.height * scale - frame) / 2;
  return {
    scale,
    offsetX: clamp(view.offsetX, { min: -limitX, max: limitX }),
    offsetY: clamp(view.offsetY, { min: -limitY, max: limitY }),
  };
}

/** Moves the picture by a drag of (dx, dy) screen pixels. */
export function moveView(view: CropView, dx: number, dy: number, picture: PictureSize, frame: number): CropView {
  return clampView({ ...view, offsetX: view.offsetX + dx, offsetY: view.offsetY + dy }, picture, frame);
}

/** Zooms to `scale`, keeping the point under the frame's centre where it is. */
export function zoomView(view: CropView, scale: number, picture: PictureSize, frame: number): CropView {
  const next = clamp(scale, zoomRange(picture, frame));
  const ratio = next / view.scale;
  return clampView({ scale: next, offsetX: view.offsetX * ratio, offsetY: view.offsetY * ratio }, picture, frame);
}

/** The zoom slider moves along a logarithmic track, so each step feels alike from 5 to 3000 pixels. */
export const SLIDER_STEPS = 1000;

export function sliderOf(scale: number, range: ZoomRange): number {
  if (range.max <= range.min) return 0;
  return Math.round((Math.log(scale / range.min) / Math.log(range.max / range.min)) * SLIDER_STEPS);
}

export function scaleOf(slider: number, range: ZoomRange): number {
  if (range.max <= range.min) return range.min;
  return range.min * Math.pow(range.max / range.min, slider / SLIDER_STEPS);
}

/** Where the whole picture lands on a square canvas of `side` pixels that shows exactly the frame. */
export function placement(view: CropView, picture: PictureSize, frame: number, side: number) {
  const k = side / frame;
  const width = picture.width * view.scale * k;
  const height = picture.height * view.scale * k;
  return {
    x: (frame / 2 + view.offsetX) * k - width / 2,
    y: (frame / 2 + view.offsetY) * k - height / 2,
    width,
    height,
  };
}

/** The square of the picture the frame covers, in picture pixels (it may reach past the picture's edges). */
export function cropSquare(view: CropView, picture: PictureSize, frame: number) {
  const side = frame / view.scale;
  return {
    x: picture.width / 2 - (frame / 2 + view.offsetX) / view.scale,
    y: picture.height / 2 - (frame / 2 + view.offsetY) / view.scale,
    side,
  };
}

function clamp(value: number, range: ZoomRange): number {
  return Math.min(range.max, Math.max(range.min, value));
}
