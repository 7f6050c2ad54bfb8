/** The tree page's module (it brings PixiJS): loaded in the background, early when the visit opens at /observe. */
import { moduleLoader } from '#client/app/module-loader.ts';

export const treePageLoader = moduleLoader(() => import('./tree-page.tsx').then((module) => module.TreePage));
