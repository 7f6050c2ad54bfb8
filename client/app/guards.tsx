/**
 * Route guards (decision 007): a guest on a user-only route logs in and comes back to it; a member on a guest-only
 * route goes where `?next=` says, or to welcome, as does a user who logs out. Nothing guarded renders before the
 * current user is known, so the wrong page never flashes.
 */
import { useEffect, useRef, type ReactNode } from 'react';
import { Navigate, useLocation, useNavigate } from '#client/router/react.tsx';
import { useCurrentUser } from './current-user.ts';
import { loginPathFor, returnPathOf } from './return-path.ts';

export function UserOnly({ children }: { children: ReactNode }) {
  const { user, isLoading } = useCurrentUser();
  const location = useLocation();
  if (isLoading) return null;
  return user ? children : <Navigate to={loginPathFor(`${location.pathname}${location.search}`)} replace />;
}

export function GuestOnly({ children }: { children: ReactNode }) {
  const { user, isLoading } = useCurrentUser();
  const location = useLocation();
  if (isLoading) return null;
  return user ? <Navigate to={returnPathOf(location.search)} replace /> : children;
}

/** Mounted once around the layout: on logout (user set, then empty) the app goes to welcome. */
export function WelcomeAfterLogout({ children }: { children: ReactNode }) {
  const { user, isLoading } = useCurrentUser();
  const navigate = useNavigate();
  const hadUser = useRef(false);
  useEffect(() => {
    if (isLoading) return;
    if (user) {
      hadUser.current = true;
    } else if (hadUser.current) {
      hadUser.current = false;
      navigate('/', { replace: true });
    }
  }, [user, isLoading, navigate]);
  return children;
}
