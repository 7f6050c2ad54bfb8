/**
 * The app's router, without React (decision 051): a fixed list of routes matched in order against the address, the
 * browser's history (or one in memory, for rendering without a browser), moves that a leave guard may refuse, and
 * each entry's scroll position kept for the way back. client/router/react.tsx gives it to components.
 */
import type { ReactNode } from 'react';
import { Signal } from '#client/app/signal.ts';

/** Where the app is: the path under the router's base, its query and fragment, and the history entry's key. */
export interface Location {
  pathname: string;
  search: string;
  hash: string;
  /** Unique per history entry (a reload keeps it): what a scroll position is kept under. */
  key: string;
}

/** Where a link or a move goes: a path under the base (it may carry its query and fragment), or its parts. */
export type To = string | { pathname?: string; search?: string; hash?: string };

export interface RouteDefinition {
  /** `/learn`, `/profile/:token` (a parameter stands for one whole segment), or `*` for every address. */
  path: string;
  element: ReactNode;
  /** Whatever the app keeps with the route (client/app/route-handle.ts). */
  handle?: unknown;
}

export interface Match {
  route: RouteDefinition;
  params: Readonly<Record<string, string>>;
}

export interface NavigateOptions {
  /** Replace the current history entry instead of adding one. */
  replace?: boolean;
}

/**
 * Asked before every move to another location (a link, code, Back and Forward): false keeps the visitor where they
 * are. A guard may ask the visitor (window.confirm) before it answers.
 */
export type LeaveGuard = (from: Location, to: Location) => boolean;

/** The history entries the router moves through: the browser's, or a list in memory. */
interface HistorySource {
  /** The current entry's address (with the base) and the state it was written with. */
  read: () => { url: URL; state: unknown };
  write: (url: string, state: EntryState, replace: boolean) => void;
  go: (delta: number) => void;
  /** Called when the visitor moves through the entries (Back, Forward); returns the unsubscribe. */
  onPop: (listener: () => void) => () => void;
}

/** What the router keeps in each history entry's state: its key, and its place among the entries. */
interface EntryState {
  key: string;
  index: number;
}

const SCROLL_STORE = 'gallery-tree.scroll-positions';
/** Scroll positions kept at most (the oldest go first): a long visit must not grow the session's storage forever. */
const SCROLL_KEEP = 100;

const entryStateOf = (state: unknown): EntryState | null =>
  state && typeof state === 'object' && 'key' in state && 'index' in state && typeof state.index === 'number'
    ? (state as EntryState)
    : null;

const newKey = () => Math.random().toString(36).slice(2, 10);

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The parameters of `pathname` when it matches `pattern`, else null. Segments compare without regard to case and an
 * ending slash does not count, as the addresses were matched before this router.
 */
export function matchPath(pattern: string, pathname: string): Record<string, string> | null {
  if (pattern === '*') return {};
  const wanted = pattern.split('/').filter(Boolean);
  const given = pathname.split('/').filter(Boolean);
  if (wanted.length !== given.length) return null;
  const params: Record<string, string> = {};
  for (const [index, part] of wanted.entries()) {
    const segment = given[index]!;
    if (part.startsWith(':')) params[part.slice(1)] = decodeSegment(segment);
    else if (part.toLowerCase() !== segment.toLowerCase()) return null;
  }
  return params;
}

/** Whether `pathname` is `base` or lies under it (`/admin/dashboard/review` under `/admin/dashboard`). */
function isUnder(pathname: string, base: string): boolean {
  const lower = pathname.toLowerCase();
  return lower === base.toLowerCase() || lower.startsWith(`${base.toLowerCase()}/`);
}

export class Router {
  location: Location;
  match: Match | null;
  private index: number;
  private readonly moves = new Signal();
  private readonly guards = new Set<LeaveGuard>();
  /** Set while the router itself undoes a Back or Forward that a guard refused: that move is not asked about. */
  private undoing = false;
  private readonly positions: Map<string, number>;

  constructor(
    private readonly routes: readonly RouteDefinition[],
    private readonly history: HistorySource,
    /** The path the app lives under ('' for the site's root): left out of `location.pathname`, put into links. */
    private readonly base = '',
    private readonly scroll: { window: Window; storage: Storage | null } | null = null,
  ) {
    const { url, state } = history.read();
    const entry = entryStateOf(state);
    this.index = entry?.index ?? 0;
    this.location = this.locationOf(url, entry?.key ?? newKey());
    // The first entry of a visit gets the router's state (a reload keeps it, with its key and its place).
    if (!entry)
      history.write(url.pathname + url.search + url.hash, { key: this.location.key, index: this.index }, true);
    this.match = this.matchOf(this.location.pathname);
    this.positions = new Map(this.readPositions());
    history.onPop(() => this.popped());
    if (scroll) {
      scroll.window.history.scrollRestoration = 'manual';
      scroll.window.addEventListener('pagehide', () => this.keepScroll());
    }
  }

  /** Listens to every move; returns the unsubscribe. */
  readonly subscribe = this.moves.subscribe;

  /** Adds a guard asked before every move; returns its removal. */
  guard(guard: LeaveGuard): () => void {
    this.guards.add(guard);
    return () => void this.guards.delete(guard);
  }

  /** The address a link to `to` carries (with the base). */
  href(to: To): string {
    const { pathname, search, hash } = this.resolve(to);
    return `${this.base}${pathname === '/' && this.base ? '' : pathname}${search}${hash}`;
  }

