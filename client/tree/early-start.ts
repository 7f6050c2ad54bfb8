/**
 * The tree page's head start. On a visit that opens at /observe, the app's entry imports this module first, so it
 * runs before the rest of the app is even evaluated (React, the routes, the signed-in user's round trip): the
 * snapshot is asked for at once, fetched and decoded in the worker, off the page's main thread, and the tree page's
 * module (with PixiJS) starts loading, while the app shell boots. Meanwhile the visitor already sees the tree: the
 * server drew its opening view into the page (server/services/tree/tree-sketch.ts). The tree page then takes the snapshot
 * already on its way instead of asking again.
 */
import { readInjectedBoot } from '#client/api/initial-params.ts';
import { treePageLoader } from '#client/pages/tree-page-loader.ts';
import { requestEarlySnapshot } from './snapshot-requests.ts';
import { TREE_PAGE_PATH } from '#shared/tree/tree-url.ts';

export function startTreePageEarly(treeToken: string | null, pathname = window.location.pathname): void {
  if (pathname !== TREE_PAGE_PATH) return;
  // A mark for the benchmark's breakdown of the first frame (tests/bench/tree-canvas.bench.ts).
  performance.mark('tree:early');
  void treePageLoader.start();
  if (treeToken) requestEarlySnapshot(treeToken);
}

/**
 * Runs `start` once the page's <body> exists: the built page loads this module with an async script, which may run
 * while the page is still being parsed (the boot parameters sit at the end of <head>, so they are there by then).
 */
function onceBodyIsThere(start: () => void): void {
  if (document.body) return start();
  const observer = new MutationObserver(() => {
    if (!document.body) return;
    observer.disconnect();
    start();
  });
  observer.observe(document.documentElement, { childList: true });
}

// Under the dev server the page has no injected parameters yet: the tree page then asks for its snapshot itself.
onceBodyIsThere(() => startTreePageEarly(readInjectedBoot()?.params.treeToken ?? null));
