/**
 * The tree page's module (it brings PixiJS): loaded in the background, early when the visit opens at /observe, once
 * the tree's first sketch is on screen (client/tree/tree-sketch.ts sketchShown; at once without one). The canvas's
 * module, which the tree page imports when it runs, is asked for at the same moment (decision 043): the two come
 * side by side instead of one after the other.
 */
import { moduleLoader } from '#client/app/module-loader.ts';
import { sketchShown } from '#client/tree/tree-sketch.ts';

export const treePageLoader = moduleLoader(() =>
  sketchShown()
    .then(() => {
      // Its failure, if any, is reported where the page waits for it (client/tree/tree-view.tsx).
      import('#client/tree/tree-canvas.tsx').catch(() => undefined);
      return import('./tree-page.tsx');
    })
    .then((module) => module.TreePage),
);
