/** The words the gallery uses for its codes, one table each, for every page, e-mail and feed. */
import { ArtStatus } from './domain.ts';
import type { AiUse } from './constants.ts';

/** What a piece with no title is called. */
export const UNTITLED = 'Untitled';

export function titleOrUntitled(title: string): string {
  return title.trim() !== '' ? title : UNTITLED;
}

/** A piece's status as its author and staff read it. */
export const ART_STATUS_WORDS: Record<ArtStatus, string> = {
  [ArtStatus.Draft]: 'Draft',
  [ArtStatus.Submitted]: 'Waiting for review',
  [ArtStatus.Published]: 'Published',
  [ArtStatus.ChangesRequested]: 'Changes requested',
  [ArtStatus.Removed]: 'Removed',
};

/** How AI took part in a piece: `label` in the facts and the editor, `badge` on a search result. */
export const AI_USE_WORDS: Record<AiUse, { label: string; badge: string }> = {
  none: { label: 'No AI used', badge: 'No AI' },
  assisted: { label: 'Made with AI assistance', badge: 'AI-assisted' },
  generated: { label: 'AI-generated', badge: 'AI-generated' },
};
