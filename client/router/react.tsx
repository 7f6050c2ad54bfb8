/**
 * The router for components (decision 051): <RouterView> around the app, <Outlet> where the matched page goes, links
 * that move without a reload, the hooks that read the location, and the scroll kept for the way back.
 */
import {
  Component,
  createContext,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useSyncExternalStore,
  type ComponentProps,
  type MouseEvent,
  type ReactNode,
} from 'react';
import type { LeaveGuard, Location, Match, NavigateOptions, Router, To } from './router.ts';

const RouterContext = createContext<Router | null>(null);
/** What the page threw, for the error page (useRouteError); a box, as `undefined` may be thrown too. */
const RouteErrorContext = createContext<{ error: unknown } | null>(null);

export function useRouter(): Router {
  const router = useContext(RouterContext);
  if (!router) throw new Error('This component needs a <RouterView> around it.');
  return router;
}

/** The current location; the component renders again on every move. */
export function useLocation(): Location {
  const router = useRouter();
  const read = () => router.location;
  return useSyncExternalStore(router.subscribe, read, read);
}

/** The route the location matched, with its parameters (null when none did). */
export function useMatch(): Match | null {
  const router = useRouter();
  const read = () => router.match;
  return useSyncExternalStore(router.subscribe, read, read);
}

export function useParams(): Readonly<Record<string, string | undefined>> {
  return useMatch()?.params ?? {};
}

/** Moves to another location (the same function for the router's life). */
export function useNavigate(): (to: To, options?: NavigateOptions) => void {
  return useRouter().navigate;
}

/** The query of the address, and a way to change it (from the current query, as it is at that moment). */
export function useSearchParams(): [
  URLSearchParams,
  (change: (current: URLSearchParams) => URLSearchParams, options?: NavigateOptions) => void,
] {
  const router = useRouter();
  const { search } = useLocation();
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const setParams = useCallback(
    (change: (current: URLSearchParams) => URLSearchParams, options?: NavigateOptions) => {
      const query = change(new URLSearchParams(router.location.search)).toString();
      router.navigate({ pathname: router.location.pathname, search: query && `?${query}` }, options);
    },
    [router],
  );
  return [params, setParams];
}

/** Asks `guard` before every move while it is given (null: none). */
export function useLeaveGuard(guard: LeaveGuard | null): void {
  const router = useRouter();
  useEffect(() => (guard ? router.guard(guard) : undefined), [router, guard]);
}

export interface LinkProps extends Omit<ComponentProps<'a'>, 'href'> {
  to: To;
  replace?: boolean;
}

/**
 * A link that moves inside the app without loading the page, unless the visitor asks for a new tab or window
 * (a modifier key, the middle button, a target): then it is the plain link it also is.
 */
export function Link({ to, replace, onClick, target, children, ...rest }: LinkProps) {
  const router = useRouter();
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    const elsewhere =
      (target && target !== '_self') || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey;
    if (event.defaultPrevented || event.button !== 0 || elsewhere) return;
    event.preventDefault();
    router.navigate(to, { replace });
  };
  return (
    <a {...rest} target={target} href={router.href(to)} onClick={follow}>
      {children}
    </a>
  );
}

/**
 * A link that says when it leads to the current page or a part of it (`end`: to this very path only): the class
 * `active` and `aria-current="page"`.
 */
export function NavLink({ end = false, className, ...props }: LinkProps & { end?: boolean }) {
  const router = useRouter();
  const here = useLocation().pathname.toLowerCase();
  const target = router.resolve(props.to).pathname.toLowerCase();
  const active = here === target || (!end && target !== '/' && here.startsWith(`${target}/`));
  if (!active) return <Link className={className} {...props} />;
  return <Link className={className ? `${className} active` : 'active'} aria-current="page" {...props} />;
}

/** Moves to `to` as soon as it is drawn (a guard sending the visitor elsewhere). */
export function Navigate({ to, replace = false }: { to: To; replace?: boolean }) {
  const navigate = useNavigate();
  useEffect(() => navigate(to, { replace }), [navigate, to, replace]);
  return null;
}

/** The matched route's page. */
export function Outlet() {
  return useMatch()?.route.element ?? null;
}

/** What the page threw, on the error page. */
export function useRouteError(): unknown {
  return useContext(RouteErrorContext)?.error;
}

interface BoundaryProps {
  fallback: ReactNode;
  location: Location;
  children: ReactNode;
}

/** Shows `fallback` instead of a page that threw, until the visitor moves elsewhere. */
class RouteErrorBoundary extends Component<BoundaryProps, { failed: { error: unknown } | null; location: Location }> {
  override state = { failed: null, location: this.props.location };

  static getDerivedStateFromError(error: unknown) {
    return { failed: { error } };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: { location: Location }) {
    return props.location === state.location ? null : { failed: null, location: props.location };
  }

  override render() {
    const { failed } = this.state;
    if (!failed) return this.props.children;
    return <RouteErrorContext value={failed}>{this.props.fallback}</RouteErrorContext>;
  }
}

function PageErrors({ fallback, children }: { fallback: ReactNode; children: ReactNode }) {
  return (
    <RouteErrorBoundary fallback={fallback} location={useLocation()}>
      {children}
    </RouteErrorBoundary>
  );
}

/**
 * The router's app: `layout` (an <Outlet> in it shows the matched page); when a page throws, `errorElement` stands in
 * for the whole layout until the next move.
 */
export function RouterView({
  router,
  layout = <Outlet />,
  errorElement = null,
}: {
  router: Router;
  layout?: ReactNode;
  errorElement?: ReactNode;
}) {
  return (
    <RouterContext value={router}>
      <PageErrors fallback={errorElement}>{layout}</PageErrors>
    </RouterContext>
  );
}

/**
 * Scroll after a move: back where the visitor was on an entry seen before (Back, Forward, a reload), at the fragment's
 * element when the address names one, else at the top of a new page; a change of the query alone keeps the scroll.
 */
export function ScrollRestoration() {
  const router = useRouter();
  const location = useLocation();
  const previous = useRef<Location | null>(null);
  useLayoutEffect(() => {
    const before = previous.current;
    previous.current = location;
    const kept = router.keptScroll();
    // Statements, not returned values: Chromium's scroll methods answer a promise, and an effect may return only its
    // clean-up.
    const target = location.hash ? document.getElementById(location.hash.slice(1)) : null;
    if (kept !== undefined) window.scrollTo(0, kept);
    else if (target) target.scrollIntoView();
    else if (before && before.pathname !== location.pathname) window.scrollTo(0, 0);
  }, [location, router]);
  return null;
}
