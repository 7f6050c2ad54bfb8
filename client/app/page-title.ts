/** Sets the document title in the spec's page-title style ("learn." → "learn. · Gallery Tree"). */
import { useEffect } from 'react';

export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = title ? `${title} · Gallery Tree` : 'Gallery Tree';
  }, [title]);
}
