/**
 * The app shell: the preloader, then header, routed view and footer. Routes wait for the current user except the
 * tree (`beforeUser`); the open menu hides the view and the footer (decision 007); route-focus.ts moves focus.
 */
import { useEffect, useState } from 'react';
import { Outlet, ScrollRestoration, useLocation } from '#client/router/react.tsx';
import { useCurrentUser } from './current-user.ts';
import { Preloader } from './preloader.tsx';
import { useRouteFocus } from './route-focus.ts';
import { useRouteHandle } from './route-handle.ts';
import { SiteFooter } from './site-footer.tsx';
import { SiteHeader } from './site-header.tsx';
import { lazyComponent } from './lazy-component.tsx';
import { useReservedCell } from './reserved-cell.ts';

/** A module of its own (decision 043): asked for when there is a square to ask about, or after the first view. */
const EditReservedCellPopup = lazyComponent(() =>
  import('#client/popups/edit-reserved-cell-popup.tsx').then((module) => module.EditReservedCellPopup),
);

/** The edit-reserved-cell popup, when the user holds a square it would ask about (the popup decides the rest). */
function ReservedCellQuestion() {
  return useReservedCell().promptCell ? <EditReservedCellPopup /> : null;
}

export function AppLayout() {
  const { user, isLoading } = useCurrentUser();
  const handle = useRouteHandle();
  const fullBleed = handle?.fixedHeader === true;
  const [menuOpen, setMenuOpen] = useState(false);

  // Any navigation (a link, the back button) closes the menu.
  const { pathname } = useLocation();
  useEffect(() => {
    setMenuOpen(false);
  }, [pathname]);

  const pageAnnouncement = useRouteFocus();

  const classes = ['shell', fullBleed && 'shell--full-bleed', menuOpen && 'is-menu-open'].filter(Boolean).join(' ');
  return (
    <div className={classes} data-page={handle?.page}>
      <Preloader initialised={!isLoading} />
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <SiteHeader user={user} fixed={fullBleed} menuOpen={menuOpen} onMenuOpenChange={setMenuOpen} />
      <main id="main" className="shell__main" inert={menuOpen} aria-hidden={menuOpen || undefined}>
        {isLoading && !handle?.beforeUser ? <p className="shell__loading">Loading…</p> : <Outlet />}
      </main>
      {!fullBleed && <SiteFooter user={user} hidden={menuOpen} />}
      <p className="visually-hidden" role="status" data-testid="page-announcement">
        {pageAnnouncement}
      </p>
      <ScrollRestoration />
      {!isLoading && <ReservedCellQuestion />}
    </div>
  );
}
