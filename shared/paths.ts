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
