/**
 * The tree of the open page: its snapshot loaded once through React Query (fetched and decoded in a worker: see
 * snapshot-requests.ts), then kept up to date in place by a live subscription (live-tree.ts) once the engine shows it.
 */
import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { TreeSettings } from '#shared/tree/geometry.ts';
import type { TreeCells } from '#shared/tree/snapshot.ts';
import { initialParams } from '#client/api/initial-params.ts';
import { SnapshotFetchError } from '#client/api/tree-snapshot.ts';
import type { WorkedLayout } from './engine/chunk-index.ts';
import type { TreeEngine } from './engine/tree-engine.ts';
import { LiveTree, type LiveStatus } from './live-tree.ts';
import { cellsFromPortable, slotsFromPairs } from './snapshot-decoding.ts';
import { requestSnapshot, takeEarlySnapshot } from './snapshot-requests.ts';

export interface LoadedTree {
  token: string;
  version: number;
  settings: TreeSettings;
  cells: TreeCells;
  /** The branch slots and chunk lists the snapshot's worker worked out (absent: the engine works them out). */
  layout?: WorkedLayout;
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
  if (reply.status === 'not-modified')
    throw new Error('The tree answered "not modified" to a request without an ETag.');
  // A mark for the benchmark's breakdown of the first frame (tests/bench/tree-canvas.bench.ts).
  performance.mark('tree:snapshot-decoded');
  const cells = cellsFromPortable(reply.cells);
  const layout = { slots: slotsFromPairs(reply.slots), chunks: reply.chunks };
  return { token, version: reply.version, settings: reply.settings, cells, layout };
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
    // A decoded tree is never compared field by field with the last one (the engine may have changed that in place).
    structuralSharing: false,
    retry: 1,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}

/** The subscription of each tree on screen, so an action that changed the tree can ask for its changes at once. */
const liveTrees = new Map<string, LiveTree>();

/** The page just changed the tree (a reservation): the tree on screen asks for the change now, not at the next event. */
export function catchUpLiveTree(token: string | null | undefined): void {
  if (token) liveTrees.get(token)?.catchUp();
}

/**
 * Follows the tree on screen once the engine shows `tree`: changes are applied in place (highlighted), a resync puts
 * a new snapshot on screen with the camera kept. A snapshot fetched again through the query starts the subscription
 * again from its version. On leaving, the tree as it is then becomes the cached one, so a visit back shows it at once
 * and catches up from its version.
 */
export function useLiveTree(token: string | null, tree: LoadedTree | undefined, engine: TreeEngine | null): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!token || !engine || !tree) return;
    let onScreen = { settings: tree.settings, cells: tree.cells };
    const live = new LiveTree({
      token,
      version: tree.version,
      // The operator's choice (LIVE_TRANSPORT): long-polls where a shared cache is in front.
      transport: initialParams().settings.liveTransport,
      applyChanges: (changes) => {
        engine.applyChanges(changes, { highlight: true });
        onScreen = { ...onScreen, cells: engine.liveCells ?? onScreen.cells };
      },
      reloadSnapshot: async (signal) => {
        const next = await loadTree(token, signal);
        // Left meanwhile: the engine is gone.
        signal.throwIfAborted();
        engine.setTree(next.cells, next.settings, null, next.layout);
        onScreen = { settings: next.settings, cells: next.cells };
        return next.version;
      },
      pollMs: window.__treePollMs,
      streamRetryMs: window.__treeStreamRetryMs,
      onStatus: (status) => void (window.__treeLive = status),
    });
    live.start();
    liveTrees.set(token, live);
    return () => {
      live.stop();
      if (liveTrees.get(token) === live) liveTrees.delete(token);
      // The cached snapshot's cells were changed in place: cache the tree as it is now, at its version (unless the
      // query holds a newer snapshot already).
      const key = treeSnapshotKey(token);
      const moved = live.version !== tree.version || onScreen.cells !== tree.cells;
      if (moved && queryClient.getQueryData(key) === tree)
        queryClient.setQueryData<LoadedTree>(key, { token, version: live.version, ...onScreen });
    };
  }, [token, engine, tree, queryClient]);
}
