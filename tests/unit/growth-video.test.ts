/**
 * The growth as a video (decision 049), the parts without a browser: the duration written into a WebM as
 * MediaRecorder leaves it (none named), the video's size under its caps, and the file's name.
 */
import { describe, expect, it } from 'vitest';
import { withWebmDuration } from '#client/tree/replay/webm-duration.ts';
import { VIDEO_LIMITS, videoFileName, videoSize } from '#client/tree/replay/growth-video.ts';

/** An EBML element: its ID's bytes, its size (null: unknown, as a live recording writes its Segment) and its data. */
function element(id: number[], data: number[], size: number | null = data.length): number[] {
  const sizeBytes = size === null ? [0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff] : [0x80 | size];
  return [...id, ...sizeBytes, ...data];
}

const EBML = element([0x1a, 0x45, 0xdf, 0xa3], [...element([0x42, 0x82], [...new TextEncoder().encode('webm')])]);
const SCALE = element([0x2a, 0xd7, 0xb1], [0x0f, 0x42, 0x40]);
const APP = element([0x4d, 0x80], [0x43, 0x68]);
const TRACKS = element([0x16, 0x54, 0xae, 0x6b], [0xae, 0x80]);
const CLUSTER = element([0x1f, 0x43, 0xb6, 0x75], [0xe7, 0x81, 0x00], null);

function webm(
  info: number[],
  segmentSize: 'unknown' | 'known' = 'unknown',
  before: number[] = [],
): Uint8Array<ArrayBuffer> {
  const body = [...before, ...element([0x15, 0x49, 0xa9, 0x66], info), ...TRACKS, ...CLUSTER];
  return new Uint8Array([
    ...EBML,
    ...element([0x18, 0x53, 0x80, 0x67], body, segmentSize === 'known' ? body.length : null),
  ]);
}

/** The Duration (float, in TimestampScale units) of a file's Info, found by its ID; null when it has none. */
function durationOf(bytes: Uint8Array): number | null {
  for (let at = 0; at + 3 < bytes.length; at++) {
    if (bytes[at] !== 0x44 || bytes[at + 1] !== 0x89) continue;
    const view = new DataView(bytes.buffer, bytes.byteOffset + at + 3);
    return bytes[at + 2] === 0x88 ? view.getFloat64(0) : view.getFloat32(0);
  }
  return null;
}

describe('the duration written into a recorded WebM', () => {
  it('is added to an Info that has none, its size grown, the rest of the file unchanged after it', () => {
    const before = webm([...SCALE, ...APP]);
    const after = withWebmDuration(before, 4321);
    expect(durationOf(before)).toBeNull();
    expect(durationOf(after)).toBe(4321);
    // Info's size is written again on eight bytes and grows by the Duration's eleven.
    expect(after.length).toBe(before.length + 11 + 7);
    expect([...after.subarray(after.length - TRACKS.length - CLUSTER.length)]).toEqual([...TRACKS, ...CLUSTER]);
    const infoAt = after.indexOf(0x15);
    expect([...after.subarray(infoAt, infoAt + 4)]).toEqual([0x15, 0x49, 0xa9, 0x66]);
    expect(after[infoAt + 4]).toBe(0x01);
    expect(after[infoAt + 11]).toBe(SCALE.length + APP.length + 11);
  });

  it('follows the TimestampScale the file names', () => {
    const scale = element([0x2a, 0xd7, 0xb1], [0x01, 0xe8, 0x48]); // 125,000 ns: eight ticks a millisecond
    expect(durationOf(withWebmDuration(webm([...scale, ...APP]), 1000))).toBe(8000);
  });

  it('writes over a Duration already there, at its own width', () => {
    const old = element([0x44, 0x89], [0x40, 0x00, 0x00, 0x00]);
    const after = withWebmDuration(webm([...SCALE, ...old, ...APP]), 2500);
    expect(durationOf(after)).toBe(2500);
    expect(after.length).toBe(webm([...SCALE, ...old, ...APP]).length);
  });

  it('grows a Segment whose size is known', () => {
    const after = withWebmDuration(webm([...SCALE, ...APP], 'known'), 1000);
    const segmentAt = EBML.length;
    expect(after[segmentAt + 4]).toBe(0x01);
    let size = 0;
    for (let k = 5; k < 12; k++) size = size * 256 + after[segmentAt + k]!;
    expect(segmentAt + 12 + size).toBe(after.length);
  });

  it('leaves a file it does not understand as it is: a SeekHead before Info, not a WebM, cut short', () => {
    const seekHead = element([0x11, 0x4d, 0x9b, 0x74], [0xec, 0x80]);
    const withSeekHead = webm([...SCALE, ...APP], 'unknown', seekHead);
    expect(withWebmDuration(withSeekHead, 1000)).toBe(withSeekHead);
    const notWebm = new Uint8Array([0x00, 0x01, 0x02, 0x03]);
    expect(withWebmDuration(notWebm, 1000)).toBe(notWebm);
    const cut = webm([...SCALE, ...APP]).slice(0, EBML.length + 14);
    expect(withWebmDuration(cut, 1000)).toBe(cut);
    expect(withWebmDuration(webm([...SCALE]), Infinity)).toEqual(webm([...SCALE]));
  });
});

describe('the video’s picture', () => {
  it('keeps the canvas’s pixels up to 1,280 on its longest side, even, with a caption band under them', () => {
    expect(videoSize(1280, 700)).toEqual({ width: 1280, tree: 700, band: 64 });
    const wide = videoSize(2560, 1401);
    expect(wide.width).toBe(VIDEO_LIMITS.maxSide);
    expect(wide.tree).toBe(700);
    const phone = videoSize(1170, 2532);
    expect(phone.tree + phone.band).toBeLessThanOrEqual(VIDEO_LIMITS.maxSide);
    expect(phone.width % 2).toBe(0);
    expect(phone.tree % 2).toBe(0);
    expect(videoSize(300, 200).band).toBe(40);
  });

  it('is named by the site and the days the growth spans', () => {
    expect(videoFileName(Date.UTC(2026, 2, 1, 12), Date.UTC(2026, 10, 26, 23, 59))).toBe(
      'gallery-tree-growth-2026-03-01-to-2026-11-26.webm',
    );
  });
});
