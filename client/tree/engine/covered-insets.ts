/**
 * What of the canvas the visitor sees: the page draws its own controls over it (the toolbar along the top, the growth
 * replay's button or bar along the bottom), and a square revealed or centred under one of them is as good as hidden.
 * Pure geometry: the page measures the controls (use-covered-insets.ts), the engine reveals squares in what is left.
 */
import { centredOn, viewRect, type Camera, type Point, type Rect } from '#shared/tree/camera.ts';

/** How far in from each edge of the canvas the page's controls cover it, in CSS pixels. */
export interface Insets {
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
  readonly left: number;
}

export const NO_INSETS: Insets = { top: 0, right: 0, bottom: 0, left: 0 };

/**
 * The most the insets take of each dimension, together: past it they shrink in proportion, so a control that grows
 * tall (a message under the replay's button on a short screen) never leaves nowhere to show a square.
 */
export const MAX_COVERED_SHARE = 0.5;

type Side = keyof Insets;

/** How deep a box reaches into the canvas from each edge (0 or less: it does not reach in from that edge). */
function depthFrom(canvas: Rect, box: Rect): Record<Side, number> {
  return {
    top: box.y + box.height - canvas.y,
    bottom: canvas.y + canvas.height - box.y,
    left: box.x + box.width - canvas.x,
    right: canvas.x + canvas.width - box.x,
  };
}

function overlaps(a: Rect, b: Rect): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** Shrinks a pair of opposite insets to at most `limit` together, each in proportion. */
function fitPair(first: number, second: number, limit: number): [number, number] {
  const sum = first + second;
  if (sum <= limit || sum === 0) return [first, second];
  return [(first * limit) / sum, (second * limit) / sum];
}

/**
 * The insets the boxes of the page's controls cover (page coordinates, as getBoundingClientRect gives them). Each box
 * counts against the one edge it takes the least depth from: a toolbar in the top right corner covers a band along
 * the top, not one down the whole right side. Boxes that miss the canvas, or have no size (hidden), count for nothing.
 */
export function coveredInsets(canvas: Rect, boxes: readonly Rect[]): Insets {
  const insets = { top: 0, right: 0, bottom: 0, left: 0 };
  for (const box of boxes) {
    if (box.width <= 0 || box.height <= 0 || !overlaps(canvas, box)) continue;
    const depth = depthFrom(canvas, box);
    const side = (['top', 'bottom', 'left', 'right'] as const).reduce((best, next) =>
      depth[next] < depth[best] ? next : best,
    );
    insets[side] = Math.max(insets[side], depth[side]);
  }
  [insets.top, insets.bottom] = fitPair(insets.top, insets.bottom, canvas.height * MAX_COVERED_SHARE);
  [insets.left, insets.right] = fitPair(insets.left, insets.right, canvas.width * MAX_COVERED_SHARE);
  return insets;
}

/** The world rectangle the visitor sees: the view less what the insets cover. */
export function uncoveredViewRect(camera: Camera, width: number, height: number, insets: Insets): Rect {
  const view = viewRect(camera, width, height);
  const { scale } = camera;
  return {
    x: view.x + insets.left / scale,
    y: view.y + insets.top / scale,
    width: Math.max(0, view.width - (insets.left + insets.right) / scale),
    height: Math.max(0, view.height - (insets.top + insets.bottom) / scale),
  };
}

/** The camera at `scale` that shows the world point `target` in the middle of the part of the screen not covered. */
export function centredInUncovered(
  target: Point,
  scale: number,
  width: number,
  height: number,
  insets: Insets,
): Camera {
  const camera = centredOn(target, scale, width, height);
  return {
    x: camera.x - (insets.left - insets.right) / 2 / camera.scale,
    y: camera.y - (insets.top - insets.bottom) / 2 / camera.scale,
    scale: camera.scale,
  };
}
