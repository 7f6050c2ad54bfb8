/** Per-route settings: the page's highlight name, and whether the header is fixed over a full-bleed view. */
import { useMatches } from 'react-router';

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
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i]!.handle as RouteHandle | undefined;
    if (handle?.page) return handle;
  }
  return null;
}
