/**
 * The tree's first sketch, page side: the opening view the server drew into the /observe page (decision 022) stays
 * where it is, never moved into the canvas, until the engine's first frame (or a reason not to draw) removes it.
 */

declare global {
  interface Window {
    /** When the sketch was removed (page time, ms), for the tests. */
    __treeSketch?: { removedAt: number | null };
  }
}

/** The longest the tree page's module waits for the sketch to be shown (sketchShown). */
const SKETCH_WAIT_MS = 400;

/** The sketch, once looked for: null when the page has none (any more). */
let sketch: HTMLElement | null | undefined;

function theSketch(): HTMLElement | null {
  if (sketch === undefined) sketch = document.querySelector<HTMLElement>('body > .tree-sketch');
  return sketch;
}

/**
 * Resolves once the sketch has been on screen (two animation frames after the first one that could paint it), or at
 * once when the page has none. The tree page's module waits for it: evaluating PixiJS is one long task, and were it
 * to run first, the frame that shows the sketch would wait behind it.
 */
export function sketchShown(): Promise<void> {
  if (!theSketch()) return Promise.resolve();
  return new Promise((resolve) => {
    requestAnimationFrame(() => requestAnimationFrame(() => resolve()));
    // A page opened in a background tab has no frames: it does not wait for them.
    setTimeout(resolve, SKETCH_WAIT_MS);
  });
}

/**
 * Removes the sketch (the engine drew, or the tree will not be drawn here: the page left, a failed fetch, no WebGL).
 * It is there once only: a later visit to the tree within the app has the engine at once.
 */
export function removeSketch(): void {
  const found = theSketch();
  if (!found) return;
  found.remove();
  sketch = null;
  window.__treeSketch = { removedAt: performance.now() };
}
