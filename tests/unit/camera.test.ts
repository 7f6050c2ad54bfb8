import { describe, expect, it } from 'vitest';
import {
  canZoomIn,
  canZoomOut,
  cellCentre,
  cellToWorld,
  centredOn,
  clampScale,
  clampToBounds,
  panBy,
  screenToWorld,
  steppedScale,
  viewRect,
  worldToCell,
  worldToScreen,
  zoomAt,
  type Camera,
} from '#shared/tree/camera.ts';

const camera: Camera = { x: 100, y: -50, scale: 2 };

describe('screen and world coordinates', () => {
  it('maps the camera corner to the screen origin', () => {
    expect(worldToScreen(camera, { x: 100, y: -50 })).toEqual({ x: 0, y: 0 });
  });

  it('scales distances by the zoom', () => {
    expect(worldToScreen(camera, { x: 110, y: -40 })).toEqual({ x: 20, y: 20 });
  });

  it('round-trips screen → world → screen', () => {
    for (const point of [
      { x: 0, y: 0 },
      { x: 317, y: 42.5 },
      { x: -80, y: 999 },
    ]) {
      const back = worldToScreen(camera, screenToWorld(camera, point));
      expect(back.x).toBeCloseTo(point.x, 9);
      expect(back.y).toBeCloseTo(point.y, 9);
    }
  });

  it('gives the world rectangle the screen shows', () => {
    expect(viewRect(camera, 800, 600)).toEqual({ x: 100, y: -50, width: 400, height: 300 });
  });
});

describe('zoom', () => {
  it('keeps the world point under the anchor fixed', () => {
    const anchor = { x: 240, y: 130 };
    const before = screenToWorld(camera, anchor);
    const zoomed = zoomAt(camera, anchor, 0.5);
    const after = screenToWorld(zoomed, anchor);
    expect(zoomed.scale).toBe(0.5);
    expect(after.x).toBeCloseTo(before.x, 9);
    expect(after.y).toBeCloseTo(before.y, 9);
  });

  it('clamps the scale to 0.5 .. 2.5', () => {
    expect(clampScale(0.1)).toBe(0.5);
    expect(clampScale(7)).toBe(2.5);
    expect(clampScale(1.25)).toBe(1.25);
    expect(clampScale(Number.NaN)).toBe(1);
    expect(zoomAt(camera, { x: 0, y: 0 }, 10).scale).toBe(2.5);
  });

  it('steps by 0.5 and stops at each end', () => {
    expect(steppedScale(1, 1)).toBe(1.5);
    expect(steppedScale(1, -1)).toBe(0.5);
    expect(steppedScale(2.5, 1)).toBe(2.5);
    expect(steppedScale(0.5, -1)).toBe(0.5);
  });

  it('snaps an in-between scale (after a pinch) to the next step on the grid', () => {
    expect(steppedScale(1.2, 1)).toBe(1.5);
    expect(steppedScale(1.2, -1)).toBe(1);
    expect(steppedScale(0.75, -1)).toBe(0.5);
  });

  it('says when zooming in or out is no longer possible', () => {
    expect(canZoomIn(2.5)).toBe(false);
    expect(canZoomOut(2.5)).toBe(true);
    expect(canZoomOut(0.5)).toBe(false);
    expect(canZoomIn(0.5)).toBe(true);
  });
});

describe('panning and centring', () => {
  it('moves the world with a drag: dragging right shows what was to the left', () => {
    const moved = panBy(camera, 40, -20);
    expect(moved).toEqual({ x: 80, y: -40, scale: 2 });
  });

  it('centres a world point in the viewport', () => {
    const centred = centredOn({ x: 500, y: 300 }, 1, 800, 600);
    expect(worldToScreen(centred, { x: 500, y: 300 })).toEqual({ x: 400, y: 300 });
  });

  it('keeps the view centre inside the bounds', () => {
    const bounds = { x: 0, y: 0, width: 1000, height: 1000 };
    const far = clampToBounds({ x: 5000, y: -5000, scale: 1 }, bounds, 800, 600);
    expect(far).toEqual({ x: 1000 - 400, y: -300, scale: 1 });
    const inside = { x: 100, y: 100, scale: 1 };
    expect(clampToBounds(inside, bounds, 800, 600)).toEqual(inside);
  });
});

describe('cells in the world', () => {
  it('places cell (row, column) at column × 110, row × 110 with size 100', () => {
    expect(cellToWorld(0, 0)).toEqual({ x: 0, y: 0, width: 100, height: 100 });
    expect(cellToWorld(3, -2)).toEqual({ x: -220, y: 330, width: 100, height: 100 });
    expect(cellCentre(1, 1)).toEqual({ x: 160, y: 160 });
  });

  it('finds the cell under a world point, and none in the gap', () => {
    expect(worldToCell({ x: 5, y: 5 })).toEqual({ row: 0, column: 0 });
    expect(worldToCell({ x: 115, y: 225 })).toEqual({ row: 2, column: 1 });
    expect(worldToCell({ x: -60, y: 50 })).toEqual({ row: 0, column: -1 });
    expect(worldToCell({ x: -5, y: 50 })).toBeNull();
    expect(worldToCell({ x: 105, y: 50 })).toBeNull();
    expect(worldToCell({ x: 50, y: 100 })).toBeNull();
  });
});
