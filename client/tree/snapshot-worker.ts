/**
 * A worker that fetches and decodes the tree snapshot (snapshot-decoding.ts), so parsing megabytes of JSON and
 * building a million-cell index never blocks the page: the canvas gets ready on the main thread meanwhile.
 */
import { fetchAndDecode, transferablesOf, type SnapshotRequest } from './snapshot-decoding.ts';

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<SnapshotRequest>) => void) | null;
  postMessage(message: unknown, transfer: Transferable[]): void;
};

scope.onmessage = (event) => {
  void fetchAndDecode(event.data).then((reply) => scope.postMessage(reply, transferablesOf(reply)));
};
