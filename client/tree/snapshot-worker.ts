/**
 * Fetches and decodes the tree snapshot (snapshot-decoding.ts) off the main thread, which readies the canvas. On a
 * first visit the page asks for the snapshot itself while this worker starts, and hands the answer over (PageResponse).
 */
import { fetchAndDecode, transferablesOf, type PageResponse, type SnapshotRequest } from './snapshot-decoding.ts';

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<SnapshotRequest | PageResponse>) => void) | null;
  postMessage: (message: unknown, transfer?: Transferable[]) => void;
};

/** The page's answers still to come, for requests marked answerFromPage. */
const pageAnswers = new Map<number, (answer: PageResponse['response']) => void>();

scope.onmessage = (event) => {
  const message = event.data;
  if ('response' in message) {
    pageAnswers.get(message.id)?.(message.response);
    pageAnswers.delete(message.id);
    return;
  }
  const fromPage = message.answerFromPage
    ? new Promise<PageResponse['response']>((resolve) => pageAnswers.set(message.id, resolve))
    : undefined;
  void fetchAndDecode(message, undefined, fromPage).then((reply) => scope.postMessage(reply, transferablesOf(reply)));
};
