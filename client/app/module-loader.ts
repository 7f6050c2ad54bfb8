/**
 * A component whose module loads in the background, rendered without <Suspense> (which holds content back up to
 * 300 ms after its fallback, delaying the tree's first frame). `start()` loads once however often it is called; no
 * React here, since client/tree/early-start.ts calls it before React has arrived. use-loaded.ts renders it.
 */
export interface ModuleLoader<T> {
  /** Starts the load (once) and answers its promise. */
  start: () => Promise<T>;
  /** The loaded value, or null while it loads. */
  current: () => T | null;
}

export function moduleLoader<T>(load: () => Promise<T>): ModuleLoader<T> {
  let loaded: T | null = null;
  let promise: Promise<T> | null = null;
  return {
    start() {
      if (!promise) {
        promise = load().then((value) => (loaded = value));
        // A failed load is reported by the component that waits for it (useLoaded), not as an unhandled rejection.
        promise.catch(() => undefined);
      }
      return promise;
    },
    current: () => loaded,
  };
}
