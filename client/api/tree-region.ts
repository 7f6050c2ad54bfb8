/**
 * GET /api/tree/{treeToken}/region: tokens, thumbnails and titles of one block of a large tree, from the plain route
 * beside the snapshot's (shared/tree/region.ts). The browser's cache revalidates with the ETag.
 */
import { regionQuery, type RegionBounds, type TreeRegionWire } from '#shared/tree/region.ts';
import { apiHeaders } from './initial-params.ts';

export async function fetchTreeRegion(
  treeToken: string,
  bounds: RegionBounds,
  signal?: AbortSignal,
): Promise<TreeRegionWire> {
  const response = await fetch(`/api/tree/${encodeURIComponent(treeToken)}/region?${regionQuery(bounds)}`, {
    headers: { ...apiHeaders(), Accept: 'application/json' },
    credentials: 'same-origin',
    signal,
  });
  if (!response.ok) throw new Error(`The tree's details could not be loaded (HTTP ${response.status}).`);
  return ((await response.json()) as { r: TreeRegionWire }).r;
}
