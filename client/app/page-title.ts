/** Sets the document title: the page's own, then the gallery's name ("learn." → "learn. · Gallery Tree"). */
import { useEffect } from 'react';

export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = title ? `${title} · Gallery Tree` : 'Gallery Tree';
  }, [title]);
}
