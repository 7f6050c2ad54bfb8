/**
 * The local folder adapter of the media storage port (server/storage/port.ts), the default: every file directly in
 * one folder (DATA_DIR/media), under its media name, as galleries have always kept them. A file is written under a
 * temporary name and renamed, so a crash never leaves half a file under a real name; a temporary a killed process
 * left is named `.<name>.<12 hex digits>.tmp`, which no listing shows and removeStaleTemporaries deletes.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  checkedMediaName,
  contentTypeOf,
  isMediaName,
  MEDIA_PATH_PREFIX,
  type MediaStorage,
  type StoredMedia,
} from './port.ts';

const TEMPORARY = /^\..+\.[0-9a-f]{12}\.tmp$/;

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === 'ENOENT';
}

export function createFolderStorage(dir: string): MediaStorage {
  const pathOf = (name: string) => path.join(dir, checkedMediaName(name));
  const exists = async (name: string) => {
    try {
      await fs.access(pathOf(name));
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  };
  return {
    async put(name, bytes) {
      const target = pathOf(name);
      if (await exists(name)) return; // content-addressed: same name, same bytes
      const temporary = path.join(dir, `.${name}.${randomBytes(6).toString('hex')}.tmp`);
      try {
        await fs.writeFile(temporary, bytes);
        await fs.rename(temporary, target);
      } catch (error) {
        // A full disk leaves part of the file written: it goes at once, not at the next sweep.
        await fs.rm(temporary, { force: true }).catch(() => {});
        throw error;
      }
    },
    async get(name) {
      try {
        return await fs.readFile(pathOf(name));
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async stream(name) {
      let file: fs.FileHandle;
      try {
        file = await fs.open(pathOf(name));
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
      // The size of the file opened, which a rename onto the same name cannot change under the stream.
      const { size } = await file.stat().catch(async (error: unknown) => {
        await file.close();
        throw error;
      });
      return { body: file.createReadStream(), size, contentType: contentTypeOf(name) };
    },
    exists,
    async delete(name) {
      await fs.rm(pathOf(name), { force: true });
    },
    async *list(): AsyncGenerator<StoredMedia> {
      for (const name of await fs.readdir(dir)) {
        if (!isMediaName(name)) continue;
        // Removed since the folder was read: it is no longer stored.
        const stat = await fs.stat(path.join(dir, name)).catch(() => null);
        if (stat?.isFile()) yield { name, size: stat.size, modifiedAt: stat.mtimeMs };
      }
    },
    urlOf: (name) => MEDIA_PATH_PREFIX + checkedMediaName(name),
    describe: () => ({ kind: 'folder', dir }),
    async removeStaleTemporaries(before) {
      const removed: string[] = [];
      for (const name of await fs.readdir(dir)) {
        if (!TEMPORARY.test(name)) continue;
        const stat = await fs.stat(path.join(dir, name)).catch(() => null);
        if (!stat?.isFile() || stat.mtimeMs >= before) continue;
        await fs.rm(path.join(dir, name), { force: true });
        removed.push(name);
      }
      return removed;
    },
  };
}
