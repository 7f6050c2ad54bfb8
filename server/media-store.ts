/**
 * The one module that stores media files (docs/architecture.md, Layers): content-hashed names in the data folder,
 * written to a temporary name and renamed, so a crash never leaves half a file under a real name. Moving media to
 * object storage is a change here alone.
 */
import fs from 'node:fs/promises';
import { existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

export const MEDIA_URL_PREFIX = '/media/';

const AVATAR_NAME = /^[0-9a-f]{32}-avatar\.jpg$/;

/** Whether a media file is named the way avatars are (services/accounts/avatars.ts writes them; the orphan sweep judges them). */
export function isAvatarName(name: string): boolean {
  return AVATAR_NAME.test(name);
}

export interface MediaStore {
  readonly dir: string;
  write: (name: string, bytes: Buffer) => Promise<void>;
  /**
   * Writes the file now if it is missing (synchronously). A save calls it inside the transaction that names the
   * file, so a removal that ran before it (under the same write lock) is undone before the row commits.
   */
  restoreSync: (name: string, bytes: Buffer) => void;
  exists: (name: string) => boolean;
  remove: (name: string) => Promise<void>;
  /** Removes a file now; callers hold the database's write lock and have checked that no row names it. */
  removeSync: (name: string) => void;
  list: () => Promise<string[]>;
  /** Deletes temporary files last written before `before` (ms): what a process killed mid-write left behind. */
  removeStaleTemporaries: (before: number) => Promise<string[]>;
  urlOf: (name: string) => string;
}

const TEMPORARY = /^\..+\.[0-9a-f]{12}\.tmp$/;

const SAFE_NAME = /^[a-z0-9][a-z0-9._-]{0,127}$/;

export function createMediaStore(dir: string): MediaStore {
  const pathOf = (name: string) => {
    if (!SAFE_NAME.test(name)) throw new Error(`Unsafe media name: ${name}`);
    return path.join(dir, name);
  };
  const temporaryOf = (name: string) => path.join(dir, `.${name}.${randomBytes(6).toString('hex')}.tmp`);
  return {
    dir,
    async write(name, bytes) {
      const target = pathOf(name);
      if (existsSync(target)) return; // content-hashed: same name, same bytes
      const temporary = temporaryOf(name);
      try {
        await fs.writeFile(temporary, bytes);
        await fs.rename(temporary, target);
      } catch (error) {
        // A full disk leaves part of the file written: it goes at once, not at the next sweep.
        await fs.rm(temporary, { force: true }).catch(() => {});
        throw error;
      }
    },
    restoreSync(name, bytes) {
      const target = pathOf(name);
      if (existsSync(target)) return;
      const temporary = temporaryOf(name);
      try {
        writeFileSync(temporary, bytes);
        renameSync(temporary, target);
      } catch (error) {
        rmSync(temporary, { force: true });
        throw error;
      }
    },
    exists: (name) => existsSync(pathOf(name)),
    async remove(name) {
      await fs.rm(pathOf(name), { force: true });
    },
    removeSync(name) {
      rmSync(pathOf(name), { force: true });
    },
    async list() {
      return (await fs.readdir(dir)).filter((name) => !name.startsWith('.'));
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
    urlOf: (name) => MEDIA_URL_PREFIX + name,
  };
}
