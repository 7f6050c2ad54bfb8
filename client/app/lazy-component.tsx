/**
 * A component whose module the first view does not need (decision 043): it loads when first rendered, or in the
 * background after the first view (module-loader.ts, laterLoader), and shows `fallback` until it is here. No
 * <Suspense>, as for the tree page (module-loader.ts says why).
 */
import type { ComponentType, ReactNode } from 'react';
import { laterLoader, type ModuleLoader } from './module-loader.ts';
import { useLoaded } from './use-loaded.ts';

export interface LazyComponent<P> {
  (props: P): ReactNode;
  /** Its loader: start() fetches the module now (the page a visit opens at, say). */
  loader: ModuleLoader<ComponentType<P>>;
}

export function lazyComponent<P extends object>(
  load: () => Promise<ComponentType<P>>,
  fallback: ReactNode = null,
): LazyComponent<P> {
  const loader = laterLoader(load);
  const Lazy = (props: P) => {
    const Component = useLoaded(loader);
    return Component ? <Component {...props} /> : fallback;
  };
  Lazy.loader = loader;
  return Lazy;
}

/** What a page shows while its module arrives: the shell's loading line, busy, so focus waits for the heading. */
export const PAGE_LOADING = (
  <p className="shell__loading" aria-busy="true">
    Loading…
  </p>
);
