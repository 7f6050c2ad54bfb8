/** Status codes and roles (docs/product.md: Roles, Squares (cells), Pieces (art)); the numbers are part of the API. */

export const CellStatus = {
  Pending: 0,
  Reserved: 1,
  Published: 2,
  Available: 3,
} as const;
export type CellStatus = (typeof CellStatus)[keyof typeof CellStatus];

export const CellType = {
  Trunk: 1,
  Branch: 3,
} as const;
export type CellType = (typeof CellType)[keyof typeof CellType];

export const ArtStatus = {
  Draft: 0,
  Submitted: 1,
  Published: 2,
  ChangesRequested: 3,
  Removed: 4,
} as const;
export type ArtStatus = (typeof ArtStatus)[keyof typeof ArtStatus];

/** A piece still being made: a draft, or one sent back for changes. Its square's clock runs; its author submits it. */
export const ART_IN_PROGRESS: readonly number[] = [ArtStatus.Draft, ArtStatus.ChangesRequested];

export function isArtInProgress(status: number): boolean {
  return ART_IN_PROGRESS.includes(status);
}

/** A connection the author chose (shown once the piece is published), or one offered and left unchosen. */
export const ConnectionStatus = {
  Unselected: 0,
  Selected: 1,
} as const;
export type ConnectionStatus = (typeof ConnectionStatus)[keyof typeof ConnectionStatus];

/** A reservation's life: held, then its piece submitted, or it ran out, or staff released it. */
export const RESERVATION_STATES = ['active', 'submitted', 'expired', 'released'] as const;
export type ReservationState = (typeof RESERVATION_STATES)[number];

export const Role = {
  Observer: 1,
  Admin: 2,
  Artist: 4,
} as const;
export type Role = (typeof Role)[keyof typeof Role];
