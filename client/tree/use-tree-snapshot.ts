/**
 * The tree of the open page: its snapshot loaded once through React Query (fetched and decoded in a worker: see
 * snapshot-requests.ts), then kept up to date in place by a live subscription (live-tree.ts) once the engine shows it.
 */
import { useEffect, useRef } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { TreeSettings } from '#shared/tree/geometry.ts';
import type { TreeCells } from '#shared/tree/snapshot.ts';
import { SnapshotFetchError } from '#client/api/tree-snapshot.ts';
import { takeEarlySnapshot } from './early-start.ts';
import type { TreeEngine } from './engine/tree-engine.ts';
import { LiveTree, type LiveStatus } from './live-tree.ts';
import { cellsFromPortable, slotsFromPairs } from './snapshot-decoding.ts';
import { requestSnapshot } from './snapshot-requests.ts';

export interface LoadedTree {
  token: string;
  version: number;
  settings: TreeSettings;
  cells: TreeCells;
  /** Branch slots: positions in the branch area touching exactly one published cell (absent: the engine finds them). */
  slots?: { row: number; column: number }[];
}

declare global {
  interface Window {
    /** Browser tests shorten the polling that replaces a refused stream, and the wait before the stream is tried again. */
    __treePollMs?: number;
    __treeStreamRetryMs?: number;
    /** The live subscription's state, for browser tests and the curious. */
    __treeLive?: LiveStatus;
  }
}

/** Fetches the snapshot afresh (the one asked for early, on a first visit). */
export async function loadTree(token: string, signal?: AbortSignal): Promise<LoadedTree> {
  const reply = await (takeEarlySnapshot(token) ?? requestSnapshot(token, null, signal));
  if (!reply.ok) throw new SnapshotFetchError(reply.message, reply.httpStatus);
  if (reply.status === 'not-modified') throw new Error('The tree answered "not modified" to a request without an ETag.');
  // A mark for the benchmark's breakdown of the first frame (tests/bench/tree-canvas.bench.ts).
  performance.mark('tree:snapshot-decoded');
  return {
    token,
    version: reply.version,
    settings: reply.settings,
    cells: cellsFromPortable(reply.cells),
    slots: slotsFromPairs(reply.slots),
  };
}

export function treeSnapshotKey(token: string | null) {
  return ['tree-snapshot', token] as const;
}

/** The snapshot, fetched once: the live subscription keeps it up to date, so it is never asked again on a timer. */
export function useTreeSnapshot(token: string | null) {
  return useQuery({
    queryKey: treeSnapshotKey(token),
    queryFn: ({ signal }) => loadTree(token!, signal),
    enabled: token !== null,
    staleTime: Infinity,
    retry: 1,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}

/**
 * Follows the tree on screen once the engine shows `tree`: changes are applied in place (highlighted), a resync puts
 * a new snapshot on screen with the camera kept. On leaving, the tree as it is then becomes the cached one, so a
 * visit back shows it at once and catches up from its version.
 */
export function useLiveTree(token: string | null, tree: LoadedTree | undefined, engine: TreeEngine | null): void {
  const queryClient = useQueryClient();
  const latestTree = useRef(tree);
  latestTree.current = tree;
  useEffect(() => {
    const loaded = latestTree.current;
    if (!token || !engine || !loaded) return;
    let onScreen = { settings: loaded.settings, cells: loaded.cells };
    const live = new LiveTree({
      token,
      version: loaded.version,
      applyChanges: (changes) => {
        engine.applyChanges(changes, { highlight: true });
        onScreen = { ...onScreen, cells: engine.liveCells ?? onScreen.cells };
      },
      reloadSnapshot: async (signal) => {
        const next = await loadTree(token, signal);
        // Left meanwhile: the engine is gone.
        signal.throwIfAborted();
        engine.setTree(next.cells, next.settings, null, next.slots);
        onScreen = { settings: next.settings, cells: next.cells };
        return next.version;
      },
      pollMs: window.__treePollMs,
      streamRetryMs: window.__treeStreamRetryMs,
      onStatus: (status) => void (window.__treeLive = status),
    });
    live.start();
    return () => {
      live.stop();
      // The cached snapshot's cells were changed in place: cache the tree as it is now, at its version.
      if (live.version !== loaded.version || onScreen.cells !== loaded.cells) {
        queryClient.setQueryData<LoadedTree>(treeSnapshotKey(token), { token, version: live.version, ...onScreen });
      }
    };
  }, [token, engine, queryClient]);
}
