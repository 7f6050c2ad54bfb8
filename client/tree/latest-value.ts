/**
 * A value the engine reports often (the zoom, at every frame of a zoom), held outside React's state so that a change
 * re-renders only the components that show it (useLatest), not the whole tree page with its survey and overlays.
 */
import { useSyncExternalStore } from 'react';

export class LatestValue<T> {
  private readonly listeners = new Set<() => void>();

  constructor(private value: T) {}

  readonly get = (): T => this.value;

  readonly set = (next: T): void => {
    if (Object.is(next, this.value)) return;
    this.value = next;
    for (const listener of this.listeners) listener();
  };

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };
}

/** The value now, re-rendering the calling component when it changes. */
export function useLatest<T>(source: LatestValue<T>): T {
  return useSyncExternalStore(source.subscribe, source.get);
}
