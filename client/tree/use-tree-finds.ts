/**
 * The toolbar's finds: the next free square, and the viewer's own squares in turn. Each centres its square, rings it,
 * gives it the keyboard's focus (Enter opens it) and says in a toast where it is.
 */
import { useCallback, useRef, type RefObject } from 'react';
import { CellStatus } from '#shared/domain.ts';
import type { TreeEngine } from './engine/tree-engine.ts';
import type { OwnCell } from './use-tree-viewer.ts';

export function useTreeFinds(
  engineRef: RefObject<TreeEngine | null>,
  ownCells: readonly OwnCell[],
  say: (text: string) => void,
): { findFree: () => void; findMine: (() => void) | undefined } {
  const findFree = useCallback(() => {
    const current = engineRef.current;
    const next = current?.nextAvailable();
    if (!current) return;
    if (!next) return say('No square is free right now. Check back soon: every new piece opens the squares around it.');
    current.setTarget(next);
    current.centreOnCell(next.row, next.column, { smooth: true });
    // The keyboard goes with it, so Enter on the canvas opens this square (the toast says where it is).
    current.focusCell(next.row, next.column, { reveal: 'none', announce: false });
    say(`A free square: row ${next.row}, column ${next.column}.`);
  }, [engineRef, say]);

  const findCycle = useRef(-1);
  const findMine = useCallback(() => {
    const current = engineRef.current;
    if (!current || ownCells.length === 0) return;
    findCycle.current = (findCycle.current + 1) % ownCells.length;
    const cell = ownCells[findCycle.current]!;
    current.setTarget(cell);
    current.centreOnCell(cell.row, cell.column, { smooth: true });
    current.focusCell(cell.row, cell.column, { reveal: 'none', announce: false });
    const what =
      cell.status === CellStatus.Reserved
        ? 'Your reserved square'
        : cell.status === CellStatus.Published
          ? 'Your piece'
          : 'Your piece, under review';
    say(`${what}: row ${cell.row}, column ${cell.column}.`);
  }, [engineRef, ownCells, say]);

  return { findFree, findMine: ownCells.length > 0 ? findMine : undefined };
}
