/**
 * What a tap on a square opens (spec §2, "Cell click"). The popups arrive in a later issue; until then the page
 * names what would open.
 */
import { CellStatus } from '#shared/domain.ts';
import type { CellHit } from './engine/tree-engine.ts';

export type CellAction =
  | { kind: 'navigate'; to: string }
  | { kind: 'popup'; popup: 'reserve' | 'subscribe' }
  | { kind: 'details-unavailable' };

export function actionForCell(hit: CellHit): CellAction {
  if (hit.status === CellStatus.Published) {
    return hit.token ? { kind: 'navigate', to: `/observe/cell/${encodeURIComponent(hit.token)}/details` } : { kind: 'details-unavailable' };
  }
  if (hit.status === CellStatus.Available) return { kind: 'popup', popup: 'reserve' };
  return { kind: 'popup', popup: 'subscribe' };
}

export function describeAction(action: CellAction, hit: CellHit): string {
  const where = `row ${hit.row}, column ${hit.column}`;
  switch (action.kind) {
    case 'navigate':
      return `Opening the piece at ${where}…`;
    case 'details-unavailable':
      return `The piece at ${where} would open its details — this tree is too large to name its squares yet.`;
    case 'popup':
      return `The square at ${where} would open the ${action.popup} popup — popups are coming soon.`;
  }
}
