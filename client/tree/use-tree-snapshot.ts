/**
 * Loads and decodes the tree snapshot through React Query. The fetch and the decoding run in a worker where the
 * browser has them (on the page otherwise), so a million cells never freeze it. The last ETag and decoded tree are
 * kept per token, so a refetch of an unchanged tree is a 304 with no decoding at all.
 */
import { useQuery } from '@tanstack/react-query';
import type { TreeSettings } from '#shared/tree/geometry.ts';
import type { TreeCells } from '#shared/tree/snapshot.ts';
import { SnapshotFetchError } from '#client/api/tree-snapshot.ts';
import { cellsFromPortable, fetchAndDecode, slotsFromPairs, type SnapshotReply, type SnapshotRequest } from './snapshot-decoding.ts';

export interface LoadedTree {
  token: string;
  version: number;
  settings: TreeSettings;
  cells: TreeCells;
  /** Branch slots: positions in the branch area touching exactly one published cell. */
  slots: { row: number; column: number }[];
}

const lastByToken = new Map<string, { etag: string; tree: LoadedTree }>();

// One worker for the page, started as soon as this module loads so it is ready when the tree asks.
let worker: Worker | null = null;
let nextId = 1;
const waiting = new Map<number, (reply: SnapshotReply) => void>();

function startWorker(): void {
  if (typeof Worker === 'undefined') return;
  try {
    worker = new Worker(new URL('./snapshot-worker.ts', import.meta.url), { type: 'module', name: 'tree-snapshot' });
  } catch {
    worker = null;
    return;
  }
  worker.onmessage = (event: MessageEvent<SnapshotReply>) => {
    waiting.get(event.data.id)?.(event.data);
    waiting.delete(event.data.id);
  };
  // A worker that cannot start (a very old browser, a blocked script): the page does the work itself.
  worker.onerror = () => {
    worker = null;
    for (const [id, resolve] of waiting) resolve({ id, ok: false, message: 'worker-failed', httpStatus: null });
    waiting.clear();
  };
}
startWorker();

async function request(token: string, etag: string | null, signal?: AbortSignal): Promise<SnapshotReply> {
  const id = nextId++;
  if (worker) {
    const reply = await new Promise<SnapshotReply>((resolve) => {
      waiting.set(id, resolve);
      worker!.postMessage({ id, token, etag } satisfies SnapshotRequest);
    });
    if (reply.ok || reply.message !== 'worker-failed') return reply;
  }
  return fetchAndDecode({ id, token, etag }, signal);
}

export async function loadTree(token: string, signal?: AbortSignal): Promise<LoadedTree> {
  const previous = lastByToken.get(token);
  const reply = await request(token, previous?.etag ?? null, signal);
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
    staleTime: 30_000,
    retry: 1,
    refetchOnWindowFocus: false,
  });
}
