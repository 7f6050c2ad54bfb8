/**
 * GET /api/tree/{treeToken}/changes?since=: what changed in a tree after a version (shared/tree/changes.ts), from
 * its plain route like the snapshot (tree-snapshot.ts); and the address of the same changes pushed as events.
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
  let response: Response;
  try {
    // no-store: the ETag is ours to send (the browser's cache would answer a 304 with its own copy's 200).
    response = await fetch(`${treePath(token)}/changes?since=${since}`, {
      headers,
      credentials: 'same-origin',
      cache: 'no-store',
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ChangesFetchError('The tree could not be reached. Check your connection.', null);
  }
  if (response.status === 304 && etag) return { status: 'not-modified' };
  if (!response.ok)
    throw new ChangesFetchError(
      `The tree's changes could not be read just now (HTTP ${response.status}).`,
      response.status,
    );
  const body = (await response.json()) as { r: TreeChangesAnswer };
  return { status: 'fresh', answer: body.r, etag: response.headers.get('etag') };
}

/** The event stream of a tree's changes after `since` (server/http/tree-events.ts). */
export function treeEventsUrl(token: string, since: number): string {
  return `${treePath(token)}/events?since=${since}`;
}
