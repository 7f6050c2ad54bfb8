/**
 * What the tree page tells its parts outside React's state, so that a change re-renders only those that follow it:
 * a signal that the view or the tree's content changed (the survey follows it), and values the engine reports often,
 * such as the zoom at every frame of a zoom (only the panel's zoom controls show it; useLatest).
 */
import { useSyncExternalStore } from 'react';

/** Tells its listeners that the view or what the tree holds changed (the page calls it on every camera move). */
export class ViewSignal {
  private readonly listeners = new Set<() => void>();

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };

  emit(): void {
    for (const listener of this.listeners) listener();
  }
}

/** A value whose listeners hear each change. */
export class LatestValue<T> extends ViewSignal {
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
