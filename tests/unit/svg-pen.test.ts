/**
 * The SVG Pen the server draws the tree's first sketch with (server/services/tree-sketch.ts): PixiJS's path rule (a
 * fill then a stroke share one path; the next shape starts a new one), strokes kept inside an edge, and paints in a
 * row with the same style sharing one element.
 */
import { describe, expect, it } from 'vitest';
import { SvgPen } from '#server/services/tree-sketch.ts';

describe('SvgPen', () => {
  it('fills and strokes the same path, and starts a new one after painting', () => {
    const pen = new SvgPen();
    pen.rect(0, 0, 100, 100).fill({ color: 0xfdfcf9 }).stroke({ width: 2, color: 0x2e6b57 });
    pen.moveTo(10, 50).lineTo(90, 50).stroke({ width: 2, color: 0x2e6b57, alpha: 0.45, cap: 'round' });
    expect(pen.markup()).toBe(
      '<path fill="#fdfcf9" d="M0 0h100v100h-100z"/>' +
        '<path fill="none" stroke="#2e6b57" stroke-width="2" d="M0 0h100v100h-100z"/>' +
        '<path fill="none" stroke="#2e6b57" stroke-width="2" stroke-opacity="0.45" stroke-linecap="round" d="M10 50L90 50"/>',
    );
  });

  it('keeps a stroke with alignment 1 inside the edge, on rectangles and circles', () => {
    const pen = new SvgPen();
    pen.rect(110, 0, 100, 100).stroke({ width: 2.5, color: 0x2e6b57, alignment: 1 });
    pen.circle(50, 50, 7).stroke({ width: 2, color: 0x8a6a4a, alignment: 1 });
    expect(pen.markup()).toBe(
      '<path fill="none" stroke="#2e6b57" stroke-width="2.5" d="M111.25 1.25h97.5v97.5h-97.5z"/>' +
        '<path fill="none" stroke="#8a6a4a" stroke-width="2" d="M56 50a6 6 0 1 0 -12 0a6 6 0 1 0 12 0z"/>',
    );
  });

  it('joins paints in a row with the same style into one element, and only in a row', () => {
    const pen = new SvgPen();
    pen.rect(0, 0, 100, 100).fill({ color: 0x112233 });
    pen.rect(110, 0, 100, 100).fill({ color: 0x112233 });
    pen.rect(220, 0, 100, 100).fill({ color: 0x445566, alpha: 0.85 });
    pen.rect(330, 0, 100, 100).fill({ color: 0x112233 });
    expect(pen.markup()).toBe(
      '<path fill="#112233" d="M0 0h100v100h-100zM110 0h100v100h-100z"/>' +
        '<path fill="#445566" fill-opacity="0.85" d="M220 0h100v100h-100z"/>' +
        '<path fill="#112233" d="M330 0h100v100h-100z"/>',
    );
  });
});
