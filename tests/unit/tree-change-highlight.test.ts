/**
 * The outline round squares a live change just touched (client/tree/engine/change-highlight.ts), drawn into a real
 * PixiJS Graphics: only squares on screen, fading out over FADE_MS, one clock for every batch still fading.
 */
import { describe, expect, it } from 'vitest';
import { CELL_PITCH, CELL_SIZE, type Rect } from '#shared/tree/camera.ts';
import { PALETTE } from '#shared/tree/cell-look.ts';
import { ChangeHighlight, FADE_MS } from '#client/tree/engine/change-highlight.ts';
import { paintsOf } from '../helpers/pixi-paint.ts';

/** Rows and columns 0 to 9 in world pixels. */
const VIEW: Rect = { x: 0, y: 0, width: 10 * CELL_PITCH, height: 10 * CELL_PITCH };

const outlined = (highlight: ChangeHighlight) =>
  paintsOf(highlight.graphics).flatMap((paint) =>
    paint.shapes.map((shape) => ({ row: (shape.y + 4) / CELL_PITCH, column: (shape.x + 4) / CELL_PITCH })),
  );

describe('the change highlight', () => {
  it('outlines the changed squares that are on screen, four pixels outside each, in the viewer colour', () => {
    const highlight = new ChangeHighlight();
    highlight.show([{ row: 2, column: 3 }], VIEW, 1000);
    expect(highlight.active).toBe(true);
    expect(highlight.step(1000)).toBe(true);
    expect(paintsOf(highlight.graphics)).toEqual([
      {
        action: 'stroke',
        color: PALETTE.mine,
        alpha: 1,
        width: 4,
        shapes: [
          {
            type: 'rectangle',
            x: 3 * CELL_PITCH - 4,
            y: 2 * CELL_PITCH - 4,
            width: CELL_SIZE + 8,
            height: CELL_SIZE + 8,
          },
        ],
      },
    ]);
  });

  it('leaves out squares off screen, and starts nothing when none is on it', () => {
    const highlight = new ChangeHighlight();
    highlight.show(
      [
        { row: -1, column: 0 },
        { row: 0, column: 10 },
        { row: 40, column: 40 },
      ],
      VIEW,
      0,
    );
    expect(highlight.active).toBe(false);
    // A square only partly in view counts: its edge shows.
    highlight.show(
      [
        { row: 9, column: 9 },
        { row: 0, column: 10 },
      ],
      { ...VIEW, x: 1 },
      0,
    );
    highlight.step(0);
    expect(outlined(highlight)).toEqual([
      { row: 9, column: 9 },
      { row: 0, column: 10 },
    ]);
  });

  it('fades out over FADE_MS, then draws nothing and is done', () => {
    const highlight = new ChangeHighlight();
    highlight.show([{ row: 1, column: 1 }], VIEW, 500);
    highlight.step(500 + FADE_MS / 4);
    expect(paintsOf(highlight.graphics)[0]!.alpha).toBeCloseTo(0.75);
    highlight.step(500 + FADE_MS / 2);
    expect(paintsOf(highlight.graphics)[0]!.alpha).toBeCloseTo(0.5);
    expect(highlight.step(500 + FADE_MS)).toBe(false);
    expect(highlight.graphics.context.instructions).toEqual([]);
    expect(highlight.active).toBe(false);
  });

  it('restarts the clock for squares still fading when a new batch arrives', () => {
    const highlight = new ChangeHighlight();
    highlight.show([{ row: 1, column: 1 }], VIEW, 0);
    highlight.show([{ row: 2, column: 2 }], VIEW, FADE_MS - 100);
    expect(highlight.step(FADE_MS + 100)).toBe(true);
    expect(outlined(highlight)).toEqual([
      { row: 1, column: 1 },
      { row: 2, column: 2 },
    ]);
  });

  it('outlines at most the last 400 squares of a bulk change', () => {
    const highlight = new ChangeHighlight();
    const many = Array.from({ length: 500 }, (_, i) => ({ row: Math.floor(i / 50) % 10, column: i % 10 }));
    highlight.show(many, VIEW, 0);
    highlight.step(0);
    expect(outlined(highlight)).toHaveLength(400);
    expect(outlined(highlight)[0]).toEqual({ row: many[100]!.row, column: many[100]!.column });
  });

  it('forgets everything on clear (a new tree, the replay)', () => {
    const highlight = new ChangeHighlight();
    highlight.show([{ row: 1, column: 1 }], VIEW, 0);
    highlight.step(0);
    highlight.clear();
    expect(highlight.active).toBe(false);
    expect(highlight.graphics.context.instructions).toEqual([]);
  });
});
