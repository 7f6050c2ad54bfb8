/**
 * The tree's growth history (issue 17's replay): when each piece now published was published, in publish order,
 * compact enough to travel for a million pieces (rows and times as differences from the previous piece, which the
 * growth order keeps small). Positions, not snapshot indices, so it fits whatever version of the snapshot the page
 * holds. Served by GET /api/tree/{token}/history and tRPC tree.history.
 */
export const HISTORY_FORMAT = 1;

export interface TreeHistoryWire {
  format: typeof HISTORY_FORMAT;
  token: string;
  /** The tree version the history was read at. */
  version: number;
  /** Unix ms of the first step (the first publish, rounded down to a whole step); 0 when nothing is published. */
  start: number;
  /** Milliseconds per step of `time` (an hour). */
  step: number;
  count: number;
  /** Row of each piece as the difference from the previous piece's row (the first is absolute). */
  row: number[];
  /** Column of each piece, absolute. */
  col: number[];
  /** Steps since the previous piece (the first: steps since `start`). */
  time: number[];
}
