/**
 * Answers whose JSON text the server already holds (a tree's snapshot or growth history, kept as bytes): the tRPC
 * short path (http/trpc-routes.ts) writes those bytes instead of stringifying a million-cell object again on the
 * event loop. Keyed by the object a procedure returns, so callers in-process still get a plain object.
 */
const textOf = new WeakMap<object, Buffer>();

export function keepJsonText(value: object, json: Buffer): void {
  textOf.set(value, json);
}

export function jsonTextOf(value: unknown): Buffer | undefined {
  return typeof value === 'object' && value !== null ? textOf.get(value) : undefined;
}
