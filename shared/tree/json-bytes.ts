/**
 * JSON text written straight into bytes, for the tree's largest answers (the snapshot and the growth history): a
 * ten-million-cell tree's columns as JavaScript arrays and then one string cost the build several times the answer's
 * own size (decision 045). The bytes are exactly what JSON.stringify would give for the same object.
 */

/** A column of whole numbers, written as a JSON array: the `i`-th is `at(i)`. */
export interface IntegerList {
  count: number;
  at: (i: number) => number;
}

/** Text (any JSON already written), bytes taken as they are (ASCII), or a column of whole numbers. */
export type JsonPart = string | Uint8Array | IntegerList;

const MINUS = 45;
const ZERO = 48;
const COMMA = 44;
const OPEN = 91;
const CLOSE = 93;

/** The length of a whole number's decimal text. */
function integerLength(n: number): number {
  if (!Number.isSafeInteger(n)) throw new RangeError(`A column holds whole numbers, not ${n}.`);
  let length = n < 0 ? 2 : 1;
  for (let rest = Math.abs(n); rest >= 10; rest = Math.floor(rest / 10)) length++;
  return length;
}

/** Writes a whole number's decimal text at `at`; returns the position after it. */
function writeInteger(bytes: Uint8Array, at: number, n: number): number {
  let end = at + integerLength(n);
  const stop = n < 0 ? at + 1 : at;
  if (n < 0) bytes[at] = MINUS;
  let rest = Math.abs(n);
  const after = end;
  do {
    bytes[--end] = ZERO + (rest % 10);
    rest = Math.floor(rest / 10);
  } while (end > stop);
  return after;
}

function listLength(list: IntegerList): number {
  let length = 2 + Math.max(0, list.count - 1);
  for (let i = 0; i < list.count; i++) length += integerLength(list.at(i));
  return length;
}

/** The parts one after another in one exactly sized buffer (so a worker can hand it over whole). */
export function jsonBytes(parts: readonly JsonPart[]): Uint8Array {
  const text = new TextEncoder();
  const pieces = parts.map((part) => (typeof part === 'string' ? text.encode(part) : part));
  let length = 0;
  for (const piece of pieces) length += piece instanceof Uint8Array ? piece.length : listLength(piece);
  const out = new Uint8Array(length);
  let at = 0;
  for (const piece of pieces) {
    if (piece instanceof Uint8Array) {
      out.set(piece, at);
      at += piece.length;
      continue;
    }
    out[at++] = OPEN;
    for (let i = 0; i < piece.count; i++) {
      if (i > 0) out[at++] = COMMA;
      at = writeInteger(out, at, piece.at(i));
    }
    out[at++] = CLOSE;
  }
  return out;
}

/** A column given as differences from the previous value (the first as it is). */
export function differences(count: number, value: (i: number) => number): IntegerList {
  return { count, at: (i) => (i === 0 ? value(0) : value(i) - value(i - 1)) };
}
