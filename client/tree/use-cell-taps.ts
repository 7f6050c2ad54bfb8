/**
 * What a tap (or Enter) on a square does for the viewer (cell-actions.ts): open its page, keeping the view to come
 * back to, or a popup. A tap made before the signed-in user is known waits for them.
 */
import { useCallback, useEffect, useRef, type RefObject } from 'react';
import { useNavigate } from '#client/router/react.tsx';
import type { TreePopup } from '#client/popups/tree-popups.tsx';
import { actionForCell } from './cell-actions.ts';
import type { CellHit } from './engine/tree-engine.ts';
import type { SquarePosition } from './use-tree-address.ts';
import type { KnownViewer } from './use-tree-viewer.ts';

export function useCellTaps(options: {
  viewer: KnownViewer;
  latestViewer: RefObject<KnownViewer>;
  openedSquare: RefObject<SquarePosition | null>;
  remember: () => void;
  openPopup: (popup: TreePopup) => void;
  say: (text: string) => void;
}): (hit: CellHit) => void {
  const { viewer, latestViewer, openedSquare, remember, openPopup, say } = options;
  const navigate = useNavigate();
  const waitingTap = useRef<CellHit | null>(null);
  const onCellTap = useCallback(
    (hit: CellHit) => {
      // The tree draws before the signed-in user is known; what a click does depends on who clicks.
      if (!latestViewer.current.known) {
        waitingTap.current = hit;
        return;
      }
      const action = actionForCell(hit, latestViewer.current);
      if (action.kind === 'navigate') {
        openedSquare.current = { row: hit.row, column: hit.column };
        remember();
        navigate(action.to);
      } else if (action.kind === 'popup') {
        openPopup({
          kind: action.popup,
          cell: { token: hit.token, row: hit.row, column: hit.column, status: hit.status },
        });
      } else {
        say(`The piece at row ${hit.row}, column ${hit.column} could not be reached just now. Please try again.`);
      }
    },
    [latestViewer, navigate, openPopup, openedSquare, remember, say],
  );

  useEffect(() => {
    const hit = waitingTap.current;
    if (!viewer.known || !hit) return;
    waitingTap.current = null;
    onCellTap(hit);
  }, [viewer.known, onCellTap]);

  return onCellTap;
}
