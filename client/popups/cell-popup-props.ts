/** What the tree hands the reserve and subscribe popups: the square that was clicked, and how to close. */
export interface CellPopupProps {
  cell: {
    /** Null for a branch slot: an available square with no cell yet. */
    token: string | null;
    row: number;
    column: number;
    status: number;
  };
  onClose: () => void;
}
