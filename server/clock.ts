/** Time as a dependency, so tests move it forward instead of waiting. Milliseconds since the epoch. */
export interface Clock {
  now: () => number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock tests can set and advance. */
export function manualClock(
  start = Date.UTC(2026, 0, 1),
): Clock & { set: (ms: number) => void; advance: (ms: number) => void } {
  let current = start;
  return {
    now: () => current,
    set: (ms) => {
      current = ms;
    },
    advance: (ms) => {
      current += ms;
    },
  };
}
