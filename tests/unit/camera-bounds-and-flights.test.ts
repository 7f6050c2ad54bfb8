/**
 * The camera at every zoom, not only at 1: the tree cannot be scrolled out of reach however far one zooms in or out,
 * a flight to a square glides the screen's centre in a straight line from start to end (its second half and its
 * end included), and a scale a rounding error away from a step counts as that step.
 */
import { describe, expect, it } from 'vitest';
import {
  cameraCentre,
  canZoomIn,
  canZoomOut,
  centredOn,
  clampPoint,
  clampToBounds,
  easeInOut,
  interpolateCamera,
  panBy,
  screenToWorld,
  steppedScale,
  viewRect,
  worldToCell,
  zoomAt,
  type Camera,
} from '#shared/tree/camera.ts';

const W = 800;
const H = 600;
const bounds = { x: -500, y: 100, width: 2000, height: 1000 };

describe('keeping the tree in reach at any zoom', () => {
  it('keeps the centre inside the bounds, and the window covers half its size in world pixels either side', () => {
    for (const scale of [0.5, 1.5, 2, 2.5]) {
      const halfW = W / 2 / scale;
      const halfH = H / 2 / scale;
      // Far past the right and bottom edges: the centre stops at that corner.
      expect(clampToBounds({ x: 9000, y: 9000, scale }, bounds, W, H)).toEqual({
        x: 1500 - halfW,
        y: 1100 - halfH,
        scale,
      });
      // Far past the left and top edges.
      expect(clampToBounds({ x: -9000, y: -9000, scale }, bounds, W, H)).toEqual({
        x: -500 - halfW,
        y: 100 - halfH,
        scale,
      });
      // Past one edge only: the other coordinate is kept.
      expect(clampToBounds({ x: 9000, y: 300, scale }, bounds, W, H)).toEqual({ x: 1500 - halfW, y: 300, scale });
      // Inside: nothing moves.
      const inside = { x: 100 - halfW, y: 500 - halfH, scale };
      expect(clampToBounds(inside, bounds, W, H)).toEqual(inside);
      const clamped = clampToBounds({ x: 9000, y: -9000, scale }, bounds, W, H);
      expect(cameraCentre(clamped, W, H)).toEqual({ x: 1500, y: 100 });
    }
  });

  it('gives the nearest point of a rectangle, its edges included', () => {
    const r = { x: 10, y: 20, width: 30, height: 40 };
    expect(clampPoint({ x: 0, y: 0 }, r)).toEqual({ x: 10, y: 20 });
    expect(clampPoint({ x: 100, y: 100 }, r)).toEqual({ x: 40, y: 60 });
    expect(clampPoint({ x: 25, y: 30 }, r)).toEqual({ x: 25, y: 30 });
    expect(clampPoint({ x: 40, y: 60 }, r)).toEqual({ x: 40, y: 60 });
    expect(clampPoint({ x: 25, y: 61 }, r)).toEqual({ x: 25, y: 60 });
    expect(clampPoint({ x: 9, y: 30 }, r)).toEqual({ x: 10, y: 30 });
  });

  it('shows more of the world zoomed out and pans it faster', () => {
    expect(viewRect({ x: 10, y: 20, scale: 0.5 }, W, H)).toEqual({ x: 10, y: 20, width: 1600, height: 1200 });
    expect(viewRect({ x: 10, y: 20, scale: 2.5 }, W, H)).toEqual({ x: 10, y: 20, width: 320, height: 240 });
    expect(panBy({ x: 0, y: 0, scale: 0.5 }, 100, -50)).toEqual({ x: -200, y: 100, scale: 0.5 });
    expect(panBy({ x: 0, y: 0, scale: 2.5 }, 100, -50)).toEqual({ x: -40, y: 20, scale: 2.5 });
  });

  it('centres a point at any allowed zoom, and clamps the zoom asked for', () => {
    for (const [asked, scale] of [
      [0.5, 0.5],
      [2, 2],
      [10, 2.5],
      [0.1, 0.5],
      [Number.POSITIVE_INFINITY, 1],
    ] as const) {
      const camera = centredOn({ x: 300, y: -40 }, asked, W, H);
      expect(camera.scale).toBe(scale);
      expect(cameraCentre(camera, W, H)).toEqual({ x: 300, y: -40 });
    }
  });

  it('keeps the point under the pointer when zooming from any zoom, within the allowed range', () => {
    const from: Camera = { x: 37, y: -12, scale: 1.5 };
    const anchor = { x: 123, y: 456 };
    for (const asked of [0.2, 0.5, 1, 2.5, 4]) {
      const zoomed = zoomAt(from, anchor, asked);
      expect(zoomed.scale).toBe(Math.min(2.5, Math.max(0.5, asked)));
      const before = screenToWorld(from, anchor);
      const after = screenToWorld(zoomed, anchor);
      expect(after.x).toBeCloseTo(before.x, 9);
      expect(after.y).toBeCloseTo(before.y, 9);
    }
  });
});

