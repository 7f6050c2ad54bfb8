/**
 * Who may do what, on the server: the table of shared/permissions.ts (docs/product.md, Who may do what) with how the
 * server knows a person (user id and token); base procedures and services ask here, never compare roles themselves.
 */
import * as table from '#shared/permissions.ts';
import type { SessionUser } from './auth/sessions.ts';

export type Viewer = Pick<SessionUser, 'id' | 'role' | 'token'> | null;

export const isAdmin = (viewer: Viewer): boolean => table.isAdmin(viewer);

/** Access levels a procedure declares; every procedure is built on exactly one of them. */
export type Access = 'public' | 'user' | 'admin';

export function mayAccess(viewer: Viewer, access: Access): boolean {
  switch (access) {
    case 'public':
      return true;
    case 'user':
      return viewer !== null;
    case 'admin':
      return isAdmin(viewer);
  }
}

/** The account paths name the account by token: only its owner may change it. */
export function mayEditAccount(viewer: Viewer, accountToken: string): boolean {
  return viewer !== null && viewer.token === accountToken;
}

/** Every signed-in user may reserve a square (one at a time, enforced by the reservation service). */
export function mayReserve(viewer: Viewer): viewer is NonNullable<Viewer> {
  return table.mayReserve(viewer);
}

/** Every signed-in user may ask to be told when a square (or any square) becomes available. */
export function maySubscribe(viewer: Viewer): viewer is NonNullable<Viewer> {
  return table.maySubscribe(viewer);
}

/** A reservation is read and extended by its holder; admins may do it for anyone. */
export function mayManageReservation(viewer: Viewer, reservation: { userId: number }): boolean {
  return viewer !== null && (viewer.id === reservation.userId || isAdmin(viewer));
}

/** GET /api/user/{token}/reserve names the account: only its owner may read which square it holds. */
export function mayReadReservationOf(viewer: Viewer, accountToken: string): boolean {
  return viewer !== null && viewer.token === accountToken;
}

/** Edit access to a square's piece: see shared/permissions.ts. */
export function mayEditArt(
  viewer: Viewer,
  cell: { status: number; art: { authorId: number; status: number } | null },
): boolean {
  const { art } = cell;
  return table.mayEditArt(viewer, {
    status: cell.status,
    art: art && { own: art.authorId === viewer?.id, status: art.status },
  });
}

/** Liking art is for signed-in users, never of their own pieces. */
export function mayLikeArt(viewer: Viewer, piece: { authorId: number }): boolean {
  return table.mayLikeArt(viewer, { own: piece.authorId === viewer?.id });
}

/** Removal of a piece is requested from its details page by its author (staff decide). */
export function mayRequestRemoval(viewer: Viewer, piece: { authorId: number }): boolean {
  return table.mayRequestRemoval(viewer, { own: piece.authorId === viewer?.id });
}

/** The profile form (and the avatar) is changed by its owner only. */
export function mayEditProfile(viewer: Viewer, profileToken: string): boolean {
  return viewer !== null && viewer.token === profileToken;
}

/** The profile form's data and ATELIER (drafts included): the owner, or an admin. */
export function mayReadPrivateProfile(viewer: Viewer, profileToken: string): boolean {
  return viewer !== null && (viewer.token === profileToken || isAdmin(viewer));
}

/** The like and follow paths name the acting user: that must be the viewer; nobody acts for another. */
export function mayActAs(viewer: Viewer, userToken: string): viewer is NonNullable<Viewer> {
  return viewer !== null && viewer.token === userToken;
}

/** Every signed-in user may like another user, never themselves. */
export function mayLikeUser(viewer: Viewer, other: { token: string }): boolean {
  return table.mayLikeUser(viewer, { self: other.token === viewer?.token });
}

/** Every signed-in user may follow another user, never themselves. */
export function mayFollow(viewer: Viewer, other: { token: string }): boolean {
  return table.mayFollow(viewer, { self: other.token === viewer?.token });
}
