/** Likes, views and follower counts as shown: never below 0 (decision 015), whatever a race left on screen. */
export const atLeastZero = (n: number) => Math.max(0, n);
