/**
 * A piece's deep-zoom pyramid for the tree's own zoom into it (decision 048). The tree's snapshot and region answers
 * carry a piece's thumbnail but not whether its picture has a pyramid, so the piece's public answer (GET
 * /api/cell/{cellToken}/art, the details page's) is asked, once per piece, when the visitor zooms past the tree's
 * limit over it: it says whether the pyramid is ready and where its descriptor is, which is then read. Guessing the
 * descriptor's name from the thumbnail's would do without the first request, but every piece without a pyramid would
 * then be a 404, an error in the browser's console.
 */
import type { PiecePyramid, PyramidDescriptor } from '#shared/deep-zoom.ts';
import { apiHeaders } from './initial-params.ts';

/** What the piece's answer holds of its pictures (its keys in snake_case, as every REST answer's). */
interface PieceAnswer {
  r?: { pictures?: { thumb: string; deep_zoom?: { state: string; descriptor: string | null } }[] };
}

/** The pyramid of the picture whose thumbnail the square shows (`thumb`), or null when it has none ready. */
export async function fetchPiecePyramid(cellToken: string, thumb: string): Promise<PiecePyramid | null> {
  const response = await fetch(`/api/cell/${encodeURIComponent(cellToken)}/art`, {
    headers: { ...apiHeaders(), Accept: 'application/json' },
    credentials: 'same-origin',
  });
  if (!response.ok) return null;
  const pictures = ((await response.json()) as PieceAnswer).r?.pictures ?? [];
  const picture = pictures.find((candidate) => candidate.thumb === thumb) ?? pictures[0];
  const descriptorUrl = picture?.deep_zoom?.state === 'ready' ? picture.deep_zoom.descriptor : null;
  if (!descriptorUrl) return null;
  const read = await fetch(descriptorUrl);
  if (!read.ok) return null;
  return { descriptorUrl, descriptor: (await read.json()) as PyramidDescriptor };
}
