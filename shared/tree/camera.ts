/**
 * The camera: which part of the tree's world is on screen. A plain value (x, y = the world point at the screen's
 * top-left corner; scale = screen pixels per world pixel) and pure functions over it, so every rule of panning and
 * zooming is unit-tested without a browser. Shared: the server draws the tree's opening view with the same rules.
 */
import { TREE_VIEW } from '../constants.ts';

export interface Camera {
  readonly x: number;
  readonly y: number;
  readonly scale: number;
}

export interface Point {
  readonly x: number;
  readonly y: number;
}

export interface Rect {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** Distance in world pixels from one cell's top-left corner to the next: cell size plus gap. */
export const CELL_PITCH = TREE_VIEW.cellSize + TREE_VIEW.gap;
export const CELL_SIZE = TREE_VIEW.cellSize;

export function worldToScreen(camera: Camera, point: Point): Point {
  return { x: (point.x - camera.x) * camera.scale, y: (point.y - camera.y) * camera.scale };
}

export function screenToWorld(camera: Camera, point: Point): Point {
  return { x: point.x / camera.scale + camera.x, y: point.y / camera.scale + camera.y };
}

/**
 * What one zoom step multiplies or divides the scale by past the tree's own upper limit, where a view may go on into a
 * piece's own pixels (the deep zoom, decision 048): the 0.5 grid would take dozens of steps to get there.
 */
export const DEEP_ZOOM_STEP = 2;

/**
 * The scale within the tree's range. `max` is a view's own upper limit when it is allowed past the tree's (a piece's
 * deep zoom); it never lowers the tree's.
 */
export function clampScale(scale: number, max: number = TREE_VIEW.zoomMax): number {
  if (!Number.isFinite(scale)) return TREE_VIEW.zoomDefault;
  return Math.min(Math.max(TREE_VIEW.zoomMax, max), Math.max(TREE_VIEW.zoomMin, scale));
}

/**
 * The camera at `newScale` (clamped, up to `max`: see clampScale) that keeps the world point under the screen point
 * `anchor` where it was.
 */
export function zoomAt(camera: Camera, anchor: Point, newScale: number, max?: number): Camera {
  const scale = clampScale(newScale, max);
  const world = screenToWorld(camera, anchor);
  return { x: world.x - anchor.x / scale, y: world.y - anchor.y / scale, scale };
}

/**
 * The next zoom level one step up (+1) or down (-1) on the 0.5 grid, clamped to the allowed range (up to `max`: see
 * clampScale). Past the tree's upper limit a step doubles or halves the scale, and a step down from there stops at
 * the limit, back on the grid.
 */
export function steppedScale(scale: number, direction: 1 | -1, max?: number): number {
  const top = TREE_VIEW.zoomMax;
  if (direction > 0 && scale >= top - 1e-9) return clampScale(scale * DEEP_ZOOM_STEP, max);
  if (direction < 0 && scale > top + 1e-9) return clampScale(Math.max(top, scale / DEEP_ZOOM_STEP), max);
  const step = TREE_VIEW.zoomStep;
  // Stryker disable next-line EqualityOperator: direction is 1 or -1, never 0
  const snapped = direction > 0 ? Math.floor(scale / step + 1e-9) + 1 : Math.ceil(scale / step - 1e-9) - 1;
  return clampScale(snapped * step, max);
}

/** Whether a step in is possible: below the tree's upper limit, or below a view's own (`max`: see clampScale). */
export function canZoomIn(scale: number, max: number = TREE_VIEW.zoomMax): boolean {
  // Stryker disable next-line EqualityOperator: only a scale exactly 1e-9 below the end tells < from <=
  return scale < Math.max(TREE_VIEW.zoomMax, max) - 1e-9;
}

export function canZoomOut(scale: number): boolean {
  // Stryker disable next-line EqualityOperator: only a scale exactly 1e-9 above the end tells > from >=
  return scale > TREE_VIEW.zoomMin + 1e-9;
}

/** Moves the camera by a distance measured in screen pixels (a drag moves the world with the pointer). */
export function panBy(camera: Camera, screenDx: number, screenDy: number): Camera {
  return { x: camera.x - screenDx / camera.scale, y: camera.y - screenDy / camera.scale, scale: camera.scale };
}

/** The camera at `scale` whose screen centre (viewport width × height) shows the world point `target`. */
export function centredOn(target: Point, scale: number, viewportWidth: number, viewportHeight: number): Camera {
  const s = clampScale(scale);
  return { x: target.x - viewportWidth / 2 / s, y: target.y - viewportHeight / 2 / s, scale: s };
}

/** The world rectangle the screen shows. */
export function viewRect(camera: Camera, viewportWidth: number, viewportHeight: number): Rect {
  return { x: camera.x, y: camera.y, width: viewportWidth / camera.scale, height: viewportHeight / camera.scale };
}

/** The point of `bounds` nearest to `point`. */
export function clampPoint(point: Point, bounds: Rect): Point {
  return {
    x: Math.min(bounds.x + bounds.width, Math.max(bounds.x, point.x)),
    y: Math.min(bounds.y + bounds.height, Math.max(bounds.y, point.y)),
  };
}

/**
 * Keeps the screen's centre inside `bounds` (world pixels), so the tree can never be scrolled out of reach. Only the
 * centre is kept in, so where a view centres does not depend on the window's size (the server's sketch of the
 * opening view relies on it: server/services/tree/tree-sketch.ts).
 */
export function clampToBounds(camera: Camera, bounds: Rect, viewportWidth: number, viewportHeight: number): Camera {
  const halfW = viewportWidth / 2 / camera.scale;
  const halfH = viewportHeight / 2 / camera.scale;
  const centre = clampPoint({ x: camera.x + halfW, y: camera.y + halfH }, bounds);
  return { x: centre.x - halfW, y: centre.y - halfH, scale: camera.scale };
}

/** World rectangle of the cell at (row, column): column × 110, row × 110, 100 wide. */
export function cellToWorld(row: number, column: number): Rect {
  return { x: column * CELL_PITCH, y: row * CELL_PITCH, width: CELL_SIZE, height: CELL_SIZE };
}

/** World centre of the cell at (row, column). */
export function cellCentre(row: number, column: number): Point {
  return { x: column * CELL_PITCH + CELL_SIZE / 2, y: row * CELL_PITCH + CELL_SIZE / 2 };
}

/** The cell position under a world point, or null when the point falls in the gap between cells. */
export function worldToCell(point: Point): { row: number; column: number } | null {
  const column = Math.floor(point.x / CELL_PITCH);
  const row = Math.floor(point.y / CELL_PITCH);
  if (point.x - column * CELL_PITCH >= CELL_SIZE || point.y - row * CELL_PITCH >= CELL_SIZE) return null;
  return { row, column };
}

/** The world point at the screen's centre. */
export function cameraCentre(camera: Camera, viewportWidth: number, viewportHeight: number): Point {
  return { x: camera.x + viewportWidth / 2 / camera.scale, y: camera.y + viewportHeight / 2 / camera.scale };
}

/** Smooth start and stop for camera flights. */
export function easeInOut(t: number): number {
  // Stryker disable next-line EqualityOperator: both halves give 0.5 at t = 0.5
  return t < 0.5 ? 4 * t * t * t : 1 - (-2 * t + 2) ** 3 / 2;
}

/**
 * A camera part-way (t from 0 to 1) through a flight from `from` to `to`: the screen's centre glides in a straight
 * line while the scale changes, so the target never leaves the middle of a zoom.
 */
export function interpolateCamera(
  from: Camera,
  to: Camera,
  t: number,
  viewportWidth: number,
  viewportHeight: number,
): Camera {
  if (t >= 1) return to;
  const e = easeInOut(Math.max(0, t));
  const a = cameraCentre(from, viewportWidth, viewportHeight);
  const b = cameraCentre(to, viewportWidth, viewportHeight);
  const scale = from.scale + (to.scale - from.scale) * e;
  return centredOn({ x: a.x + (b.x - a.x) * e, y: a.y + (b.y - a.y) * e }, scale, viewportWidth, viewportHeight);
}
