/**
 * Loads and decodes the tree snapshot through React Query. The last ETag and decoded tree are kept per token, so a
 * refetch of an unchanged tree is a 304 with no decoding at all.
 */
import { useQuery } from '@tanstack/react-query';
import type { TreeSettings } from '#shared/tree/geometry.ts';
import { decodeSnapshot, type TreeCells } from '#shared/tree/snapshot.ts';
import { fetchTreeSnapshot } from '#client/api/tree-snapshot.ts';

export interface LoadedTree {
  token: string;
  version: number;
  settings: TreeSettings;
  cells: TreeCells;
}

const lastByToken = new Map<string, { etag: string; tree: LoadedTree }>();

export async function loadTree(token: string, signal?: AbortSignal): Promise<LoadedTree> {
  const previous = lastByToken.get(token);
  const answer = await fetchTreeSnapshot(token, previous?.etag, signal);
  if (answer.status === 'not-modified' && previous) return previous.tree;
  if (answer.status !== 'fresh') throw new Error('The tree answered "not modified" without a tree to keep.');
  const { wire } = answer;
  const tree: LoadedTree = { token, version: wire.version, settings: wire.settings, cells: decodeSnapshot(wire) };
  if (answer.etag) lastByToken.set(token, { etag: answer.etag, tree });
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
