/**
 * A WebM as MediaRecorder writes it names no duration: it is written as it is recorded, before its length is known,
 * so a player shows it as endless (a <video>'s duration is Infinity) and will not seek until it has read it all. This
 * writes the duration into the file's Info element (Matroska's Segment > Info > Duration, a float in TimestampScale
 * units), so players show the length and seek at once. Plain bytes, no browser API: unit-tested in Node.
 *
 * Only the simple layout live recorders write is changed: the EBML header, then a Segment whose Info comes before any
 * SeekHead or Cluster. A SeekHead holds byte positions that moving the Info would break, so a file with one before its
 * Info (or any layout not understood) is answered as it is, still playable.
 */

const EBML_HEADER = 0x1a45dfa3;
const SEGMENT = 0x18538067;
const INFO = 0x1549a966;
const DURATION = 0x4489;
const TIMESTAMP_SCALE = 0x2ad7b1;
const SEEK_HEAD = 0x114d9b74;
const CLUSTER = 0x1f43b675;
/** Matroska's default TimestampScale: a millisecond, in nanoseconds. */
const DEFAULT_SCALE = 1_000_000;

interface Element {
  id: number;
  /** Where the element starts, where its size starts, where its data starts and ends (`end` null: size unknown). */
  start: number;
  sizeAt: number;
  dataAt: number;
  end: number | null;
}

/** A variable-length integer of EBML at `at`: its value (`marker`: with its length marker, as IDs are read). */
function readVint(bytes: Uint8Array, at: number, marker: boolean): { value: number; length: number; unknown: boolean } {
  const first = bytes[at];
  if (first === undefined || first === 0) throw new RangeError('not an EBML integer');
  // A byte's leading zeros give the integer's length: 1xxxxxxx is one byte, 00000001 eight.
  const length = Math.clz32(first) - 23;
  if (at + length > bytes.length) throw new RangeError('cut short');
  let value = marker ? first : first & (0xff >> length);
  let unknown = !marker && value === 0xff >> length;
  for (let k = 1; k < length; k++) {
    const byte = bytes[at + k]!;
    value = value * 256 + byte;
    unknown &&= byte === 0xff;
  }
  return { value, length, unknown };
}

function readElement(bytes: Uint8Array, at: number): Element {
  const id = readVint(bytes, at, true);
  const size = readVint(bytes, at + id.length, false);
  const dataAt = at + id.length + size.length;
  const end = size.unknown ? null : dataAt + size.value;
  if (end !== null && end > bytes.length) throw new RangeError('cut short');
  return { id: id.value, start: at, sizeAt: at + id.length, dataAt, end };
}

/** A size as an eight-byte EBML integer (any size a file here can have fits). */
function sizeBytes(size: number): Uint8Array {
  const out = new Uint8Array(8);
  out[0] = 0x01;
  let rest = size;
  for (let k = 7; k >= 1; k--) {
    out[k] = rest % 256;
    rest = Math.floor(rest / 256);
  }
  return out;
}

function readUint(bytes: Uint8Array, from: number, to: number): number {
  let value = 0;
  for (let k = from; k < to; k++) value = value * 256 + bytes[k]!;
  return value;
}

/** `bytes` with the duration written in (`durationMs` milliseconds), or `bytes` itself where it cannot be. */
export function withWebmDuration(bytes: Uint8Array<ArrayBuffer>, durationMs: number): Uint8Array<ArrayBuffer> {
  if (!Number.isFinite(durationMs) || durationMs <= 0) return bytes;
  try {
    const header = readElement(bytes, 0);
    if (header.id !== EBML_HEADER || header.end === null) return bytes;
    const segment = readElement(bytes, header.end);
    if (segment.id !== SEGMENT) return bytes;
    const segmentEnd = segment.end ?? bytes.length;
    let info: Element | null = null;
    for (let at = segment.dataAt; at < segmentEnd && !info;) {
      const child = readElement(bytes, at);
      if (child.id === SEEK_HEAD || child.id === CLUSTER || child.end === null) return bytes;
      if (child.id === INFO) info = child;
      at = child.end;
    }
    if (!info || info.end === null) return bytes;

    let scale = DEFAULT_SCALE;
    let duration: Element | null = null;
    for (let at = info.dataAt; at < info.end;) {
      const child = readElement(bytes, at);
      if (child.end === null) return bytes;
      if (child.id === TIMESTAMP_SCALE) scale = readUint(bytes, child.dataAt, child.end) || DEFAULT_SCALE;
      if (child.id === DURATION) duration = child;
      at = child.end;
    }
    const value = (durationMs * 1_000_000) / scale;

    // A Duration already there: written over in place, at its own width.
    if (duration && duration.end !== null) {
      const out = bytes.slice();
      const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
      const width = duration.end - duration.dataAt;
      if (width === 8) view.setFloat64(duration.dataAt, value);
      else if (width === 4) view.setFloat32(duration.dataAt, value);
      else return bytes;
      return out;
    }

    // Else a Duration (ID, size 8, a big-endian float64) is added at the end of Info, whose size grows by it, as
    // does the Segment's when it is known (a live recording's usually is not).
    const added = new Uint8Array(11);
    added.set([0x44, 0x89, 0x88]);
    new DataView(added.buffer).setFloat64(3, value);
    const infoSize = sizeBytes(info.end - info.dataAt + added.length);
    const pieces: Uint8Array[] = [bytes.subarray(0, segment.sizeAt)];
    if (segment.end === null) pieces.push(bytes.subarray(segment.sizeAt, segment.dataAt));
    else {
      const grown = segment.end - segment.dataAt + added.length + infoSize.length - (info.dataAt - info.sizeAt);
      pieces.push(sizeBytes(grown));
    }
    pieces.push(
      bytes.subarray(segment.dataAt, info.sizeAt),
      infoSize,
      bytes.subarray(info.dataAt, info.end),
      added,
      bytes.subarray(info.end),
    );
    const out = new Uint8Array(pieces.reduce((sum, piece) => sum + piece.length, 0));
    let at = 0;
    for (const piece of pieces) {
      out.set(piece, at);
      at += piece.length;
    }
    return out;
  } catch {
    return bytes;
  }
}
