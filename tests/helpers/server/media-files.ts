/**
 * What the media storage holds, for tests that prove a call stored or deleted nothing, on either adapter: the
 * folder's whole listing (a temporary file a write left behind counts too), or the bucket's media files.
 */
import fs from 'node:fs';
import type { MediaStorage } from '#server/storage/index.ts';

export async function storedFiles(media: MediaStorage): Promise<string[]> {
  const where = media.describe();
  if (where.kind === 'folder') return fs.readdirSync(where.dir).sort();
  const names: string[] = [];
  for await (const file of media.list()) names.push(file.name);
  return names.sort();
}
