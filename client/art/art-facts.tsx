/** The words a piece is described with on its details page: dimensions, AI use (honesty), review status, facts list. */
import type { ArtDetails } from '#shared/art-api.ts';
import type { AiUse } from '#shared/constants.ts';
import { ArtStatus } from '#shared/domain.ts';
import { AI_USE_WORDS } from '#shared/words.ts';

/**
 * 'No size' when the artist said the piece has none (a digital work), 'W x H x D units' (as on manage profile), or,
 * on a draft that says neither yet, that the size is still to come: never a fact the artist did not give.
 */
export function formatDimensions(piece: Pick<ArtDetails, 'width' | 'height' | 'depth' | 'units' | 'no_size'>): string {
  if (piece.no_size) return 'No size';
  const sides = [piece.width, piece.height, piece.depth].map((side) => side.trim()).filter((side) => side !== '');
  return sides.length > 0 ? `${sides.join(' x ')} ${piece.units}` : 'Size not given yet';
}

/** Honesty, the first principle of The Ground: every piece says whether and how AI was used. */
/** The long words for each AI use (shared/words.ts), for the facts, the editor and the review. */
export const AI_USE_LABELS = Object.fromEntries(
  Object.entries(AI_USE_WORDS).map(([use, words]) => [use, words.label]),
) as Record<AiUse, string>;

/** What the author (or staff) is told on a piece that is not public yet, as a sentence; null for a published piece. */
export function unpublishedStatusSentence(status: number): string | null {
  switch (status) {
    case ArtStatus.Draft:
      return 'This piece is a draft';
    case ArtStatus.Submitted:
      return 'This piece is waiting for review';
    case ArtStatus.ChangesRequested:
      return 'This piece has changes requested';
    case ArtStatus.Removed:
      return 'This piece was removed';
    default:
      return null;
  }
}

const listed = (values: readonly string[]) => (values.length > 0 ? values.join(', ') : '—');
const plain = (value: string) => (value.trim() !== '' ? value : '—');

export function ArtFacts({ piece }: { piece: ArtDetails }) {
  const rows: [string, string, string][] = [
    ['Category', plain(piece.category), 'category'],
    ['Subject', plain(piece.subject), 'subject'],
    ['Style', plain(piece.style), 'style'],
    ['Medium', listed(piece.medium), 'medium'],
    ['Materials', listed(piece.materials), 'materials'],
    ['Dimensions', formatDimensions(piece), 'dimensions'],
    // A draft's AI answer is the editor's starting value until the artist confirms it by sending the piece.
    [
      'AI use',
      piece.status === ArtStatus.Draft ? 'Not confirmed yet' : (AI_USE_LABELS[piece.ai_use] ?? AI_USE_LABELS.none),
      'ai-use',
    ],
  ];
  return (
    <dl className="art-facts" data-testid="art-facts">
      {rows.map(([label, value, id]) => (
        <div className="art-facts__row" key={id}>
          <dt>{label}</dt>
          <dd data-testid={`art-${id}`}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
