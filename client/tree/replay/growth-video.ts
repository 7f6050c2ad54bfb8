/**
 * The growth as a video (decision 049): the replay played once over the video's length, each frame of the tree's
 * canvas copied onto a 2D canvas under a caption band (the site's name, the dates the growth spans, the day shown),
 * whose stream MediaRecorder writes as WebM. Made in the browser, nothing sent anywhere: the file is the viewer's.
 *
 * The tree's WebGL canvas keeps its drawing buffer (tree-canvas.tsx), so its last frame can be copied whenever this
 * draws, in its own animation frames, without waiting on the engine's. Loaded only when a viewer asks for a video.
 */
import { replayDayOf } from '#shared/tree/tree-url.ts';
import { formatDate } from '#client/app/dates.ts';
import { SITE_NAME } from '#client/app/page-title.ts';
import type { Camera } from '#shared/tree/camera.ts';
import type { TreeEngine } from '../engine/tree-engine.ts';
import { PLAY_MS, type GrowthReplay } from './growth-replay.ts';
import { withWebmDuration } from './webm-duration.ts';

/**
 * The bounds a video keeps: at most 10 MB, whatever its length (the recording stops short of it, see below); its
 * bitrate, 2.5 Mbit/s, gives a 20 s video about 6 MB at most (the tree's flat squares usually take far less); frames at
 * most 30 a second, and no side over 1,280 pixels.
 */
export const VIDEO_LIMITS = {
  maxBytes: 10_000_000,
  bitsPerSecond: 2_500_000,
  framesPerSecond: 30,
  maxSide: 1280,
} as const;

/** The lengths a viewer may choose (ms); the replay's own, PLAY_MS, first. */
export const VIDEO_LENGTHS = [PLAY_MS, 10_000, 5_000] as const;

/** The share of the video the growth plays in; the rest holds the tree as it is now, so the video ends on it. */
const GROWTH_SHARE = 0.9;
/** Longest wait for the tree to be drawn at the video's first moment (the whole tree's chunks built, say). */
const READY_WAIT_MS = 10_000;
/**
 * The recording stops when what it wrote comes within two seconds of the bitrate of the size cap: its chunks come
 * once a second, so the file stays under it.
 */
const CHUNK_MS = 1000;
const STOP_BYTES = VIDEO_LIMITS.maxBytes - (2 * VIDEO_LIMITS.bitsPerSecond) / 8;
/**
 * The replay plays by the wall clock (playOver), so the growth has played by the video's end; should a frame not have
 * come to move it there (a hidden tab has none), the recording goes on for it, but never past twice its length.
 */
const OVERRUN = 2;

/** The caption band under the tree: its colours (the tree's ink and paper, shared/tree/cell-look.ts). */
const BAND_COLOUR = '#2b2824';
const TEXT_COLOUR = '#f5f2ec';
const SOFT_TEXT_COLOUR = '#cfc8bb';
const FONT = 'system-ui, -apple-system, "Segoe UI", sans-serif';

export interface GrowthVideoOptions {
  engine: TreeEngine;
  replay: GrowthReplay;
  /** The WebM type to record (video-support.ts). */
  mimeType: string;
  /** The video's length (ms): the growth plays in most of it, and the tree as it is now ends it. */
  lengthMs: number;
  /** The whole tree (fitted to the canvas for the recording, the viewer's view put back after) or the view. */
  whole: boolean;
  /** Each frame drawn: how long the recording has run (ms). */
  onProgress?: (elapsedMs: number) => void;
  /** Cancels the recording: nothing is kept. */
  signal: AbortSignal;
}

export interface GrowthVideo {
  blob: Blob;
  fileName: string;
  /** How long the video runs (ms), as written into the file. */
  durationMs: number;
  /** The recording stopped early, at the size cap. */
  cappedAtSize: boolean;
  /** The type MediaRecorder wrote. */
  mimeType: string;
  width: number;
  height: number;
}

