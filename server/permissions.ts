/**
 * Who may do what (spec §6). The one place the role table lives on the server: base procedures and services ask
 * here, never compare role numbers themselves.
 */
import { Role } from '#shared/domain.ts';
import type { SessionUser } from './auth/sessions.ts';

export type Viewer = Pick<SessionUser, 'id' | 'role' | 'token'> | null;

export type ViewerKind = 'guest' | 'observer' | 'artist' | 'admin';

export function viewerKind(viewer: Viewer): ViewerKind {
  if (!viewer) return 'guest';
  if (viewer.role === Role.Admin) return 'admin';
  if (viewer.role === Role.Artist) return 'artist';
  return 'observer';
}

export const isGuest = (viewer: Viewer): viewer is null => viewer === null;
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
