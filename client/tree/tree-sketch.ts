/**
 * The tree's first sketch, page side. On a first visit to /observe the server has drawn the opening view into the
 * page (server/services/tree/tree-sketch.ts): fixed under the header, across the window, so the visitor sees the tree
 * with the page's first paint while the app boots and WebGL starts. It stays where it is, over the tree area (under
 * the header and the tree's panel: global.css), until the engine's first frame removes it; leaving the page, a failed
 * fetch or a browser that cannot draw the tree removes it too. It is never moved into the tree canvas: moving it
 * would have the browser paint it again, which costs the engine's first frame a few hundred milliseconds in software
 * rendering. It is only ever there once: a later visit to the tree within the app has the engine at once.
 *
 * window.__treeSketch records when it was removed (page time, ms), for the tests.
 */

declare global {
  interface Window {
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

/** Removes the sketch (the engine drew, or the tree will not be drawn here). */
export function removeSketch(): void {
  const found = theSketch();
  if (!found) return;
  found.remove();
  sketch = null;
  window.__treeSketch = { removedAt: performance.now() };
}
