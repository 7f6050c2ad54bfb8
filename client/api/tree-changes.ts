/**
 * GET /api/tree/{treeToken}/changes?since=: what changed in a tree after a version (shared/tree/changes.ts), from
 * its plain route like the snapshot (tree-snapshot.ts), asked at once or as a long-poll (`&wait=`, decision 033); and
 * the address of the same changes pushed as events.
 */
import type { TreeChangesAnswer } from '#shared/tree/changes.ts';
import { apiHeaders } from './initial-params.ts';

export type ChangesReply =
  { status: 'fresh'; answer: TreeChangesAnswer; etag: string | null } | { status: 'not-modified' };

export class ChangesFetchError extends Error {
  constructor(
    message: string,
    /** The answer's status, or null when the server could not be reached. */
    readonly httpStatus: number | null,
    /** How long the answer's Retry-After asked to wait, in milliseconds (null: it did not say). */
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
    this.name = 'ChangesFetchError';
  }
}

function treePath(token: string): string {
  return `/api/tree/${encodeURIComponent(token)}`;
}

/**
 * Asks what changed after `since`. `etag` is the answer last received for the same `since`: an unchanged answer is
 * then a 304. Throws ChangesFetchError (a 400 means the tree never had that version: fetch the snapshot again).
 */
export async function fetchTreeChanges(
  token: string,
  since: number,
  etag?: string | null,
  signal?: AbortSignal,
): Promise<ChangesReply> {
  const headers: Record<string, string> = { ...apiHeaders(), Accept: 'application/json' };
  if (etag) headers['If-None-Match'] = etag;
  // no-store: the ETag is ours to send (the browser's cache would answer a 304 with its own copy's 200).
  const init: RequestInit = { headers, credentials: 'same-origin', cache: 'no-store', signal };
  const response = await askChanges(`${treePath(token)}/changes?since=${since}`, init);
  if (response.status === 304 && etag) return { status: 'not-modified' };
  return { status: 'fresh', answer: await readAnswer(response), etag: response.headers.get('etag') };
}

/**
 * The long-poll (decision 033): what changed after `since`, held by the server until the first commit after it or
 * for `waitSeconds`, then "nothing new" (`version` equal to `since`). The same bytes for every viewer, so a shared
 * cache in front may answer it: the request says nothing about the viewer (no cookie, none of our headers), and
 * leaves caching to the answer's Cache-Control (a request marked no-store would tell a cache to go to the server).
 */
export async function pollTreeChanges(
  token: string,
  since: number,
  waitSeconds: number,
  signal?: AbortSignal,
): Promise<TreeChangesAnswer> {
  const init: RequestInit = { headers: { Accept: 'application/json' }, credentials: 'omit', signal };
  return readAnswer(await askChanges(`${treePath(token)}/changes?since=${since}&wait=${waitSeconds}`, init));
}

async function askChanges(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    if (init.signal?.aborted) throw error;
    throw new ChangesFetchError('The tree could not be reached. Check your connection.', null);
  }
}

async function readAnswer(response: Response): Promise<TreeChangesAnswer> {
  if (!response.ok)
    throw new ChangesFetchError(
      `The tree's changes could not be read just now (HTTP ${response.status}).`,
      response.status,
      retryAfterMs(response.headers.get('retry-after'), Date.now()),
    );
  const body = (await response.json()) as { r: TreeChangesAnswer };
  return body.r;
}

/** A Retry-After header (seconds, or an HTTP date) as milliseconds from `now`; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number): number | null {
  const value = header?.trim();
  if (!value) return null;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** The event stream of a tree's changes after `since` (server/http/tree-events.ts). */
export function treeEventsUrl(token: string, since: number): string {
  return `${treePath(token)}/events?since=${since}`;
}
