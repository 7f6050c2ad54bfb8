/** A square's row, column and status, as the reserve and subscribe popups show them. */
import { CellStatus } from '#shared/domain.ts';
import type { CellPopupProps } from './cell-popup-props.ts';

const STATUS_NAMES: Record<number, string> = {
  [CellStatus.Pending]: 'unavailable (not yet connected to a published piece)',
  [CellStatus.Reserved]: 'reserved',
  [CellStatus.Published]: 'published',
  [CellStatus.Available]: 'available',
};

export function CellFacts({ cell }: Pick<CellPopupProps, 'cell'>) {
  return (
    <dl className="cell-facts" data-testid="cell-facts">
      <dt>Row</dt>
      <dd>{cell.row}</dd>
      <dt>Column</dt>
      <dd>{cell.column}</dd>
      <dt>Status</dt>
      <dd>
        {STATUS_NAMES[cell.status] ?? 'unknown'}
        {cell.token === null && cell.status === CellStatus.Available ? ', a new branch slot' : ''}
      </dd>
    </dl>
  );
}
