/**
 * What a tap (or Enter) on a square opens, by its status and who is looking (docs/product.md, Squares (cells)), and
 * the words a screen reader hears for the keyboard's square and the toast naming a square a link opened.
 */
import { ArtStatus, CellStatus } from '#shared/domain.ts';
import type { CellHit } from './engine/tree-engine.ts';
import { cellPath } from '#shared/paths.ts';
import { mayEditArt, type Asker } from '#shared/permissions.ts';

/** Who is looking (null: a guest), and which squares are their own (by token), from cell.mine. */
export interface Viewer {
  asker: Asker;
  ownTokens: ReadonlySet<string>;
}

export type CellAction =
  | { kind: 'navigate'; to: string }
  | { kind: 'popup'; popup: 'reserve' | 'subscribe' }
  /** The square's token could not be loaded (a large tree's region failed): nothing can open yet. */
  | { kind: 'unreachable' };

export function actionForCell(hit: CellHit, viewer: Viewer): CellAction {
  switch (hit.status) {
    case CellStatus.Published:
      return hit.token ? { kind: 'navigate', to: cellPath(hit.token, 'details') } : { kind: 'unreachable' };
    case CellStatus.Available:
      return { kind: 'popup', popup: 'reserve' };
    case CellStatus.Reserved:
      // A reserved square's piece is its holder's draft (or one sent back for changes): theirs to work on, and staff's.
      if (
        hit.token &&
        mayEditArt(viewer.asker, {
          status: hit.status,
          art: { own: viewer.ownTokens.has(hit.token), status: ArtStatus.Draft },
        })
      )
        return { kind: 'navigate', to: cellPath(hit.token, 'edit') };
      return { kind: 'popup', popup: 'subscribe' };
    default:
      return { kind: 'popup', popup: 'subscribe' };
  }
}

/** "row 34, column 2: published — Title by Artist", or the square's status when nothing more is known. */
export function describeCell(hit: CellHit, own = false): string {
  const where = `row ${hit.row}, column ${hit.column}`;
  switch (hit.status) {
    case CellStatus.Published:
      if (hit.piece)
        return `${where}: published — ${hit.piece.title}${hit.piece.artist ? ` by ${hit.piece.artist}` : ''}${own ? ' (yours)' : ''}`;
      return `${where}: published piece${own ? ' (yours)' : ''}`;
    case CellStatus.Available:
      return `${where}: available ${hit.kind === 'slot' ? 'branch slot' : 'square'}. Press Enter to reserve it.`;
    case CellStatus.Reserved:
      return own ? `${where}: reserved by you. Press Enter to work on your piece.` : `${where}: reserved`;
    default:
      return `${where}: unavailable, not yet connected to a published piece`;
  }
}

/** The toast naming the square a link opened: "Row 12, column 3: available", or the piece's title and artist. */
export function linkedSquareText(hit: CellHit): string {
  const where = `Row ${hit.row}, column ${hit.column}`;
  switch (hit.status) {
    case CellStatus.Published:
      return hit.piece
        ? `${where}: ${hit.piece.title}${hit.piece.artist ? ` by ${hit.piece.artist}` : ''}`
        : `${where}: a published piece`;
    case CellStatus.Available:
      return `${where}: available`;
    case CellStatus.Reserved:
      return `${where}: reserved`;
    default:
      return `${where}: not open yet`;
  }
}
