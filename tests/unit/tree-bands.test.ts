/**
 * The divider bands on the canvas (client/tree/engine/bands.ts): the strips painted into a real PixiJS Graphics in the
 * world, in their kinds' colours, and the rule that places each band's label in screen space (labelPlacement): at
 * the left edge, centred on its band's line at any zoom, shown only while its line is on screen or just past an edge.
 * The labels' text itself needs a browser to measure, so it is made only once placed (the first frame).
 */
import { describe, expect, it } from 'vitest';
import { CELL_PITCH, worldToScreen, type Camera } from '#shared/tree/camera.ts';
import { STRIP_COLOURS } from '#shared/tree/cell-look.ts';
import { DEFAULT_TREE_SETTINGS as settings } from '#shared/tree/geometry.ts';
import { bandStrips } from '#shared/tree/layout.ts';
import { DividerBands, labelPlacement } from '#client/tree/engine/bands.ts';
import { paintsOf } from '../helpers/pixi-paint.ts';

const world = { x: -5 * CELL_PITCH, y: 0, width: 30 * CELL_PITCH, height: 40 * CELL_PITCH };

describe('the band strips', () => {
  it('paints every strip of the layout, ground first, each in its kind’s colour', () => {
    const bands = new DividerBands(settings, world);
    const { strips } = bandStrips(settings, world);
    const paints = paintsOf(bands.strips);
    expect(paints.map((paint) => paint.color)).toEqual(strips.map((strip) => STRIP_COLOURS[strip.kind]));
    expect(paints.every((paint) => paint.action === 'fill')).toBe(true);
    expect(paints.map((paint) => paint.shapes[0])).toEqual(
      strips.map(({ x, y, width, height }) => ({
        type: 'rectangle',
        x: Math.round(x * 100) / 100,
        y: Math.round(y * 100) / 100,
        width: Math.round(width * 100) / 100,
        height: Math.round(height * 100) / 100,
      })),
    );
    // No label is made (no text measured) until the labels are placed.
    expect(bands.labels.children).toEqual([]);
    bands.destroy();
  });
});

describe('where a band’s label goes', () => {
  const { dividers } = bandStrips(settings, world);
  const seed = dividers.find((divider) => divider.name === 'seed')!;

  it('sits ten pixels from the left edge with its 18-pixel pill centred on the band’s line', () => {
    const camera: Camera = { x: -300, y: seed.labelY - 400, scale: 1 };
    expect(labelPlacement(camera, seed.labelY, 800)).toEqual({ x: 10, y: 400 - 9, visible: true });
  });

  it('follows the line at every zoom and wherever the camera is across', () => {
    for (const scale of [0.5, 0.75, 1, 2]) {
      for (const x of [-10_000, 0, 5_000]) {
        const camera: Camera = { x, y: seed.labelY - 300 / scale, scale };
        const line = worldToScreen(camera, { x: 0, y: seed.labelY }).y;
        const placed = labelPlacement(camera, seed.labelY, 800);
        expect(placed.x).toBe(10);
        expect(placed.y).toBe(Math.round(line - 9));
        expect(line).toBeCloseTo(300);
      }
    }
  });

  it('shows while the line is on screen or within 20 pixels past an edge, and hides beyond', () => {
    const at = (screenY: number) => labelPlacement({ x: 0, y: seed.labelY - screenY, scale: 1 }, seed.labelY, 800);
    expect(at(0).visible).toBe(true);
    expect(at(-19).visible).toBe(true);
    expect(at(-20).visible).toBe(false);
    expect(at(-500).visible).toBe(false);
    expect(at(800).visible).toBe(true);
    expect(at(819).visible).toBe(true);
    expect(at(820).visible).toBe(false);
  });
});
