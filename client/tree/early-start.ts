/**
 * The tree page's head start (decision 016): imported first by the app's entry, so on /observe the snapshot is asked
 * for, and the tree page's module starts loading, before the rest of the app is even evaluated.
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
