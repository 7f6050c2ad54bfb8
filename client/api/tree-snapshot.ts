/**
 * GET /api/tree/{treeToken}: the compact tree snapshot from its plain, precompressed route, not tRPC (decision 002).
 * Sends the last ETag so an unchanged tree costs a 304 and no decoding.
 */
import type { TreeSnapshotWire } from '#shared/tree/snapshot.ts';
import { apiHeaders } from './initial-params.ts';

export type SnapshotAnswer =
  { status: 'fresh'; wire: TreeSnapshotWire; etag: string | null } | { status: 'not-modified'; etag: string };

export class SnapshotFetchError extends Error {
  constructor(
    message: string,
    readonly httpStatus: number | null,
  ) {
    super(message);
    this.name = 'SnapshotFetchError';
  }
}

/** Asks for the snapshot; throws SnapshotFetchError when the server cannot be reached. */
export async function requestTreeSnapshot(
  token: string,
  etag?: string | null,
  signal?: AbortSignal,
): Promise<Response> {
  const headers: Record<string, string> = { ...apiHeaders(), Accept: 'application/json' };
  if (etag) headers['If-None-Match'] = etag;
  try {
    return await fetch(`/api/tree/${encodeURIComponent(token)}`, { headers, credentials: 'same-origin', signal });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new SnapshotFetchError('The tree could not be reached. Check your connection.', null);
  }
}

/** What an answer to requestTreeSnapshot says (`etag` is the one it was asked with). */
export async function readTreeSnapshot(response: Response, etag?: string | null): Promise<SnapshotAnswer> {
  if (response.status === 304 && etag) return { status: 'not-modified', etag };
  if (!response.ok) {
    const message =
      response.status === 404
        ? 'This tree does not exist.'
        : `The server could not send the tree just now (HTTP ${response.status}).`;
    throw new SnapshotFetchError(message, response.status);
  }
  const body = (await response.json()) as { r: TreeSnapshotWire };
  return { status: 'fresh', wire: body.r, etag: response.headers.get('etag') };
}

export async function fetchTreeSnapshot(
  token: string,
  etag?: string | null,
  signal?: AbortSignal,
): Promise<SnapshotAnswer> {
  return readTreeSnapshot(await requestTreeSnapshot(token, etag, signal), etag);
}
