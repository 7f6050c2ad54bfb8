/**
 * What the page's controls cover of the tree's canvas (client/tree/engine/covered-insets.ts), and the keyboard's
 * reveal inside what is left (cameraRevealing): a square the focus moves to, or one centred, is never under the
 * toolbar along the top or the replay's button along the bottom.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CELL_PITCH, CELL_SIZE, cellCentre, worldToScreen, type Camera, type Rect } from '#shared/tree/camera.ts';
import {
  centredInUncovered,
  coveredInsets,
  NO_INSETS,
  uncoveredViewRect,
  type Insets,
} from '#client/tree/engine/covered-insets.ts';
import { cameraRevealing } from '#client/tree/engine/keyboard-focus.ts';

/** A wide screen's canvas under the site's header, with the toolbar at its top right and Replay growth at its bottom left. */
const CANVAS: Rect = { x: 0, y: 65, width: 1280, height: 735 };
const TOOLBAR: Rect = { x: 640, y: 77, width: 628, height: 48 };
const REPLAY: Rect = { x: 12, y: 748, width: 140, height: 40 };

/** A square's rectangle on the canvas, in CSS pixels from the canvas's top left corner. */
function screenRectOf(camera: Camera, row: number, column: number): Rect {
  const corner = worldToScreen(camera, { x: column * CELL_PITCH, y: row * CELL_PITCH });
  return { x: corner.x, y: corner.y, width: CELL_SIZE * camera.scale, height: CELL_SIZE * camera.scale };
}

/** The canvas's uncovered rectangle, in the same CSS pixels. */
function uncoveredOnScreen(width: number, height: number, insets: Insets): Rect {
  return {
    x: insets.left,
    y: insets.top,
    width: width - insets.left - insets.right,
    height: height - insets.top - insets.bottom,
  };
}

function inside(inner: Rect, outer: Rect): boolean {
  const slack = 1e-6;
  return (
    inner.x >= outer.x - slack &&
    inner.y >= outer.y - slack &&
    inner.x + inner.width <= outer.x + outer.width + slack &&
    inner.y + inner.height <= outer.y + outer.height + slack
  );
}

function overlaps(a: Rect, b: Rect): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

describe('the insets the controls cover', () => {
  it('counts a toolbar in a top corner against the top edge and a button in a bottom corner against the bottom', () => {
    expect(coveredInsets(CANVAS, [TOOLBAR, REPLAY])).toEqual({ top: 60, right: 0, bottom: 52, left: 0 });
  });

  it('counts nothing for a box beside the canvas (the phone toolbar strip above it) or a hidden one', () => {
    const strip: Rect = { x: 8, y: 8, width: 374, height: 57 };
    expect(coveredInsets(CANVAS, [strip, { x: 100, y: 300, width: 0, height: 0 }])).toEqual(NO_INSETS);
  });

  it('counts a tall box along a side against that side, and keeps the deepest box of each edge', () => {
    const side: Rect = { x: 0, y: 100, width: 90, height: 600 };
    const searchUnderToolbar: Rect = { x: 860, y: 133, width: 408, height: 50 };
    expect(coveredInsets(CANVAS, [side, TOOLBAR, searchUnderToolbar])).toEqual({
      top: 118,
      right: 0,
      bottom: 0,
      left: 90,
    });
  });

  it('never lets the insets take more than half of the canvas together, shrinking each in proportion', () => {
    const deepTop: Rect = { x: 0, y: 65, width: 600, height: 300 };
    const deepBottom: Rect = { x: 700, y: 600, width: 500, height: 200 };
    const insets = coveredInsets(CANVAS, [deepTop, deepBottom]);
    expect(insets.top + insets.bottom).toBeCloseTo(CANVAS.height / 2);
    expect(insets.top / insets.bottom).toBeCloseTo(300 / 200);
    expect(insets.left + insets.right).toBe(0);
  });
});

describe('revealing and centring in what is left', () => {
  const insets: Insets = { top: 60, right: 0, bottom: 52, left: 0 };
  const { width, height } = CANVAS;

  it('centres a square in the middle of the uncovered part of the canvas', () => {
    const camera = centredInUncovered(cellCentre(10, 3), 0.5, width, height, insets);
    const centre = worldToScreen(camera, cellCentre(10, 3));
    expect(centre.x).toBeCloseTo(width / 2);
    expect(centre.y).toBeCloseTo(60 + (height - 60 - 52) / 2);
    const seen = uncoveredViewRect(camera, width, height, insets);
    expect(seen.y).toBeCloseTo(camera.y + 60 / 0.5);
    expect(seen.height).toBeCloseTo((height - 112) / 0.5);
  });

  it('moves the view just enough for a square under the toolbar to be clear of it, with its margin', () => {
    // At the smallest zoom, the square's margin (a pitch: 55 CSS pixels) is less than the toolbar's depth.
    const camera: Camera = { x: 0, y: 0, scale: 0.5 };
    const moved = cameraRevealing(camera, width, height, insets, { row: 0, column: 20 }, false);
    const square = screenRectOf(moved, 0, 20);
    expect(square.y).toBeCloseTo(60 + CELL_PITCH * 0.5);
    expect(overlaps({ ...square, x: square.x + CANVAS.x, y: square.y + CANVAS.y }, TOOLBAR)).toBe(false);
    // Without insets the same square stops a margin below the canvas's top edge: under the toolbar.
    const before = screenRectOf(
      cameraRevealing(camera, width, height, NO_INSETS, { row: 0, column: 20 }, false),
      0,
      20,
    );
    expect(before.y).toBeCloseTo(CELL_PITCH * 0.5);
    expect(overlaps({ ...before, x: before.x + CANVAS.x, y: before.y + CANVAS.y }, TOOLBAR)).toBe(true);
  });

  it('brings any square wholly into the uncovered part, and centres one that could not be seen there', () => {
    fc.assert(
      fc.property(
        fc.record({
          scale: fc.constantFrom(0.5, 1, 1.5, 2, 2.5),
          x: fc.integer({ min: -3000, max: 3000 }),
          y: fc.integer({ min: -3000, max: 3000 }),
          row: fc.integer({ min: -40, max: 40 }),
          column: fc.integer({ min: -40, max: 40 }),
          top: fc.integer({ min: 0, max: 150 }),
          bottom: fc.integer({ min: 0, max: 150 }),
          left: fc.integer({ min: 0, max: 150 }),
          right: fc.integer({ min: 0, max: 150 }),
          centre: fc.boolean(),
        }),
        ({ scale, x, y, row, column, top, bottom, left, right, centre }) => {
          const covered: Insets = { top, bottom, left, right };
          const camera = cameraRevealing({ x, y, scale }, width, height, covered, { row, column }, centre);
          expect(camera.scale).toBe(scale);
          expect(inside(screenRectOf(camera, row, column), uncoveredOnScreen(width, height, covered))).toBe(true);
        },
      ),
      { numRuns: 400 },
    );
  });
});