  /**
   * Moves to `to` unless a guard refuses. A move to the very address the visitor is at replaces the entry instead of
   * adding a second one, as a link to the current page should.
   */
  navigate = (to: To, { replace = false }: NavigateOptions = {}): void => {
    const next = { ...this.resolve(to), key: newKey() };
    if (!this.allowed(next)) return;
    const href = this.href(next);
    const replacing = replace || href === this.href(this.location);
    this.keepScroll();
    if (!replacing) this.index += 1;
    this.history.write(href, { key: next.key, index: this.index }, replacing);
    this.moved(next);
  };

  /** Back (-1) or Forward (1) through the history, as the browser's buttons: the guards are asked on arrival. */
  go = (delta: number): void => this.history.go(delta);

  /** The scroll position kept for the current entry, if the visitor has been here before (Back, a reload). */
  keptScroll(): number | undefined {
    return this.positions.get(this.location.key);
  }

  /** Where `to` leads, as seen from the current location (`?tab=x` keeps the path). */
  resolve(to: To): Omit<Location, 'key'> {
    if (typeof to !== 'string') {
      return { pathname: to.pathname ?? this.location.pathname, search: to.search ?? '', hash: to.hash ?? '' };
    }
    const url = new URL(to, `http://router${this.location.pathname}`);
    return { pathname: url.pathname, search: url.search, hash: url.hash };
  }

  private locationOf(url: URL, key: string): Location {
    const under = this.base && isUnder(url.pathname, this.base);
    const pathname = under ? url.pathname.slice(this.base.length) || '/' : url.pathname;
    return { pathname, search: url.search, hash: url.hash, key };
  }

  private matchOf(pathname: string): Match | null {
    for (const route of this.routes) {
      const params = matchPath(route.path, pathname);
      if (params) return { route, params };
    }
    return null;
  }

  private allowed(next: Location): boolean {
    for (const guard of this.guards) if (!guard(this.location, next)) return false;
    return true;
  }

  /** Back or Forward: the browser is already at the entry; a refused move is undone by going the other way. */
  private popped(): void {
    if (this.undoing) {
      this.undoing = false;
      return;
    }
    const { url, state } = this.history.read();
    let entry = entryStateOf(state);
    // An entry the browser made itself (a link to a fragment of the page) comes after the one it was made from.
    if (!entry) {
      entry = { key: newKey(), index: this.index + 1 };
      this.history.write(url.pathname + url.search + url.hash, entry, true);
    }
    const next = this.locationOf(url, entry.key);
    if (!this.allowed(next)) {
      const delta = this.index - entry.index;
      if (delta !== 0) {
        this.undoing = true;
        this.history.go(delta);
      }
      return;
    }
    this.keepScroll();
    this.index = entry.index;
    this.moved(next);
  }

  private moved(next: Location): void {
    this.location = next;
    this.match = this.matchOf(next.pathname);
    this.moves.emit();
  }

  private readPositions(): [string, number][] {
    try {
      const kept: unknown = JSON.parse(this.scroll?.storage?.getItem(SCROLL_STORE) ?? '[]');
      return Array.isArray(kept) ? (kept as [string, number][]) : [];
    } catch {
      return [];
    }
  }

  /** Keeps the current entry's scroll position (and writes them all to the session's storage, when there is one). */
  private keepScroll(): void {
    if (!this.scroll) return;
    this.positions.delete(this.location.key);
    this.positions.set(this.location.key, this.scroll.window.scrollY);
    for (const key of this.positions.keys()) {
      if (this.positions.size <= SCROLL_KEEP) break;
      this.positions.delete(key);
    }
    try {
      this.scroll.storage?.setItem(SCROLL_STORE, JSON.stringify([...this.positions]));
    } catch {
      // Storage full or refused: positions are kept for this page's life only.
    }
  }
}

/** The router of the page: the browser's history and address, under `base`. */
export function createBrowserRouter(routes: readonly RouteDefinition[], { base = '' } = {}): Router {
  let storage: Storage | null = null;
  try {
    storage = window.sessionStorage;
  } catch {
    // Storage refused (a privacy setting): scroll positions last as long as the page.
  }
  const history: HistorySource = {
    read: () => ({ url: new URL(window.location.href), state: window.history.state as unknown }),
    write: (url, state, replace) =>
      replace ? window.history.replaceState(state, '', url) : window.history.pushState(state, '', url),
    go: (delta) => window.history.go(delta),
    onPop: (listener) => {
      window.addEventListener('popstate', listener);
      return () => window.removeEventListener('popstate', listener);
    },
  };
  return new Router(routes, history, base, { window, storage });
}

/** A router whose history is a list in memory, at `path`: for rendering without a browser and for tests. */
export function createMemoryRouter(routes: readonly RouteDefinition[], path = '/', { base = '' } = {}): Router {
  const entries: { url: URL; state: unknown }[] = [{ url: new URL(path, 'http://memory'), state: null }];
  let current = 0;
  const listeners = new Set<() => void>();
  const history: HistorySource = {
    read: () => entries[current]!,
    write: (url, state, replace) => {
      const entry = { url: new URL(url, 'http://memory'), state };
      if (replace) entries[current] = entry;
      else entries.splice(++current, entries.length, entry);
    },
    go: (delta) => {
      current = Math.min(entries.length - 1, Math.max(0, current + delta));
      for (const listener of listeners) listener();
    },
    onPop: (listener) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
  return new Router(routes, history, base);
}
