/**
 * The marks over the squares (client/tree/engine/marks.ts), drawn into a real PixiJS Graphics: the viewer's own
 * squares (a reserved one tinted too), the square a find brought into view, and the keyboard's focus.
 */
import { describe, expect, it } from 'vitest';
import { CellStatus } from '#shared/domain.ts';
import { CELL_PITCH, CELL_SIZE } from '#shared/tree/camera.ts';
import { PALETTE } from '#shared/tree/cell-look.ts';
import { MarkLayer } from '#client/tree/engine/marks.ts';
import { paintsOf, type Paint } from '../helpers/pixi-paint.ts';

const at = (row: number, column: number) => ({ x: column * CELL_PITCH, y: row * CELL_PITCH });
const outer = (paints: Paint[]) => {
  const shapes = paints.flatMap((paint) => paint.shapes);
  const left = Math.min(...shapes.map((s) => s.x));
  const top = Math.min(...shapes.map((s) => s.y));
  return {
    left,
    top,
    right: Math.max(...shapes.map((s) => s.x + s.width)),
    bottom: Math.max(...shapes.map((s) => s.y + s.height)),
  };
};

describe('the marks', () => {
  it('draws nothing when there is nothing to mark', () => {
    const layer = new MarkLayer();
    layer.draw({ mine: [], target: null, focus: null });
    expect(layer.graphics.context.instructions).toEqual([]);
  });

  it('frames a square of the viewer’s in ochre and tints it only while it is reserved', () => {
    const layer = new MarkLayer();
    layer.draw({ mine: [{ row: 3, column: 1, status: CellStatus.Reserved }], target: null, focus: null });
    const reserved = paintsOf(layer.graphics);
    const { x, y } = at(3, 1);
    expect(reserved[0]).toEqual({
      action: 'fill',
      color: PALETTE.mine,
      alpha: 0.28,
      width: undefined,
      shapes: [{ type: 'rectangle', x, y, width: CELL_SIZE, height: CELL_SIZE }],
    });
    expect(reserved[1]).toMatchObject({ action: 'stroke', color: PALETTE.mine, width: 4 });
    expect(reserved[1]!.shapes).toEqual([
      { type: 'rectangle', x: x - 2, y: y - 2, width: CELL_SIZE + 4, height: CELL_SIZE + 4 },
    ]);

    layer.draw({ mine: [{ row: 3, column: 1, status: CellStatus.Published }], target: null, focus: null });
    const published = paintsOf(layer.graphics);
    expect(published.some((paint) => paint.action === 'fill' && paint.alpha === 0.28)).toBe(false);
    // The frame and the corner flag stay, in the top-left corner.
    expect(published[0]).toMatchObject({ action: 'stroke', color: PALETTE.mine });
    expect(published[1]!.shapes[0]).toMatchObject({ type: 'polygon', x: x - 2, y: y - 2, width: 32, height: 32 });
  });

  it('haloes the square a find centred, well outside it, in the accent colour', () => {
    const layer = new MarkLayer();
    layer.draw({ mine: [], target: { row: 10, column: -3 }, focus: null });
    const paints = paintsOf(layer.graphics);
    expect(paints.every((paint) => paint.action === 'stroke' && paint.color === PALETTE.target)).toBe(true);
    const { x, y } = at(10, -3);
    expect(outer(paints)).toEqual({ left: x - 26, top: y - 26, right: x + CELL_SIZE + 26, bottom: y + CELL_SIZE + 26 });
  });

  it('brackets the keyboard’s focus seven pixels outside the square, in ink over a light ring', () => {
    const layer = new MarkLayer();
    layer.draw({ mine: [], target: null, focus: { row: 0, column: 0 } });
    const paints = paintsOf(layer.graphics);
    expect(paints.map((paint) => paint.color)).toEqual([PALETTE.background, PALETTE.ink, PALETTE.ink]);
    expect(outer(paints)).toEqual({ left: -7, top: -7, right: CELL_SIZE + 7, bottom: CELL_SIZE + 7 });
  });

  it('draws again from scratch: a mark taken away is gone', () => {
    const layer = new MarkLayer();
    layer.draw({ mine: [], target: { row: 1, column: 1 }, focus: { row: 2, column: 2 } });
    layer.draw({ mine: [], target: null, focus: { row: 2, column: 2 } });
    expect(paintsOf(layer.graphics).some((paint) => paint.color === PALETTE.target)).toBe(false);
    // The focus is drawn last, above the viewer's squares and the target.
    layer.draw({
      mine: [{ row: 2, column: 2, status: CellStatus.Reserved }],
      target: { row: 2, column: 2 },
      focus: { row: 2, column: 2 },
    });
    expect(paintsOf(layer.graphics).at(-1)).toMatchObject({ color: PALETTE.ink, width: 4 });
  });
});
