import { describe, expect, it } from 'vitest';
import { bandStarts, DEFAULT_TREE_SETTINGS, dividerRows } from '#shared/tree/geometry.ts';
import { CELL_PITCH, CELL_SIZE } from '#shared/tree/camera.ts';
import { bandStrips } from '#shared/tree/layout.ts';

const settings = DEFAULT_TREE_SETTINGS;
const bounds = { x: -5 * CELL_PITCH, y: 0, width: 30 * CELL_PITCH, height: 40 * CELL_PITCH };
const GAP = CELL_PITCH - CELL_SIZE;

describe('bandStrips (what the engine and the first sketch both paint)', () => {
  const { strips, dividers } = bandStrips(settings, bounds);

  it('lays the ground from the roots divider to well below the tree, wider than the tree on both sides', () => {
    const ground = strips[0]!;
    expect(ground.kind).toBe('ground');
    expect(ground.y).toBe(bandStarts(settings).roots * CELL_PITCH - GAP);
    expect(ground.y + ground.height).toBe(bounds.y + bounds.height + 20 * CELL_PITCH);
    expect(ground.x).toBeLessThan(bounds.x);
    expect(ground.x + ground.width).toBeGreaterThan(bounds.x + bounds.width);
  });

  it('gives each divider a strip filling the gap above its row, with a thin line along its middle', () => {
    const rows = dividerRows(settings);
    expect(dividers.map((d) => d.name)).toEqual(rows.map((r) => r.name));
    rows.forEach((divider, i) => {
      const band = strips[1 + 2 * i]!;
      const line = strips[2 + 2 * i]!;
      expect(band).toMatchObject({ kind: 'band', y: divider.row * CELL_PITCH - GAP, height: GAP });
      expect(line.kind).toBe('line');
      expect(line.y + line.height / 2).toBeCloseTo(band.y + GAP / 2);
      expect(dividers[i]!.labelY).toBe(band.y + GAP / 2);
    });
    expect(strips).toHaveLength(1 + 2 * rows.length);
  });
});
