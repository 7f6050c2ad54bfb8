/**
 * The growth history for the replay (decision 023): each piece now published, in publish order, with rows and times as
 * differences (small in growth order) so a million pieces travel; positions, not snapshot indices, so it fits any
 * snapshot the page holds. Served by GET /api/tree/{token}/history and tRPC tree.history.
 */
import { differences, jsonBytes } from './json-bytes.ts';

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

/** An hour: the replay's finest step, and coarse enough that most pieces are 0 steps after the previous one. */
export const HISTORY_STEP_MS = 60 * 60 * 1000;

/** The published pieces in publish order, as parallel columns (what the encoder takes and the decoder gives back). */
export interface TreeHistoryPieces {
  count: number;
  row: Int32Array;
  column: Int32Array;
  /** Unix ms: exact on the way in; the start of the piece's step on the way out. */
  at: Float64Array;
}

/** Encodes pieces already sorted by publish time (then row, column); see TreeHistoryWire. */
export function encodeHistory(
  header: { token: string; version: number },
  pieces: TreeHistoryPieces,
  step = HISTORY_STEP_MS,
): TreeHistoryWire {
  const { count } = pieces;
  const row = new Array<number>(count);
  const col = new Array<number>(count);
  const time = new Array<number>(count);
  const start = count > 0 ? Math.floor(pieces.at[0]! / step) * step : 0;
  let previousRow = 0;
  let previousStep = start / step;
  for (let i = 0; i < count; i++) {
    const current = Math.floor(pieces.at[i]! / step);
    if (current < previousStep) throw new RangeError(`Piece ${i} was published before the piece ahead of it.`);
    row[i] = pieces.row[i]! - previousRow;
    col[i] = pieces.column[i]!;
    time[i] = current - previousStep;
    previousRow = pieces.row[i]!;
    previousStep = current;
  }
  return { format: HISTORY_FORMAT, token: header.token, version: header.version, start, step, count, row, col, time };
}

/**
 * As encodeHistory, as the JSON text's bytes between `before` and `after` (exactly JSON.stringify of its answer),
 * written straight from the typed arrays: a ten-million-cell tree's 8.5 million pieces as three arrays of numbers
 * and a string took over 400 MB to make (decision 045).
 */
export function encodeHistoryBytes(
  header: { token: string; version: number },
  pieces: TreeHistoryPieces,
  before = '',
  after = '',
  step = HISTORY_STEP_MS,
): Uint8Array {
  const { count } = pieces;
  const start = count > 0 ? Math.floor(pieces.at[0]! / step) * step : 0;
  const stepOf = (i: number) => (i < 0 ? start / step : Math.floor(pieces.at[i]! / step));
  for (let i = 0; i < count; i++) {
    if (stepOf(i) < stepOf(i - 1)) throw new RangeError(`Piece ${i} was published before the piece ahead of it.`);
  }
  const head = JSON.stringify({
    format: HISTORY_FORMAT,
    token: header.token,
    version: header.version,
    start,
    step,
    count,
  });
  return jsonBytes([
    `${before}${head.slice(0, -1)},"row":`,
    differences(count, (i) => pieces.row[i]!),
    ',"col":',
    { count, at: (i) => pieces.column[i]! },
    ',"time":',
    { count, at: (i) => stepOf(i) - stepOf(i - 1) },
    `}${after}`,
  ]);
}

/** Positions and times (each the start of its step) of the history's pieces, in publish order. */
export function decodeHistory(wire: TreeHistoryWire): TreeHistoryPieces {
  const { count } = wire;
  if (wire.row.length !== count || wire.col.length !== count || wire.time.length !== count) {
    throw new RangeError("The history's columns do not all hold `count` pieces.");
  }
  const row = new Int32Array(count);
  const column = new Int32Array(count);
  const at = new Float64Array(count);
  let currentRow = 0;
  let currentTime = wire.start;
  for (let i = 0; i < count; i++) {
    currentRow += wire.row[i]!;
    currentTime += wire.time[i]! * wire.step;
    row[i] = currentRow;
    column[i] = wire.col[i]!;
    at[i] = currentTime;
  }
  return { count, row, column, at };
}
