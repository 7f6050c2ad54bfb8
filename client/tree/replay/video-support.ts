/**
 * Whether this browser can record the growth as a video (growth-video.ts), asked before the replay's controls offer
 * it: a MediaRecorder that writes WebM, and canvases that give a stream. Kept apart and small, since the replay's
 * controls are part of the tree page's first code and the recorder is loaded only when a viewer asks for it.
 */

/** WebM as MediaRecorder names it, best first: VP9 is smaller for the same picture, VP8 is what every WebM plays. */
const WEBM_TYPES = ['video/webm;codecs=vp9', 'video/webm;codecs=vp8', 'video/webm'];

/** The WebM type this browser records, or null where it records none (or cannot stream a canvas). */
export function videoRecordingType(): string | null {
  if (typeof MediaRecorder === 'undefined' || typeof MediaRecorder.isTypeSupported !== 'function') return null;
  if (typeof HTMLCanvasElement === 'undefined' || typeof HTMLCanvasElement.prototype.captureStream !== 'function')
    return null;
  return WEBM_TYPES.find((type) => MediaRecorder.isTypeSupported(type)) ?? null;
}
