/**
 * The SVG Pen the server draws the tree's first sketch with (server/services/tree/tree-sketch.ts): PixiJS's path rule
 * (a fill then a stroke share one path; the next shape starts a new one), lone rectangles and circles as their own
 * elements, strokes kept inside an edge, and line paints in a row with the same style sharing one element.
 */
import { describe, expect, it } from 'vitest';
import { SvgPen } from '#server/services/tree/tree-sketch.ts';

describe('SvgPen', () => {
  it('fills and strokes the same shape, and starts a new one after painting', () => {
    const pen = new SvgPen();
    pen.rect(0, 0, 100, 100).fill({ color: 0xfdfcf9 }).stroke({ width: 2, color: 0x2e6b57 });
    pen.moveTo(10, 50).lineTo(90, 50).stroke({ width: 2, color: 0x2e6b57, alpha: 0.45, cap: 'square' });
    expect(pen.markup()).toBe(
      '<rect x="0" y="0" width="100" height="100" fill="#fdfcf9"/>' +
        '<rect x="0" y="0" width="100" height="100" fill="none" stroke="#2e6b57" stroke-width="2"/>' +
        '<path fill="none" stroke="#2e6b57" stroke-width="2" stroke-opacity="0.45" stroke-linecap="square" d="M10 50L90 50"/>',
    );
  });

  it('keeps a stroke with alignment 1 inside the edge, on rectangles and circles', () => {
    const pen = new SvgPen();
    pen.rect(110, 0, 100, 100).stroke({ width: 2.5, color: 0x2e6b57, alignment: 1 });
    pen.circle(50, 50, 7).stroke({ width: 2, color: 0x8a6a4a, alignment: 1 });
    expect(pen.markup()).toBe(
      '<rect x="111.25" y="1.25" width="97.5" height="97.5" fill="none" stroke="#2e6b57" stroke-width="2.5"/>' +
        '<circle cx="50" cy="50" r="6" fill="none" stroke="#8a6a4a" stroke-width="2"/>',
    );
  });

  it('joins line paints in a row with the same style into one path, and only in a row', () => {
    const pen = new SvgPen();
    const line = { width: 2, color: 0x112233 };
    pen.moveTo(0, 0).lineTo(10, 10).stroke(line);
    pen.moveTo(20, 0).lineTo(30, 10).stroke(line);
    pen.rect(0, 0, 100, 100).fill({ color: 0x445566, alpha: 0.85 });
    pen.moveTo(40, 0).lineTo(50, 10).stroke(line);
    pen.rect(0, 0, 10, 10).rect(20, 0, 10, 10).fill({ color: 0x112233 });
    expect(pen.markup()).toBe(
      '<path fill="none" stroke="#112233" stroke-width="2" d="M0 0L10 10M20 0L30 10"/>' +
        '<rect x="0" y="0" width="100" height="100" fill="#445566" fill-opacity="0.85"/>' +
        '<path fill="none" stroke="#112233" stroke-width="2" d="M40 0L50 10"/>' +
        '<path fill="#112233" d="M0 0h10v10h-10zM20 0h10v10h-10z"/>',
    );
  });
});
