/**
 * Every route of docs/product.md's "Screens and routes", in data mode. Each carries its highlight name (and the tree
 * its fixed header) in `handle`; guards wrap the user-only and guest-only pages, and the layout (welcome after a
 * logout). The tree page loads in the background, bringing PixiJS with it.
 */
import type { ReactNode } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { ArtDetailsPage } from '#client/pages/art-details-page.tsx';
import { ContactPage } from '#client/pages/contact-page.tsx';
import { EditArtPage } from '#client/pages/edit-art-page.tsx';
import { EditProfilePage } from '#client/pages/edit-profile-page.tsx';
import { ExtendReservationPage } from '#client/pages/extend-reservation-page.tsx';
import { FaqsPage } from '#client/pages/faqs-page.tsx';
import { ForbiddenPage } from '#client/pages/forbidden-page.tsx';
import { LearnPage } from '#client/pages/learn-page.tsx';
import { LoginPage } from '#client/pages/login-page.tsx';
import { NotFoundPage } from '#client/pages/not-found-page.tsx';
import { ParticipatePage } from '#client/pages/participate-page.tsx';
import { PrivacyPage } from '#client/pages/privacy-page.tsx';
import { ProfilePage } from '#client/pages/profile-page.tsx';
import { RegistrationPage } from '#client/pages/registration-page.tsx';
import { ResetPasswordPage } from '#client/pages/reset-password-page.tsx';
import { RestorePasswordPage } from '#client/pages/restore-password-page.tsx';
import { RouteErrorPage } from '#client/pages/route-error-page.tsx';
import { TermsPage } from '#client/pages/terms-page.tsx';
import { WelcomePage } from '#client/pages/welcome-page.tsx';
import { treePageLoader } from '#client/pages/tree-page-loader.ts';
import { removeSketch } from '#client/tree/tree-sketch.ts';
import { TREE_PAGE_PATH } from '#shared/tree/tree-url.ts';
import { AppLayout } from './app-layout.tsx';
import { reloadOnNavigationWhenUpdated } from './client-updates.ts';
import { GuestOnly, UserOnly, WelcomeAfterLogout } from './guards.tsx';
import { useLoaded } from './use-loaded.ts';
import type { RouteHandle } from './route-handle.ts';

/** The tree page once its module is in (see tree-page-loader.ts), a plain loading state until then. */
function TreeRoute() {
  const TreePage = useLoaded(treePageLoader);
  if (TreePage) return <TreePage />;
  return (
    <div className="tree-area tree-area--loading" aria-busy="true">
      <p className="tree-area__status">Loading the tree…</p>
    </div>
  );
}

type Access = 'everyone' | 'guests' | 'users';

function page(
  path: string,
  name: string,
  element: ReactNode,
  access: Access = 'everyone',
  extra: Partial<RouteHandle> = {},
): RouteObject {
  const guarded =
    access === 'guests' ? (
      <GuestOnly>{element}</GuestOnly>
    ) : access === 'users' ? (
      <UserOnly>{element}</UserOnly>
    ) : (
      element
    );
  const handle: RouteHandle = { page: `page.${name}`, ...extra };
  return { path, element: guarded, handle };
}

export const routes: RouteObject[] = [
  {
    element: (
      <WelcomeAfterLogout>
        <AppLayout />
      </WelcomeAfterLogout>
    ),
    errorElement: <RouteErrorPage />,
    children: [
      page('/', 'welcome', <WelcomePage />),
      page('/learn', 'learn', <LearnPage />),
      page('/participate', 'participate', <ParticipatePage />),
      page('/faqs', 'faqs', <FaqsPage />),
      page('/contact', 'contact', <ContactPage />),
      page('/terms', 'terms', <TermsPage />),
      page('/privacy', 'privacy', <PrivacyPage />),
      page('/profile/:token', 'profile', <ProfilePage />),
      page('/profile', 'editProfile', <EditProfilePage />, 'users'),
      page('/login', 'login', <LoginPage />, 'guests'),
      page('/registration', 'registration', <RegistrationPage />, 'guests'),
      page('/reset-password', 'resetPassword', <ResetPasswordPage />, 'guests'),
      page('/restore-password/:token', 'restorePassword', <RestorePasswordPage />, 'guests'),
      page('/observe', 'tree', <TreeRoute />, 'everyone', { fixedHeader: true, beforeUser: true }),
      page('/observe/cell/:cellToken/edit', 'editArt', <EditArtPage />, 'users'),
      page('/observe/cell/:cellToken/details', 'artDetails', <ArtDetailsPage />),
      page(
        '/observe/cell/:cellToken/reserve/:reminderToken/extend',
        'extendReservation',
        <ExtendReservationPage />,
        'users',
      ),
      page('/forbidden', 'forbidden', <ForbiddenPage />),
      page('*', 'notfound', <NotFoundPage />),
    ],
  },
];

export function createAppRouter() {
  const router = createBrowserRouter(routes);
  // The tree's first sketch (client/tree/tree-sketch.ts) belongs to /observe, even if the visitor leaves before the
  // tree page has arrived to take it.
  router.subscribe((state) => {
    if (state.location.pathname !== TREE_PAGE_PATH) removeSketch();
  });
  // After an upgrade, the next move to another page loads the new build (decision 041).
  reloadOnNavigationWhenUpdated(router);
  return router;
}
