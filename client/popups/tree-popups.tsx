/**
 * Which popup the tree page shows (at most one), and the popups themselves. The page keeps the state; opening and
 * closing go through it so the camera is saved and restored around them (decision 010).
 */
import type { CellPopupProps } from './cell-popup-props.ts';
import { HelpPopup } from './help-popup.tsx';
import { ReservePopup } from './reserve-popup.tsx';
import { SearchPopup } from './search-popup.tsx';
import { SubscribePopup } from './subscribe-popup.tsx';

export type TreePopup =
  | { kind: 'search'; term: string }
  | { kind: 'help' }
  | { kind: 'reserve'; cell: CellPopupProps['cell'] }
  | { kind: 'subscribe'; cell: CellPopupProps['cell'] };

export interface TreePopupsProps {
  popup: TreePopup | null;
  /** For the help popup: the visitor has squares of their own. */
  hasOwnCells: boolean;
  onClose: () => void;
}

export function TreePopups({ popup, hasOwnCells, onClose }: TreePopupsProps) {
  switch (popup?.kind) {
    case 'search':
      return <SearchPopup key={popup.term} initialTerm={popup.term} onClose={onClose} />;
    case 'help':
      return <HelpPopup showFindMine={hasOwnCells} onClose={onClose} />;
    case 'reserve':
      return <ReservePopup cell={popup.cell} onClose={onClose} />;
    case 'subscribe':
      return <SubscribePopup cell={popup.cell} onClose={onClose} />;
    default:
      return null;
  }
}
