/**
 * The tree page's module (it brings PixiJS): loaded in the background, early when the visit opens at /observe, once
 * the tree's first sketch is on screen (client/tree/tree-sketch.ts sketchShown; at once without one).
 */
import { moduleLoader } from '#client/app/module-loader.ts';
import { sketchShown } from '#client/tree/tree-sketch.ts';

export const treePageLoader = moduleLoader(() =>
  sketchShown()
    .then(() => import('./tree-page.tsx'))
    .then((module) => module.TreePage),
);
