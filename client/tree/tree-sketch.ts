/**
 * The tree's first sketch, page side. On a first visit to /observe the early start (early-start.ts) places a plain
 * canvas where the tree will be and hands its drawing surface to the snapshot worker, which paints the opening view
 * there as soon as the snapshot is decoded (sketch-drawing.ts): the visitor sees the tree while the app boots and
 * WebGL starts, instead of an empty page. The tree canvas adopts the sketch when it mounts, and the engine's first
 * frame removes it; leaving the page, a failed fetch or a browser that cannot draw the tree removes it too.
 *
 * window.__treeSketch records when it was placed, drawn and shown (page time, ms), for the benchmark.
 */
import type { SketchTarget } from './sketch-drawing.ts';
import type { UrlView } from './tree-url.ts';

export interface SketchTimes {
  /** The placed canvas has been through a rendering of the page (the next frame after it). */
  placedAt: number | null;
  drawnAt: number | null;
  /** The worker's frame after the one that committed the drawing. */
  shownAt: number | null;
  removedAt: number | null;
}

declare global {
  interface Window {
    __treeSketch?: SketchTimes;
  }
}

/**
 * Where the tree area starts, before the app's own layout exists: under the header's bar (global.css
 * --header-height, 4rem unless the stylesheet says otherwise) and its 1px bottom rule (header.css).
 */
function treeTop(): number {
  const root = getComputedStyle(document.documentElement);
  const rem = parseFloat(root.fontSize) || 16;
  const declared = root.getPropertyValue('--header-height').trim();
  const value = parseFloat(declared);
  const bar = !Number.isFinite(value) ? 4 * rem : declared.endsWith('rem') ? value * rem : value;
  return bar + 1;
}

let canvas: HTMLCanvasElement | null = null;

/**
 * Places the sketch's canvas under the header, across the window, and answers what the worker needs to draw on it;
 * null where the browser cannot hand a canvas to a worker, or when the address names a cell by token (only the
 * engine can find where that is on a large tree).
 */
export function placeSketch(view: UrlView): SketchTarget | null {
  if (typeof OffscreenCanvas === 'undefined' || !('transferControlToOffscreen' in HTMLCanvasElement.prototype) || view.kind === 'cell') return null;
  const top = treeTop();
  const width = document.documentElement.clientWidth;
  const height = window.innerHeight - top;
  if (width <= 0 || height <= 0) return null;
  const pixelRatio = Math.min(2, Math.max(1, window.devicePixelRatio || 1));
  const placed = document.createElement('canvas');
  placed.className = 'tree-sketch';
  placed.setAttribute('aria-hidden', 'true');
  placed.width = Math.round(width * pixelRatio);
  placed.height = Math.round(height * pixelRatio);
  // Inline: the stylesheets may not be here yet. The tree canvas takes it over with the tree-sketch class's rules.
  placed.style.cssText = `position:fixed;left:0;top:${top}px;width:${width}px;height:${height}px;pointer-events:none;z-index:1`;
  document.body.append(placed);
  canvas = placed;
  const times: SketchTimes = { placedAt: null, drawnAt: null, shownAt: null, removedAt: null };
  window.__treeSketch = times;
  requestAnimationFrame(() => requestAnimationFrame(() => (times.placedAt = performance.now())));
  const surface = placed.transferControlToOffscreen();
  return {
    canvas: surface,
    width,
    height,
    pixelRatio,
    view: view.kind === 'position' ? { row: view.row, column: view.column, scale: view.scale } : null,
  };
}

/** The worker drew and showed the sketch (its times are ms since the epoch). */
export function recordSketchShown(sketch: { drawnAt: number; shownAt: number }): void {
  const times = window.__treeSketch;
  if (!times) return;
  times.drawnAt = sketch.drawnAt - performance.timeOrigin;
  times.shownAt = sketch.shownAt - performance.timeOrigin;
}

/** The tree canvas mounted: the sketch lies over it, at its size, until the engine's first frame. */
export function adoptSketch(host: HTMLElement): void {
  if (!canvas) return;
  canvas.style.cssText = '';
  host.append(canvas);
}

/** Removes the sketch (the engine drew, or the tree will not be drawn here). */
export function removeSketch(): void {
  if (!canvas) return;
  canvas.remove();
  canvas = null;
  if (window.__treeSketch) window.__treeSketch.removedAt = performance.now();
}
