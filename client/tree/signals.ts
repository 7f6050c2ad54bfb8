/**
 * Values the engine reports often, held outside React's state, such as the zoom at every frame of a zoom: only the
 * components that show it re-render (the panel's zoom controls; useLatest), not the whole tree page. The page's
 * signal that the view or the tree's content changed (the survey follows it) is a plain Signal.
 */
import { useSyncExternalStore } from 'react';
import { Signal } from '#client/app/signal.ts';

/** A value whose listeners hear each change. */
export class LatestValue<T> extends Signal {
  constructor(private value: T) {
    super();
  }

  readonly get = (): T => this.value;

  readonly set = (next: T): void => {
    if (Object.is(next, this.value)) return;
    this.value = next;
    this.emit();
  };
}

/** The value now, re-rendering the calling component when it changes. */
export function useLatest<T>(source: LatestValue<T>): T {
  return useSyncExternalStore(source.subscribe, source.get);
}
