/**
 * The words a screen reader hears for the keyboard's square and for the tree's edge, in one live region: a square
 * is said again only when its words changed; the edge is said every time.
 */
import { useCallback, useRef, useState, type RefObject } from 'react';
import { describeCell } from './cell-actions.ts';
import type { CellHit } from './engine/tree-engine.ts';
import type { KnownViewer } from './use-tree-viewer.ts';

export function useFocusWords(latestViewer: RefObject<KnownViewer>): {
  focusText: string;
  onFocusChange: (hit: CellHit | null, context?: { fresh: boolean; note?: string }) => void;
  onNotice: (text: string) => void;
} {
  const [focusText, setFocusText] = useState('');
  /** The focused square's words last said: a second look at the same square says them again only if they changed. */
  const focusWords = useRef('');
  const onFocusChange = useCallback(
    (hit: CellHit | null, context?: { fresh: boolean; note?: string }) => {
      const own = hit !== null && hit.token !== null && latestViewer.current.ownTokens.has(hit.token);
      const described = hit ? describeCell(hit, own) : '';
      const words = context?.note && described ? `${context.note}. ${described}` : described;
      // A region arriving says the square again when it brought its title, not over what the tree's edge just said.
      if (context && !context.fresh && words === focusWords.current) return;
      focusWords.current = words;
      setFocusText(words);
    },
    [latestViewer],
  );
  // The tree's edge: said even when it is the same words as last time (a no-break space tells them apart).
  const onNotice = useCallback(
    (text: string) => setFocusText((previous) => (previous === text ? `${text}\u00a0` : text)),
    [],
  );
  return { focusText, onFocusChange, onNotice };
}
