/** Sets the document title: the page's own, then the gallery's name ("learn." → "learn. · Gallery Tree"). */
import { useEffect } from 'react';

/** The gallery's name, as titles, captions and file names write it. */
export const SITE_NAME = 'Gallery Tree';

export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = title ? `${title} · ${SITE_NAME}` : SITE_NAME;
  }, [title]);
}
