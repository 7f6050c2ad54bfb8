/**
 * Who may do what (docs/product.md, Who may do what): the one table, enforced by the server (server/permissions.ts
 * adds how it knows a person) and asked by the client before it offers a button. Each side says whether the thing
 * concerned is the asker's own with its own keys: the server by user id, the client by token.
 */
import { ArtStatus, CellStatus, Role } from './domain.ts';

/** A signed-in person; null is a guest. */
export type Asker = { role: number } | null;

export const isAdmin = (asker: Asker): boolean => asker?.role === Role.Admin;

/** Every signed-in person may reserve a square (one at a time, which the reservation rules hold). */
export const mayReserve = (asker: Asker): boolean => asker !== null;

/** Every signed-in person may ask to be told when a square (or any square) becomes available. */
export const maySubscribe = (asker: Asker): boolean => asker !== null;

/**
 * Editing a square's piece: an admin; the author of its current piece; or, for a square with no piece (a removed
 * one counts as none) that is AVAILABLE, any signed-in person. A RESERVED square is its holder's through the draft
 * that reserving made.
 */
export function mayEditArt(
  asker: Asker,
  cell: { status: number; art: { own: boolean; status: number } | null },
): boolean {
  if (asker === null) return false;
  if (isAdmin(asker)) return true;
  if (cell.art && cell.art.status !== ArtStatus.Removed) return cell.art.own;
  return cell.status === CellStatus.Available;
}

/** Liking a piece is for signed-in people, never of their own. */
export const mayLikeArt = (asker: Asker, piece: { own: boolean }): boolean => asker !== null && !piece.own;

/** A piece's removal is asked for by its author, from its details page; staff decide. */
export const mayRequestRemoval = (asker: Asker, piece: { own: boolean }): boolean => asker !== null && piece.own;

/** Liking or following a member: any signed-in person, never themselves. */
export const mayLikeUser = (asker: Asker, other: { self: boolean }): boolean => asker !== null && !other.self;
export const mayFollow = (asker: Asker, other: { self: boolean }): boolean => asker !== null && !other.self;
