/**
 * A worker that fetches and decodes the tree snapshot (snapshot-decoding.ts), so parsing megabytes of JSON and
 * building a million-cell index never blocks the page: the canvas gets ready on the main thread meanwhile. When the
 * page handed it a canvas, it also draws the tree's first sketch there, and says when that frame was shown.
 */
import { fetchAndDecode, transferablesOf, type SnapshotRequest } from './snapshot-decoding.ts';

/** The second message for a sketched request: when the sketch was drawn and shown (ms since the epoch). */
export interface SketchShown {
  id: number;
  sketch: { drawnAt: number; shownAt: number };
}

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<SnapshotRequest>) => void) | null;
  postMessage(message: unknown, transfer?: Transferable[]): void;
  requestAnimationFrame?: (callback: () => void) => number;
};

const epochNow = () => performance.timeOrigin + performance.now();

/** The worker's next animation frame (where workers have none, about one frame's time). */
const nextFrame = () => new Promise<void>((resolve) => (scope.requestAnimationFrame ? scope.requestAnimationFrame(() => resolve()) : setTimeout(resolve, 16)));

scope.onmessage = (event) => {
  void fetchAndDecode(event.data).then(async (reply) => {
    const drawnAt = epochNow();
    scope.postMessage(reply, transferablesOf(reply));
    if (!reply.ok || reply.status !== 'fresh' || !reply.sketched) return;
    // The drawing is committed with the frame after the task that drew it; the one after that shows it.
    await nextFrame();
    await nextFrame();
    scope.postMessage({ id: reply.id, sketch: { drawnAt, shownAt: epochNow() } } satisfies SketchShown);
  });
};
