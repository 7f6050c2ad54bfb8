/**
 * The dashboard's frame: a header with the gallery's name, who is signed in, a link back to the gallery and the
 * sections' navigation (with the work waiting in each), then the section itself.
 */
import { personName } from '#shared/people.ts';
import { useEffect, useRef } from 'react';
import { NavLink, Outlet, ScrollRestoration, useLocation } from '#client/router/react.tsx';
import { isAdmin, useCurrentUser } from '#client/app/current-user.ts';
import { LogoMark } from '#client/app/logo-mark.tsx';
import { trpc } from '#client/api/trpc.ts';
import { SECTIONS } from './sections.ts';

/**
 * The server only sends this page to admins; if the session has ended or changed by the time the page asks who is
 * signed in, it goes to the app's forbidden page as the server would. A session lost later shows in each section as
 * its calls' forbidden error.
 */
function useForbiddenWhenNotAdmin(): ReturnType<typeof useCurrentUser> {
  const current = useCurrentUser();
  const { user, isLoading } = current;
  useEffect(() => {
    if (!isLoading && !isAdmin(user)) window.location.replace('/forbidden');
  }, [user, isLoading]);
  return current;
}

/** After moving to another section, the keyboard and screen readers start at its heading (not on the first load). */
function useFocusHeadingOnNavigation(): void {
  const { pathname } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    document.querySelector<HTMLElement>('#admin-main h1')?.focus();
  }, [pathname]);
}

export function AdminLayout() {
  const { user, isLoading } = useForbiddenWhenNotAdmin();
  useFocusHeadingOnNavigation();
  const overview = trpc.admin.overview.useQuery({}, { enabled: isAdmin(user) });
  const counts = overview.data?.counts;

  return (
    <div className="admin">
      <a className="skip-link" href="#admin-main">
        Skip to content
      </a>
      <header className="admin-header">
        <div className="admin-header__bar">
          <p className="admin-brand">
            <LogoMark className="admin-brand__mark" variant="compact" />
            <span className="admin-brand__name">gallery tree.</span>
            <span className="admin-brand__section">dashboard</span>
          </p>
          {user && (
            <p className="admin-header__who">
              Signed in as <strong>{personName(user)}</strong>
            </p>
          )}
          <a className="admin-header__back" href="/observe" data-testid="back-to-gallery">
            ← back to the gallery
          </a>
        </div>
        <nav className="admin-nav" aria-label="Dashboard sections">
          <ul className="admin-nav__list">
            {SECTIONS.map((section) => {
              const waiting = section.count && counts ? counts[section.count] : 0;
              return (
                <li key={section.key}>
                  <NavLink
                    to={section.path === '' ? '/' : `/${section.path}`}
                    end={section.path === ''}
                    className="admin-nav__link"
                    data-section={section.key}
                  >
                    {section.label}
                    {waiting > 0 && (
                      <span className="admin-nav__count">
                        <span className="visually-hidden">, waiting: </span>
                        {waiting}
                      </span>
                    )}
                  </NavLink>
                </li>
              );
            })}
          </ul>
        </nav>
      </header>
      <main id="admin-main" className="admin-main">
        {isLoading || !isAdmin(user) ? <p className="admin-loading">Loading…</p> : <Outlet />}
      </main>
      <ScrollRestoration />
    </div>
  );
}
