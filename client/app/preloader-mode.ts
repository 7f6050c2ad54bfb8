/**
 * How the preloader plays on this page load: the full animation on a session's first page, else short, or skipped
 * (decision 007).
 */

export type PreloaderMode = 'full' | 'short' | 'skip';

export const PRELOADER_FLAG_KEY = 'gallery-tree:preloader';
const SEEN_KEY = 'gallery-tree:preloader-seen';

interface Environment {
  search: string;
  local: Pick<Storage, 'getItem'> | null;
  session: Pick<Storage, 'getItem' | 'setItem'> | null;
  webdriver: boolean;
  reducedMotion: boolean;
}

/** Storage can throw (disabled cookies, private modes): treat that as no storage. */
function storage(kind: 'localStorage' | 'sessionStorage'): Storage | null {
  try {
    return window[kind];
  } catch {
    return null;
  }
}

function read(store: Pick<Storage, 'getItem'> | null, key: string): string | null {
  try {
    return store?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function browserEnvironment(): Environment {
  return {
    search: window.location.search,
    local: storage('localStorage'),
    session: storage('sessionStorage'),
    webdriver: navigator.webdriver === true,
    reducedMotion: window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false,
  };
}

/**
 * Decides the mode, and remembers that this session has seen the full animation. `?nopreload` or localStorage
 * `gallery-tree:preloader` = `skip`: no preloader; `?preload` or `play`: the full animation, always; otherwise a
 * browser driven by automation (`navigator.webdriver`, true under Playwright) skips it, so browser tests do not each
 * wait seven seconds (the preloader's own test forces it with `?preload`). Reduced motion gets the short version.
 */
export function preloaderMode(env: Environment = browserEnvironment()): PreloaderMode {
  const params = new URLSearchParams(env.search);
  const flag = read(env.local, PRELOADER_FLAG_KEY);
  if (params.has('nopreload') || flag === 'skip') return 'skip';
  const forced = params.has('preload') || flag === 'play';
  if (!forced && env.webdriver) return 'skip';
  if (env.reducedMotion) return 'short';
  if (forced) return 'full';
  if (read(env.session, SEEN_KEY) === '1') return 'short';
  try {
    env.session?.setItem(SEEN_KEY, '1');
  } catch {
    // Without session storage every load plays the full animation; that is all.
  }
  return 'full';
}
