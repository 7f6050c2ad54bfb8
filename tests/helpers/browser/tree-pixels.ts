/**
 * Helpers for browser tests that read the tree's pixels: the seeded tree as the page decodes it, and a colour of the
 * engine's palette as the RGB a screenshot shows.
 */
import { decodeSnapshot, type TreeCells, type TreeSnapshotWire } from '#shared/tree/snapshot.ts';
import { getDefaultTree } from '#server/services/tree/tree.ts';
import type { Gallery } from './harness.ts';

export type Rgb = [number, number, number];

export const rgb = (colour: number): Rgb => [(colour >> 16) & 0xff, (colour >> 8) & 0xff, colour & 0xff];

/** The gallery's default tree, decoded from the snapshot the server sends. */
export async function decodedTree(gallery: Gallery): Promise<TreeCells> {
  const tree = (await getDefaultTree(gallery.app.deps.db))!;
  const reply = await gallery.app.server.inject({ url: `/api/tree/${tree.token}` });
  return decodeSnapshot((reply.json() as { r: TreeSnapshotWire }).r);
}
