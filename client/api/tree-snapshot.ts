/**
 * GET /api/tree/{treeToken}: the tree snapshot from its plain, precompressed route, not tRPC (decision 002), in its
 * binary form (decision 050), decoded by the caller. Sends the last ETag so an unchanged tree costs a 304 and no
 * decoding.
 */
import { SNAPSHOT_BINARY_TYPE } from '#shared/tree/snapshot-type.ts';
import { apiHeaders } from './initial-params.ts';

export type SnapshotAnswer =
  { status: 'fresh'; bytes: Uint8Array; etag: string | null } | { status: 'not-modified'; etag: string };

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
  // An error still answers in JSON (its envelope).
  const headers: Record<string, string> = { ...apiHeaders(), Accept: `${SNAPSHOT_BINARY_TYPE}, application/json` };
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
  return { status: 'fresh', bytes: new Uint8Array(await response.arrayBuffer()), etag: response.headers.get('etag') };
}

export async function fetchTreeSnapshot(
  token: string,
  etag?: string | null,
  signal?: AbortSignal,
): Promise<SnapshotAnswer> {
  return readTreeSnapshot(await requestTreeSnapshot(token, etag, signal), etag);
}
