/**
 * A worker that fetches and decodes the tree snapshot (snapshot-decoding.ts), so parsing megabytes of JSON and
 * building a million-cell index never blocks the page: the canvas gets ready on the main thread meanwhile. When the
 * page handed it a canvas, it also draws the tree's first sketch there, and says when that frame was shown. On a first
 * visit the page asks for the snapshot itself while this worker starts, and hands the answer over (PageResponse).
 */
import { fetchAndDecode, transferablesOf, type PageResponse, type SnapshotRequest } from './snapshot-decoding.ts';

/** The second message for a sketched request: when the sketch was drawn and shown (ms since the epoch). */
export interface SketchShown {
  id: number;
  sketch: { drawnAt: number; shownAt: number };
}

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<SnapshotRequest | PageResponse>) => void) | null;
  postMessage(message: unknown, transfer?: Transferable[]): void;
  requestAnimationFrame?: (callback: () => void) => number;
};

const epochNow = () => performance.timeOrigin + performance.now();

/** The worker's next animation frame (where workers have none, about one frame's time). */
const nextFrame = () => new Promise<void>((resolve) => (scope.requestAnimationFrame ? scope.requestAnimationFrame(() => resolve()) : setTimeout(resolve, 16)));

/** The page's answers still to come, for requests marked answerFromPage. */
const pageAnswers = new Map<number, (answer: PageResponse['response']) => void>();

scope.onmessage = (event) => {
  const message = event.data;
  if ('response' in message) {
    pageAnswers.get(message.id)?.(message.response);
    pageAnswers.delete(message.id);
    return;
  }
  const fromPage = message.answerFromPage ? new Promise<PageResponse['response']>((resolve) => pageAnswers.set(message.id, resolve)) : undefined;
  void fetchAndDecode(message, undefined, fromPage).then(async (reply) => {
    const drawnAt = epochNow();
    scope.postMessage(reply, transferablesOf(reply));
    if (!reply.ok || reply.status !== 'fresh' || !reply.sketched) return;
    // The drawing is committed with the frame after the task that drew it; the one after that shows it.
    await nextFrame();
    await nextFrame();
    scope.postMessage({ id: reply.id, sketch: { drawnAt, shownAt: epochNow() } } satisfies SketchShown);
  });
};
