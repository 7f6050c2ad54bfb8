/**
 * Where a visitor lands after logging in or registering: the page that asked them to log in, carried as `?next=`,
 * when it is a path of this site; welcome otherwise. Anything that could leave the site (another origin, `//host`,
 * a backslash trick) is ignored, so the parameter cannot be used to send someone elsewhere.
 */
export function returnPathOf(search: string, origin: string = window.location.origin): string {
  const next = new URLSearchParams(search).get('next');
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/';
  try {
    const url = new URL(next, origin);
    return url.origin === origin ? `${url.pathname}${url.search}${url.hash}` : '/';
  } catch {
    return '/';
  }
}

/** The login page, asked to come back to `path` (a path of this site with its query) afterwards. */
export function loginPathFor(path: string): string {
  return withNext('/login', path);
}

/** The registration page, asked to come back to `path` once the account exists. */
export function registrationPathFor(path: string): string {
  return withNext('/registration', path);
}

function withNext(page: string, path: string): string {
  return path === '/' ? page : `${page}?next=${encodeURIComponent(path)}`;
}
