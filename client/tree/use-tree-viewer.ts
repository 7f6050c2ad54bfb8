/**
 * Who looks at the tree: whether the signed-in user is known yet, and their own squares on this tree (find my
 * squares, the reserved-by-me look, and who may edit a reserved square). The engine is told of the squares.
 */
import { useEffect, useMemo, useRef, type RefObject } from 'react';
import type { CellSummary } from '#shared/api-types.ts';
import { trpc } from '#client/api/trpc.ts';
import { useCurrentUser } from '#client/app/current-user.ts';
import type { Viewer } from './cell-actions.ts';
import type { TreeEngine } from './engine/tree-engine.ts';

/** The viewer, and whether the signed-in user is known yet (the tree draws before). */
export interface KnownViewer extends Viewer {
  known: boolean;
}

/** One of the viewer's squares, as cell.mine lists them. */
export type OwnCell = Omit<CellSummary, 'type'>;

export interface TreeViewer {
  ownCells: OwnCell[];
  viewer: KnownViewer;
  /** The viewer as it is now, for callbacks that must not be made again each time it changes. */
  latestViewer: RefObject<KnownViewer>;
}

export function useTreeViewer(token: string | null, engine: TreeEngine | null): TreeViewer {
  const { user, isLoading: userLoading } = useCurrentUser();
  const mine = trpc.cell.mine.useQuery(undefined, { enabled: user !== null, staleTime: 60_000, retry: false });
  const ownCells = useMemo(
    () => (user ? (mine.data ?? []).filter((cell) => cell.treeToken === token) : []),
    [mine.data, token, user],
  );
  const viewer = useMemo(
    () => ({ known: !userLoading, asker: user, ownTokens: new Set(ownCells.map((cell) => cell.token)) }),
    [userLoading, user, ownCells],
  );
  const latestViewer = useRef(viewer);
  latestViewer.current = viewer;
  useEffect(() => engine?.setOwnCells(ownCells), [engine, ownCells]);
  return { ownCells, viewer, latestViewer };
}