describe('zoom steps', () => {
  it('counts a scale a rounding error from a step as that step', () => {
    expect(steppedScale(1.5 - 1e-12, 1)).toBe(2);
    expect(steppedScale(1.5 + 1e-12, -1)).toBe(1);
    expect(steppedScale(1.5 + 1e-6, 1)).toBe(2);
    expect(steppedScale(1.5 - 1e-6, -1)).toBe(1);
    expect(steppedScale(2.4, 1)).toBe(2.5);
    expect(steppedScale(0.6, -1)).toBe(0.5);
    expect(steppedScale(2, 1)).toBe(2.5);
    expect(steppedScale(2, -1)).toBe(1.5);
  });

  it('says zooming is no longer possible a rounding error from either end', () => {
    expect(canZoomIn(2.5 - 1e-12)).toBe(false);
    expect(canZoomIn(2.4)).toBe(true);
    expect(canZoomIn(3)).toBe(false);
    expect(canZoomOut(0.5 + 1e-12)).toBe(false);
    expect(canZoomOut(0.6)).toBe(true);
    expect(canZoomOut(0.4)).toBe(false);
  });
});

describe('a camera flight', () => {
  const from: Camera = { x: 0, y: 0, scale: 0.5 };
  const to: Camera = { x: 2000, y: 1000, scale: 2.5 };
  const ends = () => ({ a: cameraCentre(from, W, H), b: cameraCentre(to, W, H) });

  it('starts and stops smoothly, symmetric about its middle', () => {
    expect(easeInOut(0)).toBe(0);
    expect(easeInOut(0.5)).toBe(0.5);
    expect(easeInOut(1)).toBe(1);
    expect(easeInOut(0.25)).toBeCloseTo(0.0625, 12);
    expect(easeInOut(0.75)).toBeCloseTo(0.9375, 12);
    for (const t of [0.1, 0.3, 0.45, 0.6]) expect(easeInOut(1 - t)).toBeCloseTo(1 - easeInOut(t), 12);
    let last = 0;
    for (let t = 0.05; t <= 1; t += 0.05) {
      expect(easeInOut(t)).toBeGreaterThan(last);
      last = easeInOut(t);
    }
  });

  it('glides the centre along the straight line, in both halves of the flight', () => {
    const { a, b } = ends();
    for (const t of [0, 0.25, 0.5, 0.6, 0.75, 0.9]) {
      const e = easeInOut(t);
      const camera = interpolateCamera(from, to, t, W, H);
      const centre = cameraCentre(camera, W, H);
      expect(centre.x, `t=${t}`).toBeCloseTo(a.x + (b.x - a.x) * e, 6);
      expect(centre.y, `t=${t}`).toBeCloseTo(a.y + (b.y - a.y) * e, 6);
      expect(camera.scale, `t=${t}`).toBeCloseTo(from.scale + (to.scale - from.scale) * e, 9);
    }
    // Three quarters of the way in time, nearly all the way there: the flight slows down before it lands.
    const late = cameraCentre(interpolateCamera(from, to, 0.75, W, H), W, H);
    expect(late.x).toBeCloseTo(a.x + (b.x - a.x) * 0.9375, 6);
  });

  it('is where it started before it starts, and where it ends at its end and after', () => {
    expect(interpolateCamera(from, to, -0.5, W, H)).toEqual(from);
    expect(interpolateCamera(from, to, 0, W, H)).toEqual(from);
    expect(interpolateCamera(from, to, 1, W, H)).toBe(to);
    expect(interpolateCamera(from, to, 1.5, W, H)).toBe(to);
    const almost = interpolateCamera(from, to, 0.999, W, H);
    expect(almost.scale).toBeCloseTo(to.scale, 6);
    expect(almost.x).toBeCloseTo(to.x, 3);
  });

  it('flies back the same way', () => {
    const there = interpolateCamera(from, to, 0.3, W, H);
    const back = interpolateCamera(to, from, 0.7, W, H);
    expect(back.scale).toBeCloseTo(there.scale, 9);
    expect(back.x).toBeCloseTo(there.x, 6);
    expect(back.y).toBeCloseTo(there.y, 6);
  });
});

describe('cells under the pointer', () => {
  it('counts a cell from its first pixel to its last, and not the gap after it', () => {
    expect(worldToCell({ x: 0, y: 0 })).toEqual({ row: 0, column: 0 });
    expect(worldToCell({ x: 99.99, y: 99.99 })).toEqual({ row: 0, column: 0 });
    expect(worldToCell({ x: 100, y: 0 })).toBeNull();
    expect(worldToCell({ x: 0, y: 100 })).toBeNull();
    expect(worldToCell({ x: 109.99, y: 0 })).toBeNull();
    expect(worldToCell({ x: 110, y: 110 })).toEqual({ row: 1, column: 1 });
    expect(worldToCell({ x: -110, y: -20 })).toEqual({ row: -1, column: -1 });
    expect(worldToCell({ x: -50, y: -10 })).toBeNull();
    expect(worldToCell({ x: -10, y: 0 })).toBeNull();
    expect(worldToCell({ x: -10.01, y: 0 })).toEqual({ row: 0, column: -1 });
  });
});
