/** The site's paths to a square's pages and to a profile: built here only, so every link encodes its tokens alike. */

/** A square's pages: the tree centred on it, its piece's details, its editor. */
export type CellPage = 'tree' | 'details' | 'edit';

export function cellPath(cellToken: string, page: CellPage): string {
  const token = encodeURIComponent(cellToken);
  switch (page) {
    case 'tree':
      return `/observe?cell=${token}`;
    case 'details':
    case 'edit':
      return `/observe/cell/${token}/${page}`;
  }
}

/** The extend page of a reservation: the reminder e-mails' link, and the holder's way there from the square. */
export function extendPath(cellToken: string, reminderToken: string): string {
  return `/observe/cell/${encodeURIComponent(cellToken)}/reserve/${encodeURIComponent(reminderToken)}/extend`;
}

export function profilePath(userToken: string): string {
  return `/profile/${encodeURIComponent(userToken)}`;
}

/**
 * Whether a page is about one thing someone linked to (a square on the tree or its pages, a profile, a reset link),
 * where nothing else should be put in front of it.
 */
export function isDeepLink(pathname: string, search: string): boolean {
  if (pathname === '/observe') return new URLSearchParams(search).has('cell');
  return ['/observe/cell/', '/profile/', '/restore-password/'].some((prefix) => pathname.startsWith(prefix));
}
