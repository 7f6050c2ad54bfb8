/**
 * The outline of the square under the mouse (client/tree/engine/hover-outline.ts), drawn into a real PixiJS Graphics:
 * a thin ring just outside the square, moved only when the mouse reaches another square.
 */
import { describe, expect, it } from 'vitest';
import { CELL_PITCH, CELL_SIZE } from '#shared/tree/camera.ts';
import { PALETTE } from '#shared/tree/cell-look.ts';
import { HoverOutline } from '#client/tree/engine/hover-outline.ts';
import { paintsOf } from '../helpers/pixi-paint.ts';

describe('the hover outline', () => {
  it('rings the square three world pixels outside its edge, in the ink colour, half seen', () => {
    const outline = new HoverOutline();
    expect(outline.show({ row: 4, column: -2 })).toBe(true);
    expect(paintsOf(outline.graphics)).toEqual([
      {
        action: 'stroke',
        color: PALETTE.ink,
        alpha: 0.55,
        width: 2,
        shapes: [
          {
            type: 'rectangle',
            x: -2 * CELL_PITCH - 3,
            y: 4 * CELL_PITCH - 3,
            width: CELL_SIZE + 6,
            height: CELL_SIZE + 6,
          },
        ],
      },
    ]);
    outline.destroy();
  });

  it('answers false, and draws nothing new, while the mouse stays on the same square', () => {
    const outline = new HoverOutline();
    outline.show({ row: 1, column: 1 });
    const drawn = outline.graphics.context.instructions[0];
    expect(outline.show({ row: 1, column: 1 })).toBe(false);
    expect(outline.graphics.context.instructions).toEqual([drawn]);
    outline.destroy();
  });

  it('moves to the next square, leaving no ring behind, and clears when the mouse leaves the tree', () => {
    const outline = new HoverOutline();
    outline.show({ row: 1, column: 1 });
    expect(outline.show({ row: 1, column: 2 })).toBe(true);
    const shapes = paintsOf(outline.graphics).flatMap((paint) => paint.shapes);
    expect(shapes.map((shape) => shape.x)).toEqual([2 * CELL_PITCH - 3]);
    expect(outline.show(null)).toBe(true);
    expect(outline.graphics.context.instructions).toEqual([]);
    expect(outline.show(null)).toBe(false);
    outline.destroy();
  });
});
