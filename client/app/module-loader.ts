/**
 * A component whose module loads in the background, rendered without <Suspense> (which holds content back up to
 * 300 ms after its fallback, delaying the tree's first frame). `start()` loads once however often it is called; no
 * React here, since client/tree/early-start.ts calls it before React has arrived. use-loaded.ts renders it.
 */
export interface ModuleLoader<T> {
  /** Starts the load (once) for something that waits for it, and answers its promise. */
  start: () => Promise<T>;
  /**
   * Starts the load ahead of need, nothing waiting for it: if it fails, the page is not reloaded for it
   * (client-updates.ts) and the next start() asks again.
   */
  prefetch: () => void;
  /** The loaded value, or null while it loads. */
  current: () => T | null;
}

/** How many started loads something waits for and that have not settled yet. */
let awaited = 0;

/** Whether something on the page waits for a module that is loading (a failed prefetch alone does not count). */
export function aLoadIsAwaited(): boolean {
  return awaited > 0;
}

export function moduleLoader<T>(load: () => Promise<T>): ModuleLoader<T> {
  let loaded: T | null = null;
  let promise: Promise<T> | null = null;
  let demanded = false;
  const begin = () => {
    if (!promise) {
      const attempt = load().then((value) => (loaded = value));
      promise = attempt;
      // A failed load is reported by what waits for it (useLoaded), not as an unhandled rejection; a failed prefetch
      // is forgotten, so that the visitor's own request asks again.
      attempt.catch(() => {
        if (!demanded && promise === attempt) promise = null;
      });
    }
    return promise;
  };
  return {
    start() {
      const attempt = begin();
      if (!demanded) {
        demanded = true;
        awaited++;
        // Settles after Vite's loader has told of a failure (vite:preloadError), which looks at aLoadIsAwaited().
        attempt.then(
          () => awaited--,
          () => awaited--,
        );
      }
      return attempt;
    },
    prefetch: () => void begin(),
    current: () => loaded,
  };
}

/** Loaders of modules the first view does not need, waiting for it to be on screen (firstViewShown). */
const waiting: ModuleLoader<unknown>[] = [];
let firstViewDone = false;

/** Runs `work` when the browser is idle (within a second at most), or soon where it cannot say when it is. */
function whenIdle(work: () => void): void {
  if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(work, { timeout: 1000 });
  else window.setTimeout(work, 200);
}

/**
 * A loader of a module the first view does not need (decision 043): it starts when something renders what it
 * loads, or in the background once the first view is on screen, whichever comes first.
 */
export function laterLoader<T>(load: () => Promise<T>): ModuleLoader<T> {
  const loader = moduleLoader(load);
  if (firstViewDone) whenIdle(loader.prefetch);
  else waiting.push(loader);
  return loader;
}

/**
 * The first view is on screen (on /observe the tree's first frame, or its notice; elsewhere the page's load event):
 * what the later loaders load now comes in, in the background, so that what the visitor opens next is already here.
 */
export function firstViewShown(): void {
  if (firstViewDone) return;
  firstViewDone = true;
  whenIdle(() => {
    for (const loader of waiting.splice(0)) loader.prefetch();
  });
}
