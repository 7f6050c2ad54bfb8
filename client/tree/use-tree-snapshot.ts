/**
 * Loads and decodes the tree snapshot through React Query (the fetch and the decoding run in a worker: see
 * snapshot-requests.ts). The last ETag and decoded tree are kept per token, so a refetch of an unchanged tree is a
 * 304 with no decoding at all. While the page is visible the snapshot is asked again every TREE_POLL_MS, so newly
 * published pieces appear without a reload (issue 8); a hidden page does not ask, and asks again once shown.
 */
import { useQuery } from '@tanstack/react-query';
import type { TreeSettings } from '#shared/tree/geometry.ts';
import type { TreeCells } from '#shared/tree/snapshot.ts';
import { SnapshotFetchError } from '#client/api/tree-snapshot.ts';
import { takeEarlySnapshot } from './early-start.ts';
import { cellsFromPortable, slotsFromPairs } from './snapshot-decoding.ts';
import { requestSnapshot } from './snapshot-requests.ts';

export interface LoadedTree {
  token: string;
  version: number;
  settings: TreeSettings;
  cells: TreeCells;
  /** Branch slots: positions in the branch area touching exactly one published cell. */
  slots: { row: number; column: number }[];
}

/** How often an open tree asks whether it changed (a 304 when it did not). */
export const TREE_POLL_MS = 20_000;

declare global {
  interface Window {
    /** Browser tests shorten the poll with this (set before the page's scripts run). */
    __treePollMs?: number;
  }
}

const lastByToken = new Map<string, { etag: string; tree: LoadedTree }>();

export async function loadTree(token: string, signal?: AbortSignal): Promise<LoadedTree> {
  const previous = lastByToken.get(token);
  const reply = await (takeEarlySnapshot(token) ?? requestSnapshot(token, previous?.etag ?? null, signal));
  if (!reply.ok) throw new SnapshotFetchError(reply.message, reply.httpStatus);
  if (reply.status === 'not-modified') {
    if (previous) return previous.tree;
    throw new Error('The tree answered "not modified" without a tree to keep.');
  }
  // A mark for the benchmark's breakdown of the first frame (tests/bench/tree-canvas.bench.ts).
  performance.mark('tree:snapshot-decoded');
  const tree: LoadedTree = {
    token,
    version: reply.version,
    settings: reply.settings,
    cells: cellsFromPortable(reply.cells),
    slots: slotsFromPairs(reply.slots),
  };
  if (reply.etag) lastByToken.set(token, { etag: reply.etag, tree });
  return tree;
}

export function treeSnapshotKey(token: string | null) {
  return ['tree-snapshot', token] as const;
}

export function useTreeSnapshot(token: string | null) {
  return useQuery({
    queryKey: treeSnapshotKey(token),
    queryFn: ({ signal }) => loadTree(token!, signal),
    enabled: token !== null,
    staleTime: TREE_POLL_MS,
    retry: 1,
    refetchInterval: (query) => (query.state.data ? (window.__treePollMs ?? TREE_POLL_MS) : false),
    refetchIntervalInBackground: false,
    refetchOnWindowFocus: true,
  });
}
