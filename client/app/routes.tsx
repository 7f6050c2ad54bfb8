/**
 * Every route of docs/product.md's "Screens and routes", matched in order (decision 051). Each carries its highlight
 * name (and the tree its fixed header) in `handle`; guards wrap the user-only and guest-only pages, and the layout
 * (welcome after a logout). The tree page loads in the background, bringing PixiJS with it.
 */
import type { ReactNode } from 'react';
import { createBrowserRouter, type RouteDefinition, type Router } from '#client/router/router.ts';
import { RouteErrorPage } from '#client/pages/route-error-page.tsx';
import { treePageLoader } from '#client/pages/tree-page-loader.ts';
import { removeSketch } from '#client/tree/tree-sketch.ts';
import { TREE_PAGE_PATH } from '#shared/tree/tree-url.ts';
import { AppLayout } from './app-layout.tsx';
import { reloadOnNavigationWhenUpdated } from './client-updates.ts';
import { GuestOnly, UserOnly, WelcomeAfterLogout } from './guards.tsx';
import { lazyComponent, PAGE_LOADING, type LazyComponent } from './lazy-component.tsx';
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

/**
 * Every page but the tree's is a module of its own (decision 043): the tree's first frame waits for none of them. The
 * page a visit opens at is asked for with the app (createAppRouter); the others come in the background after the
 * first view, or when the visitor opens them first.
 */
const lazyPage = (load: () => Promise<() => ReactNode>) => lazyComponent(load, PAGE_LOADING);
const ArtDetailsPage = lazyPage(() => import('#client/pages/art-details-page.tsx').then((m) => m.ArtDetailsPage));
const ContactPage = lazyPage(() => import('#client/pages/contact-page.tsx').then((m) => m.ContactPage));
const EditArtPage = lazyPage(() => import('#client/pages/edit-art-page.tsx').then((m) => m.EditArtPage));
const EditProfilePage = lazyPage(() => import('#client/pages/edit-profile-page.tsx').then((m) => m.EditProfilePage));
const ExtendReservationPage = lazyPage(() =>
  import('#client/pages/extend-reservation-page.tsx').then((m) => m.ExtendReservationPage),
);
const FaqsPage = lazyPage(() => import('#client/pages/faqs-page.tsx').then((m) => m.FaqsPage));
const ForbiddenPage = lazyPage(() => import('#client/pages/forbidden-page.tsx').then((m) => m.ForbiddenPage));
const LearnPage = lazyPage(() => import('#client/pages/learn-page.tsx').then((m) => m.LearnPage));
const LoginPage = lazyPage(() => import('#client/pages/login-page.tsx').then((m) => m.LoginPage));
const NotFoundPage = lazyPage(() => import('#client/pages/not-found-page.tsx').then((m) => m.NotFoundPage));
const ParticipatePage = lazyPage(() => import('#client/pages/participate-page.tsx').then((m) => m.ParticipatePage));
const PrivacyPage = lazyPage(() => import('#client/pages/privacy-page.tsx').then((m) => m.PrivacyPage));
const ProfilePage = lazyPage(() => import('#client/pages/profile-page.tsx').then((m) => m.ProfilePage));
const RegistrationPage = lazyPage(() => import('#client/pages/registration-page.tsx').then((m) => m.RegistrationPage));
const ResetPasswordPage = lazyPage(() =>
  import('#client/pages/reset-password-page.tsx').then((m) => m.ResetPasswordPage),
);
const RestorePasswordPage = lazyPage(() =>
  import('#client/pages/restore-password-page.tsx').then((m) => m.RestorePasswordPage),
);
const TermsPage = lazyPage(() => import('#client/pages/terms-page.tsx').then((m) => m.TermsPage));
const WelcomePage = lazyPage(() => import('#client/pages/welcome-page.tsx').then((m) => m.WelcomePage));

type Access = 'everyone' | 'guests' | 'users';

function page(
  path: string,
  name: string,
  Page: LazyComponent<object> | (() => ReactNode),
  access: Access = 'everyone',
  extra: Partial<RouteHandle> = {},
): RouteDefinition {
  const element = <Page />;
  const guarded =
    access === 'guests' ? (
      <GuestOnly>{element}</GuestOnly>
    ) : access === 'users' ? (
      <UserOnly>{element}</UserOnly>
    ) : (
      element
    );
  const handle: RouteHandle = { page: `page.${name}`, ...extra };
  if ('loader' in Page) handle.load = Page.loader.start;
  return { path, element: guarded, handle };
}

const routes: RouteDefinition[] = [
  page('/', 'welcome', WelcomePage),
  page('/learn', 'learn', LearnPage),
  page('/participate', 'participate', ParticipatePage),
  page('/faqs', 'faqs', FaqsPage),
  page('/contact', 'contact', ContactPage),
  page('/terms', 'terms', TermsPage),
  page('/privacy', 'privacy', PrivacyPage),
  page('/profile/:token', 'profile', ProfilePage),
  page('/profile', 'editProfile', EditProfilePage, 'users'),
  page('/login', 'login', LoginPage, 'guests'),
  page('/registration', 'registration', RegistrationPage, 'guests'),
  page('/reset-password', 'resetPassword', ResetPasswordPage, 'guests'),
  page('/restore-password/:token', 'restorePassword', RestorePasswordPage, 'guests'),
  page('/observe', 'tree', TreeRoute, 'everyone', { fixedHeader: true, beforeUser: true }),
  page('/observe/cell/:cellToken/edit', 'editArt', EditArtPage, 'users'),
  page('/observe/cell/:cellToken/details', 'artDetails', ArtDetailsPage),
  page('/observe/cell/:cellToken/reserve/:reminderToken/extend', 'extendReservation', ExtendReservationPage, 'users'),
  page('/forbidden', 'forbidden', ForbiddenPage),
  page('*', 'notfound', NotFoundPage),
];

/** Around every page: welcome after a logout, the header and footer; the error page stands in for it all. */
export const appLayout = (
  <WelcomeAfterLogout>
    <AppLayout />
  </WelcomeAfterLogout>
);
export const appErrorElement = <RouteErrorPage />;

export function createAppRouter(): Router {
  const router = createBrowserRouter(routes);
  // The page the visit opens at comes while the signed-in user is asked for.
  void (router.match?.route.handle as RouteHandle | undefined)?.load?.();
  // The tree's first sketch (client/tree/tree-sketch.ts) belongs to /observe, even if the visitor leaves before the
  // tree page has arrived to take it.
  router.subscribe(() => {
    if (router.location.pathname !== TREE_PAGE_PATH) removeSketch();
  });
  // After an upgrade, the next move to another page loads the new build (decision 041).
  reloadOnNavigationWhenUpdated(router);
  return router;
}
