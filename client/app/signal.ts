/**
 * Tells its listeners that something changed, outside React's state (the router's moves, the tree's view): a component
 * follows it through useSyncExternalStore, so a change re-renders only those that follow it.
 */
export class Signal {
  private readonly listeners = new Set<() => void>();

  /** Adds a listener; returns its removal (bound, as React's external store takes it). */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };

  emit(): void {
    for (const listener of this.listeners) listener();
  }
}
