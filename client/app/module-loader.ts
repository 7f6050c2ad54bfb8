/**
 * A component whose module loads in the background, rendered without <Suspense>: React holds a suspended boundary's
 * content back for up to 300 ms after its fallback showed, which would delay the tree's first frame for nothing.
 * `start()` may be called early (client/tree/early-start.ts does, on /observe) and again later: the load runs once.
 * No React here: the early start runs before React has arrived. The component side is use-loaded.ts.
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
