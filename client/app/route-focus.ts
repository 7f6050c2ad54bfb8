/**
 * After a move to another page, the keyboard and the screen reader start at the new page's main heading, and the
 * page's title is announced: without this, focus stays on the link that was clicked (now gone) and falls to <body>.
 */
import { useEffect, useRef, useState } from 'react';
import { useLocation } from '#client/router/react.tsx';

/** How long a page may take to draw its heading (its data loading) before the move is left alone. */
const HEADING_WAIT_MS = 5000;

/** Focuses `main h1` once it is there (tabindex -1 makes it focusable without putting it in the Tab order). */
function focusHeadingWhenDrawn(onFocused: (heading: HTMLElement) => void): () => void {
  const main = document.getElementById('main');
  if (!main) return () => {};
  const tryFocus = (): boolean => {
    const heading = main.querySelector<HTMLElement>('h1');
    // A page still loading shows "Loading…" (aria-busy) first; its heading comes with the content.
    if (!heading || main.querySelector('[aria-busy="true"]')) return false;
    if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
    // A page that moved focus on purpose (a dialog, a field with an error) keeps it.
    if (document.activeElement && document.activeElement !== document.body && main.contains(document.activeElement))
      return true;
    heading.focus({ preventScroll: true });
    onFocused(heading);
    return true;
  };
  if (tryFocus()) return () => {};
  const observer = new MutationObserver(() => {
    if (tryFocus()) stop();
  });
  const timer = window.setTimeout(() => stop(), HEADING_WAIT_MS);
  const stop = () => {
    observer.disconnect();
    window.clearTimeout(timer);
  };
  observer.observe(main, { childList: true, subtree: true, attributes: true, attributeFilter: ['aria-busy'] });
  return stop;
}

/**
 * Moves focus to the main heading on every change of path (not on the first page, where the browser starts at the
 * top anyway), and answers the sentence a polite live region should say: "<page title>, page loaded".
 */
export function useRouteFocus(): string {
  const { pathname } = useLocation();
  const first = useRef(true);
  const [announcement, setAnnouncement] = useState('');
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    setAnnouncement('');
    return focusHeadingWhenDrawn((heading) => {
      const name = heading.textContent?.trim() || document.title;
      setAnnouncement(`${name}, page loaded`);
    });
  }, [pathname]);
  return announcement;
}