/**
 * What the last recording cost the page (window.__treeVideo, for the benchmark and the curious): frames drawn and
 * the main thread's time for each, the copy of the tree's canvas and the caption.
 */
export interface VideoStats {
  frames: number;
  frameMs: number[];
  width: number;
  height: number;
  bytes: number;
}

declare global {
  interface Window {
    __treeVideo?: VideoStats;
  }
}

/** The file's name: the site's and the days the growth spans, `gallery-tree-growth-2026-03-01-to-2026-11-26.webm`. */
export function videoFileName(start: number, end: number): string {
  const site = SITE_NAME.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  return `${site}-growth-${replayDayOf(start)}-to-${replayDayOf(end)}.webm`;
}

/** An even number (VP8 and VP9 code pictures in 2 × 2 blocks of colour). */
const even = (n: number) => Math.max(2, 2 * Math.round(n / 2));

/** The video's picture: the canvas's pixels scaled to the longest side's cap, and the caption band's height. */
export function videoSize(sourceWidth: number, sourceHeight: number): { width: number; tree: number; band: number } {
  const scale = Math.min(1, VIDEO_LIMITS.maxSide / Math.max(sourceWidth, sourceHeight, 1));
  const width = even(sourceWidth * scale);
  const band = even(Math.min(72, Math.max(40, width * 0.05)));
  const tree = even(Math.min(VIDEO_LIMITS.maxSide - band, sourceHeight * scale));
  return { width, tree, band };
}

/** Runs `step` every animation frame until it answers true; rejects with the signal's reason once it is aborted. */
function eachFrame(signal: AbortSignal, step: (now: number) => boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    let frame = 0;
    const abort = () => {
      cancelAnimationFrame(frame);
      reject(signal.reason instanceof Error ? signal.reason : new Error('Cancelled.'));
    };
    if (signal.aborted) return abort();
    signal.addEventListener('abort', abort, { once: true });
    const tick = (now: number) => {
      if (signal.aborted) return;
      if (step(now)) {
        signal.removeEventListener('abort', abort);
        resolve();
      } else frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
  });
}

/**
 * Records the growth: the replay goes back to its first publish and plays over the video's length, then the tree as
 * it is now holds to the end. Answers the video, or null if cancelled. Either way the replay is paused afterwards and,
 * for the whole tree, the viewer's view put back (the caller puts the replay's day back where it was).
 */
