/**
 * The arithmetic of the overview's charts, apart from drawing: a "nice" top for the value axis and the positions
 * of bars and line points inside a plot area. Pure, so the charts stay simple SVG.
 */

export interface PlotArea {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** The smallest of 1, 2, 5 × 10^n at or above the largest value (at least 1), so the axis reads in round numbers. */
export function niceMax(values: readonly number[]): number {
  const largest = Math.max(1, ...values);
  const magnitude = 10 ** Math.floor(Math.log10(largest));
  for (const step of [1, 2, 5, 10]) {
    if (step * magnitude >= largest) return step * magnitude;
  }
  return 10 * magnitude;
}

export interface Bar {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** One bar per value, evenly spaced across the area, each rising from its bottom edge. */
export function barsFor(values: readonly number[], area: PlotArea, top = niceMax(values)): Bar[] {
  if (values.length === 0) return [];
  const slot = area.width / values.length;
  const width = Math.max(1, slot * 0.7);
  return values.map((value, index) => {
    const height = (Math.max(0, value) / top) * area.height;
    return { x: area.left + index * slot + (slot - width) / 2, y: area.top + area.height - height, width, height };
  });
}

/** The x of the centre of each value's slot: shared by bars and lines so a week sits at the same place on both. */
export function slotCentre(index: number, count: number, area: PlotArea): number {
  return area.left + (index + 0.5) * (area.width / Math.max(1, count));
}

/** Where each value sits on a line chart: its slot's centre, at its share of the top. */
export function pointsFor(
  values: readonly number[],
  area: PlotArea,
  top = niceMax(values),
): { x: number; y: number }[] {
  return values.map((value, index) => ({
    x: round(slotCentre(index, values.length, area)),
    y: round(area.top + area.height - (Math.max(0, value) / top) * area.height),
  }));
}

/** The points of a line through the values, as an SVG `points` attribute. */
export function linePoints(values: readonly number[], area: PlotArea, top = niceMax(values)): string {
  return pointsFor(values, area, top)
    .map(({ x, y }) => `${x},${y}`)
    .join(' ');
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}
