/**
 * A component whose module loads in the background, rendered without <Suspense>: React holds a suspended boundary's
 * content back for up to 300 ms after its fallback showed, which would delay the tree's first frame for nothing.
 * `start()` may be called early (client/tree/early-start.ts does, on /observe) and again later: the load runs once.
 */
import { useEffect, useState } from 'react';

export interface ModuleLoader<T> {
  /** Starts the load (once) and answers its promise. */
  start(): Promise<T>;
  /** The loaded value, or null while it loads. */
  current(): T | null;
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

/** The loaded value once it is there (at once if it already is); a failed load throws to the route's error page. */
export function useLoaded<T>(loader: ModuleLoader<T>): T | null {
  const [value, setValue] = useState<T | null>(() => loader.current());
  useEffect(() => {
    if (value) return;
    let live = true;
    loader.start().then(
      (loaded) => live && setValue(() => loaded),
      (error: unknown) =>
        live &&
        setValue(() => {
          throw error;
        }),
    );
    return () => {
      live = false;
    };
  }, [loader, value]);
  return value;
}
