/** The component side of module-loader.ts: render what a ModuleLoader loads, once it is there, without <Suspense>. */
import { useEffect, useState } from 'react';
import type { ModuleLoader } from './module-loader.ts';

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
