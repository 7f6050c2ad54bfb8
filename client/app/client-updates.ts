/**
 * A page opened before an upgrade (decision 041). The page knows the build it came from (`<meta name="client-build">`,
 * put in by the server), and every tRPC answer says which build the server hands out now (`X-Client-Build`). When
 * they differ, an update is waiting: the next move to another page of the app becomes a full load of that page, so
 * the visitor gets the new build at a moment when nothing is on screen to lose, never while a form holds unsaved
 * input (the art editor says so through useUnsavedInput). Meanwhile the old page keeps working: the server keeps the
 * previous builds' files for a week. A lazy module the page waits for that fails to load all the same reloads the
 * page, once per build.
 */
import { useEffect } from 'react';
import type { Router } from '#client/router/router.ts';
import { aLoadIsAwaited } from './module-loader.ts';

export const CLIENT_BUILD_HEADER = 'X-Client-Build';
const RELOADED_FOR = 'gallery-tree.reloaded-for-build';

let ownBuild: string | null | undefined;
let updateWaiting = false;
const unsaved = new Set<object>();

/** The build this page came from; null under the dev server, which says none (no updates are looked for there). */
function pageBuild(): string | null {
  if (ownBuild === undefined) {
    ownBuild = document.querySelector<HTMLMetaElement>('meta[name="client-build"]')?.content || null;
  }
  return ownBuild;
}

/** Called with the build an answer of the server names. */
export function noteServerBuild(build: string | null): void {
  const own = pageBuild();
  if (build && own && build !== own && build !== 'none') updateWaiting = true;
}

/** While `active`, a move to another page is not turned into a reload (a form holds what the visitor entered). */
export function useUnsavedInput(active: boolean): void {
  useEffect(() => {
    if (!active) return;
    const form = {};
    unsaved.add(form);
    return () => void unsaved.delete(form);
  }, [active]);
}

/**
 * After each move to another page (a new path; a change of the query alone, as the tree's view makes, is not one),
 * a waiting update reloads the page the visitor is going to, unless a form holds unsaved input at that moment.
 */
export function reloadOnNavigationWhenUpdated(router: Router): void {
  let pathname = router.location.pathname;
  router.subscribe(() => {
    if (router.location.pathname === pathname) return;
    pathname = router.location.pathname;
    if (updateWaiting && unsaved.size === 0) window.location.reload();
  });
}

/**
 * Vite's loader says `vite:preloadError` when a lazy module (or its styles) cannot be loaded: most likely the page
 * is older than the builds the server still keeps. When something on the page waits for it, the page reloads, once
 * per build it came from, so a file that is missing for another reason shows its error instead of reloading again and
 * again. A module fetched ahead of need that fails reloads nothing: the visitor did not ask for it, and is not
 * interrupted; it is asked for again when they do.
 */
export function reloadWhenALazyModuleFails(): void {
  window.addEventListener('vite:preloadError', (event) => {
    if (!aLoadIsAwaited()) return;
    const build = pageBuild() ?? 'unknown';
    try {
      if (sessionStorage.getItem(RELOADED_FOR) === build) return;
      sessionStorage.setItem(RELOADED_FOR, build);
    } catch {
      return; // no storage to remember the attempt in: better an error than a loop
    }
    event.preventDefault();
    window.location.reload();
  });
}
