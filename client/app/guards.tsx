/**
 * Route guards (spec §2): a guest opening a user-only route, or a signed-in user opening a guest-only route, is
 * sent to welcome. The layout waits for the current user before rendering routes, so these never flash.
 */
import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { useCurrentUser } from './current-user.ts';

export function UserOnly({ children }: { children: ReactNode }) {
  const { user } = useCurrentUser();
  return user ? children : <Navigate to="/" replace />;
}

export function GuestOnly({ children }: { children: ReactNode }) {
  const { user } = useCurrentUser();
  return user ? <Navigate to="/" replace /> : children;
}
