/**
 * Asks for the tree snapshot, fetched and decoded in one worker for the page (decision 010). Small on purpose: the
 * app's entry imports it (early-start.ts), so a visit to the tree asks for its snapshot before the app shell boots.
 */
import { requestTreeSnapshot } from '#client/api/tree-snapshot.ts';
import type { PageResponse, SnapshotReply, SnapshotRequest } from './snapshot-decoding.ts';

let worker: Worker | null | undefined;
let nextId = 1;
const waiting = new Map<number, (reply: SnapshotReply) => void>();

/**
 * The page's one worker (snapshot-worker.ts), started on the first request, so a million cells never freeze the page;
 * null where the browser has no workers: the page then does the work itself (snapshot-decoding.ts, loaded only then).
 */
function startWorker(): Worker | null {
  if (typeof Worker === 'undefined') return null;
  let started: Worker;
  try {
    started = new Worker(new URL('./snapshot-worker.ts', import.meta.url), { type: 'module', name: 'tree-snapshot' });
  } catch {
    return null;
  }
  started.onmessage = (event: MessageEvent<SnapshotReply>) => {
    const message = event.data;
    waiting.get(message.id)?.(message);
    waiting.delete(message.id);
  };
  // A worker that cannot start (a very old browser, a blocked script): the page does the work itself.
  started.onerror = () => {
    worker = null;
    for (const [id, resolve] of waiting) resolve({ id, ok: false, message: 'worker-failed', httpStatus: null });
    waiting.clear();
  };
  return started;
}

async function onThePage(request: SnapshotRequest, signal?: AbortSignal): Promise<SnapshotReply> {
  const { fetchAndDecode } = await import('./snapshot-decoding.ts');
  return fetchAndDecode(request, signal);
}

/**
 * Fetches and decodes the snapshot of a tree (a 304 when `etag` still matches); never throws: a failure is a reply.
 * `early`: a first visit, where every moment counts (early-start.ts).
 */
export async function requestSnapshot(
  token: string,
  etag: string | null,
  signal?: AbortSignal,
  early = false,
): Promise<SnapshotReply> {
  if (worker === undefined) worker = startWorker();
  const request: SnapshotRequest = { id: nextId++, token, etag };
  const current = worker;
  if (current) {
    const reply = await new Promise<SnapshotReply>((resolve) => {
      waiting.set(request.id, resolve);
      if (!early) return current.postMessage(request);
      // The page asks for the snapshot at once, while the worker is still starting, and hands over the answer's
      // body as it streams in.
      current.postMessage({ ...request, answerFromPage: true } satisfies SnapshotRequest);
      void handOverAnswer(current, request);
    });
    if (reply.ok || reply.message !== 'worker-failed') return reply;
  }
  return onThePage(request, signal);
}

/** Asks for the snapshot on the page and posts the answer to the worker (PageResponse); null if it failed. */
async function handOverAnswer(to: Worker, request: SnapshotRequest): Promise<void> {
  const post = (response: PageResponse['response'], transfer: Transferable[] = []) =>
    to.postMessage({ id: request.id, response } satisfies PageResponse, transfer);
  let response: Response;
  try {
    response = await requestTreeSnapshot(request.token, request.etag);
  } catch {
    return post(null);
  }
  const answer = { status: response.status, etag: response.headers.get('etag') };
  const body = response.body;
  try {
    post({ ...answer, body }, body ? [body] : []);
  } catch {
    // A browser that cannot hand a stream over: the bytes, then.
    const bytes = await response.arrayBuffer().catch(() => null);
    if (bytes) post({ ...answer, body: bytes }, [bytes]);
    else post(null);
  }
}

let early: { token: string; reply: Promise<SnapshotReply> } | null = null;

/** A first visit's snapshot, asked for before the app has booted (early-start.ts); the tree page takes it once. */
export function requestEarlySnapshot(treeToken: string): void {
  early = { token: treeToken, reply: requestSnapshot(treeToken, null, undefined, true) };
}

/** The snapshot asked for early, once: later loads ask afresh (with their ETag). */
export function takeEarlySnapshot(treeToken: string): Promise<SnapshotReply> | null {
  if (early?.token !== treeToken) return null;
  const { reply } = early;
  early = null;
  return reply;
}
