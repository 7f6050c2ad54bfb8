/**
 * A link to a square (`?cell=`: the "square available" e-mail's, a shared one, VIEW ON TREE): the square is found,
 * even one made after the snapshot on screen, centred, ringed as find-free does, given the keyboard's focus (Enter
 * opens it) and named in a toast; a square not on this tree says so and the default view stays.
 */
import { useCallback, type RefObject } from 'react';
import { ErrorCode } from '#shared/errors.ts';
import { trpc } from '#client/api/trpc.ts';
import { errorBodyOf } from '#client/forms/form-state.ts';
import { linkedSquareText } from './cell-actions.ts';
import type { TreeEngine } from './engine/tree-engine.ts';
import type { Signal } from '#client/app/signal.ts';
import type { SquarePosition } from './use-tree-address.ts';

export const NOT_ON_TREE = 'That square is not on the tree.';

/** Opens a linked square on an engine just created; `say` puts a toast up. */
export function useLinkedSquare(
  token: string | null,
  engineRef: RefObject<TreeEngine | null>,
  viewSignal: Signal,
  say: (text: string) => void,
): (created: TreeEngine, cellToken: string, scale: number) => Promise<void> {
  const utils = trpc.useUtils();

  /**
   * Resolves once the tree on screen holds a cell (not only a branch slot) at the position, or with false if the
   * engine is replaced first. The server knows the square but the snapshot on screen is older than it: the live
   * tree's catch-up, asked for as soon as the engine shows the snapshot, brings it.
   */
  const cellArrives = useCallback(
    (created: TreeEngine, row: number, column: number) =>
      new Promise<boolean>((resolve) => {
        const settled = () => engineRef.current !== created || created.hitAtCell(row, column)?.kind === 'cell';
        if (settled()) return resolve(engineRef.current === created);
        // Every change the engine applies (and every camera move) emits the signal.
        const stop = viewSignal.subscribe(() => {
          if (!settled()) return;
          stop();
          resolve(engineRef.current === created);
        });
      }),
    [engineRef, viewSignal],
  );

  return useCallback(
    async (created: TreeEngine, cellToken: string, scale: number) => {
      let position: SquarePosition | null = created.positionOfToken(cellToken);
      if (!position) {
        // Not among the tokens on screen: a large tree's snapshot carries none, and any snapshot may be older than the
        // square (the server keeps one while its change log can bring a page up to date, and a page shown before
        // keeps its own), so a square made since is known only to the server. Ask where it is.
        try {
          const cell = await utils.cell.get.fetch({ token: cellToken });
          position = cell.treeToken === token ? cell : null;
        } catch (error) {
          const code = errorBodyOf(error)?.error;
          if (code !== ErrorCode.CellNotFound && code !== ErrorCode.BadRequest) {
            if (engineRef.current === created)
              say('That square could not be looked up just now. Please reload the page to try again.');
            return;
          }
        }
        if (position && !(await cellArrives(created, position.row, position.column))) return;
      }
      if (engineRef.current !== created) return;
      if (!position || !created.showLinkedSquare(position.row, position.column, scale)) return say(NOT_ON_TREE);
      const square = await created.squareWithDetails(position.row, position.column);
      if (square && engineRef.current === created) say(linkedSquareText(square));
    },
    [cellArrives, engineRef, say, token, utils],
  );
}
