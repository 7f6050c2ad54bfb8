/**
 * The app shell (spec §2): header, routed view, footer. Routes render only once the current user is known, so
 * guards never flash the wrong page. The tree route fixes the header and lets its view fill the screen.
 */
import { Outlet, ScrollRestoration } from 'react-router';
import { useCurrentUser } from './current-user.ts';
import { useRouteHandle } from './route-handle.ts';
import { SiteFooter } from './site-footer.tsx';
import { SiteHeader } from './site-header.tsx';

export function AppLayout() {
  const { user, isLoading } = useCurrentUser();
  const handle = useRouteHandle();
  const fullBleed = handle?.fixedHeader === true;
  return (
    <div className={fullBleed ? 'shell shell--full-bleed' : 'shell'} data-page={handle?.page}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <SiteHeader user={user} fixed={fullBleed} />
      <main id="main" className="shell__main">
        {isLoading ? <p className="shell__loading">Loading…</p> : <Outlet />}
      </main>
      {!fullBleed && <SiteFooter user={user} />}
      <ScrollRestoration />
    </div>
  );
}
