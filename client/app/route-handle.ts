/** Per-route settings: the page's highlight name, and whether the header is fixed over a full-bleed view. */
import { useMatch } from '#client/router/react.tsx';

export interface RouteHandle {
  /** Highlight name, e.g. 'page.learn'. */
  page: string;
  /** The header stays fixed and the view fills the rest of the screen (the tree). */
  fixedHeader?: boolean;
  /** The page renders before the signed-in user is known (the tree: its own parts wait for the user where it matters). */
  beforeUser?: boolean;
  /** Starts loading the page's module (a page of its own, decision 043): the app asks for the one a visit opens at. */
  load?: () => Promise<unknown>;
}

export function useRouteHandle(): RouteHandle | null {
  const handle = useMatch()?.route.handle as RouteHandle | undefined;
  return handle?.page ? handle : null;
}