export async function recordGrowth(options: GrowthVideoOptions): Promise<GrowthVideo | null> {
  const { engine, replay, mimeType, lengthMs, whole, signal } = options;
  const { start, end } = replay.timeline;
  const source = engine.canvas;
  const viewerCamera: Camera = engine.getCamera();
  let recorder: MediaRecorder | null = null;
  let track: MediaStreamTrack | null = null;
  try {
    replay.pause();
    if (whole) {
      const view = engine.wholeTreeView();
      if (view) engine.setCamera(view.camera);
    }
    replay.seek(start);
    // The first moment drawn in full before the recording starts: the replay caught up, the view's chunks built.
    const askedAt = performance.now();
    await eachFrame(signal, (now) => (replay.caughtUp && !engine.drawing) || now - askedAt > READY_WAIT_MS);

    const size = videoSize(source.width, source.height);
    const canvas = document.createElement('canvas');
    canvas.width = size.width;
    canvas.height = size.tree + size.band;
    const context = canvas.getContext('2d', { alpha: false })!;
    const from = formatDate(start, 'utcDay');
    const to = formatDate(end, 'utcDay');
    drawBand(context, size, from === to ? from : `From ${from} to ${to}`);
    let dayShown = '';
    const stats: VideoStats = { frames: 0, frameMs: [], width: canvas.width, height: canvas.height, bytes: 0 };
    window.__treeVideo = stats;
    const stream = canvas.captureStream(0);
    track = stream.getVideoTracks()[0]!;
    const drawFrame = () => {
      const started = performance.now();
      context.drawImage(source, 0, 0, source.width, source.height, 0, 0, size.width, size.tree);
      const day = formatDate(replay.time, 'utcDay');
      if (day !== dayShown) {
        dayShown = day;
        drawDay(context, size, day);
      }
      (track as CanvasCaptureMediaStreamTrack).requestFrame();
      stats.frames++;
      stats.frameMs.push(performance.now() - started);
    };
    drawFrame();

    const chunks: Blob[] = [];
    let bytes = 0;
    let capped = false;
    const active = new MediaRecorder(stream, { mimeType, videoBitsPerSecond: VIDEO_LIMITS.bitsPerSecond });
    recorder = active;
    const stopped = new Promise<void>((resolve) => active.addEventListener('stop', () => resolve(), { once: true }));
    active.addEventListener('dataavailable', (event) => {
      if (event.data.size === 0) return;
      chunks.push(event.data);
      bytes += event.data.size;
      if (bytes >= STOP_BYTES) capped = true;
    });
    active.start(CHUNK_MS);
    replay.playOver(lengthMs * GROWTH_SHARE);
    const began = performance.now();
    let drawnAt = began;
    await eachFrame(signal, (now) => {
      const elapsed = now - began;
      if (now - drawnAt >= 1000 / VIDEO_LIMITS.framesPerSecond - 2) {
        drawnAt = now;
        drawFrame();
        options.onProgress?.(Math.min(lengthMs, elapsed));
      }
      const grown = replay.time >= end;
      return capped || (elapsed >= lengthMs && grown) || elapsed >= lengthMs * OVERRUN;
    });
    drawFrame();
    const durationMs = performance.now() - began;
    active.stop();
    await stopped;
    recorder = null;
    const type = active.mimeType || mimeType;
    const recorded = new Uint8Array(await new Blob(chunks, { type }).arrayBuffer());
    const blob = new Blob([withWebmDuration(recorded, durationMs)], { type: type.split(';')[0] });
    stats.bytes = blob.size;
    return {
      blob,
      fileName: videoFileName(start, end),
      durationMs,
      cappedAtSize: capped,
      mimeType: type,
      width: canvas.width,
      height: canvas.height,
    };
  } catch (error) {
    if (signal.aborted) return null;
    throw error;
  } finally {
    // Cancelled or failed: whatever was written is dropped with the recorder.
    if (recorder && recorder.state !== 'inactive') recorder.stop();
    track?.stop();
    replay.pause();
    if (whole) engine.setCamera(viewerCamera);
  }
}

/** The band under the tree: the site's name and the span of the growth on the left (the day goes on the right). */
function drawBand(context: CanvasRenderingContext2D, size: ReturnType<typeof videoSize>, span: string): void {
  const { width, tree, band } = size;
  const pad = Math.round(band * 0.3);
  context.fillStyle = BAND_COLOUR;
  context.fillRect(0, tree, width, band);
  context.textBaseline = 'middle';
  context.textAlign = 'left';
  context.fillStyle = TEXT_COLOUR;
  context.font = `600 ${Math.round(band * 0.34)}px ${FONT}`;
  context.fillText(SITE_NAME, pad, tree + band * 0.34, width / 2 - pad);
  context.fillStyle = SOFT_TEXT_COLOUR;
  context.font = `${Math.round(band * 0.24)}px ${FONT}`;
  context.fillText(span, pad, tree + band * 0.72, width / 2 - pad);
}

/** The day the tree shows, on the right of the band (drawn again only when it changes). */
function drawDay(context: CanvasRenderingContext2D, size: ReturnType<typeof videoSize>, day: string): void {
  const { width, tree, band } = size;
  const pad = Math.round(band * 0.3);
  context.fillStyle = BAND_COLOUR;
  context.fillRect(width / 2, tree, width / 2, band);
  context.textBaseline = 'middle';
  context.textAlign = 'right';
  context.fillStyle = TEXT_COLOUR;
  context.font = `600 ${Math.round(band * 0.34)}px ${FONT}`;
  context.fillText(day, width - pad, tree + band / 2, width / 2 - pad);
}
