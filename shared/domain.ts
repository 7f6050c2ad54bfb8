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

export const Role = {
  Observer: 1,
  Admin: 2,
  Artist: 4,
} as const;
export type Role = (typeof Role)[keyof typeof Role];
