/**
 * Who may do what (spec §6). The one place the role table lives on the server: base procedures and services ask
 * here, never compare role numbers themselves.
 */
import { ArtStatus, CellStatus, Role } from '#shared/domain.ts';
import type { SessionUser } from './auth/sessions.ts';

export type Viewer = Pick<SessionUser, 'id' | 'role' | 'token'> | null;

export const isAdmin = (viewer: Viewer): boolean => viewer?.role === Role.Admin;

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

/** Spec §7 names the account by token: only its owner may change it. */
export function mayEditAccount(viewer: Viewer, accountToken: string): boolean {
  return viewer !== null && viewer.token === accountToken;
}

/** Spec §6: every signed-in user may reserve a square (one at a time, enforced by the reservation service). */
export function mayReserve(viewer: Viewer): viewer is NonNullable<Viewer> {
  return viewer !== null;
}

/** Spec §6: every signed-in user may ask to be told when a square (or any square) becomes available. */
export function maySubscribe(viewer: Viewer): viewer is NonNullable<Viewer> {
  return viewer !== null;
}

/** A reservation is read and extended by its holder; admins may do it for anyone (spec §6: "or admin"). */
export function mayManageReservation(viewer: Viewer, reservation: { userId: number }): boolean {
  return viewer !== null && (viewer.id === reservation.userId || isAdmin(viewer));
}

/** GET /api/user/{token}/reserve names the account: only its owner may read which square it holds. */
export function mayReadReservationOf(viewer: Viewer, accountToken: string): boolean {
  return viewer !== null && viewer.token === accountToken;
}

/**
 * Spec §5 edit access to a square's art: an admin; the author of its current piece; or, for a square with no piece
 * (a removed one counts as none) that is AVAILABLE, any signed-in user. Reserving creates the holder's draft, so a
 * RESERVED square is its holder's through that draft.
 */
export function mayEditArt(
  viewer: Viewer,
  cell: { status: number; art: { authorId: number; status: number } | null },
): boolean {
  if (viewer === null) return false;
  if (isAdmin(viewer)) return true;
  if (cell.art && cell.art.status !== ArtStatus.Removed) return cell.art.authorId === viewer.id;
  return cell.status === CellStatus.Available;
}

/** Spec §4/§6: liking art is for signed-in users, never of their own pieces. */
export function mayLikeArt(viewer: Viewer, piece: { authorId: number }): boolean {
  return viewer !== null && viewer.id !== piece.authorId;
}

/** DESIGN.md §4: removal of a piece is requested from its details page by its author (staff decide). */
export function mayRequestRemoval(viewer: Viewer, piece: { authorId: number }): boolean {
  return viewer !== null && viewer.id === piece.authorId;
}

/** Spec §2 manage profile: the profile form (and the avatar) is changed by its owner only. */
export function mayEditProfile(viewer: Viewer, profileToken: string): boolean {
  return viewer !== null && viewer.token === profileToken;
}

/** The profile form's data and ATELIER (drafts included): the owner, or an admin. */
export function mayReadPrivateProfile(viewer: Viewer, profileToken: string): boolean {
  return viewer !== null && (viewer.token === profileToken || isAdmin(viewer));
}

/** The like and follow paths name the acting user (spec §7): that must be the viewer; nobody acts for another. */
export function mayActAs(viewer: Viewer, userToken: string): viewer is NonNullable<Viewer> {
  return viewer !== null && viewer.token === userToken;
}

/** Spec §6: every signed-in user may like another user, never themselves. */
export function mayLikeUser(viewer: Viewer, other: { token: string }): boolean {
  return viewer !== null && viewer.token !== other.token;
}

/** Spec §6: every signed-in user may follow another user, never themselves. */
export function mayFollow(viewer: Viewer, other: { token: string }): boolean {
  return viewer !== null && viewer.token !== other.token;
}
