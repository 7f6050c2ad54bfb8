/** Likes, views and follower counts as shown: never below 0 (spec §4), whatever a race left on screen. */
export const atLeastZero = (n: number) => Math.max(0, n);
