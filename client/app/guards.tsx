/**
 * Route guards (decision 007): a guest opening a user-only route is asked to log in and comes back to it afterwards (a
 * link from an e-mail survives the login); a signed-in user opening a guest-only route goes where `?next=` says, or
 * to welcome; so does everyone whose user becomes empty after having been set (a logout). Nothing guarded
 * renders before the current user is known, so the wrong page never flashes.
 */
import { useEffect, useRef, type ReactNode } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
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
      void navigate('/', { replace: true });
    }
  }, [user, isLoading, navigate]);
  return children;
}
