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
  serverMediaUrlOf,
  type MediaStorage,
  type StoredMedia,
} from './port.ts';

const TEMPORARY = /^\..+\.[0-9a-f]{12}\.tmp$/;

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === 'ENOENT';
}

/** Whether an error is the file system refusing this process a change to a file it may still read. */
function isNotAllowed(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'EPERM' || code === 'EACCES';
}

export function createFolderStorage(dir: string): MediaStorage {
  const pathOf = (name: string) => path.join(dir, checkedMediaName(name));
  const lookUp = async (name: string): Promise<StoredMedia | null> => {
    try {
      const stat = await fs.stat(pathOf(name));
      return stat.isFile() ? { name, size: stat.size, modifiedAt: stat.mtimeMs } : null;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  };
  return {
    async put(name, bytes) {
      const target = pathOf(name);
      // Stored already (content-addressed: same name, same bytes): only its date is renewed, so that the orphan
      // sweep sees a file a save has just used. Gone since (the sweep), or not this process's to touch (a file
      // restored by another user): written anew below, which the rename makes whole at once.
      try {
        const now = new Date();
        await fs.utimes(target, now, now);
        return;
      } catch (error) {
        if (!isMissing(error) && !isNotAllowed(error)) throw error;
      }
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
    exists: async (name) => (await lookUp(name)) !== null,
    lookUp,
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
    urlOf: serverMediaUrlOf,
    urlBase: MEDIA_PATH_PREFIX,
    describe: () => ({ kind: 'folder', dir }),
    async check() {
      try {
        await fs.access(dir, fs.constants.W_OK);
        return null;
      } catch (error) {
        return { refused: true, message: `The media folder ${dir} cannot be written: ${(error as Error).message}` };
      }
    },
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
    // A file is opened only for the length of one call: nothing stays open between them.
    close: async () => {},
  };
}
