/** The overview charts' arithmetic (client/admin/chart-scale.ts): round axis tops, bars and line points in the plot. */
import { describe, expect, it } from 'vitest';
import { barsFor, linePoints, niceMax, slotCentre } from '#client/admin/chart-scale.ts';

const AREA = { left: 10, top: 5, width: 100, height: 50 };

describe('niceMax', () => {
  it('rounds the largest value up to 1, 2 or 5 times a power of ten', () => {
    expect(niceMax([])).toBe(1);
    expect(niceMax([0, 0])).toBe(1);
    expect(niceMax([1])).toBe(1);
    expect(niceMax([3, 2])).toBe(5);
    expect(niceMax([12])).toBe(20);
    expect(niceMax([50])).toBe(50);
    expect(niceMax([51])).toBe(100);
    expect(niceMax([100])).toBe(100);
    expect(niceMax([101])).toBe(200);
  });
});

describe('barsFor', () => {
  it('gives each value a bar rising from the bottom edge, as tall as its share of the top', () => {
    const bars = barsFor([0, 5, 10], AREA, 10);
    expect(bars.map((bar) => bar.height)).toEqual([0, 25, 50]);
    expect(bars.map((bar) => bar.y + bar.height)).toEqual([55, 55, 55]);
    expect(bars[2]!.y).toBe(AREA.top);
    // Evenly spaced, each inside its own slot, centred on it.
    bars.forEach((bar, index) => {
      expect(bar.x + bar.width / 2).toBeCloseTo(slotCentre(index, 3, AREA));
      expect(bar.x).toBeGreaterThanOrEqual(AREA.left + (index * AREA.width) / 3);
    });
  });

  it('draws nothing for no values and never a negative bar', () => {
    expect(barsFor([], AREA)).toEqual([]);
    expect(barsFor([-3], AREA, 10)[0]!.height).toBe(0);
  });
});

describe('linePoints', () => {
  it('places each point at its slot centre and its value’s height', () => {
    expect(linePoints([0, 10], AREA, 10)).toBe('35,55 85,5');
  });
});
