/**
 * Running out of disk space is its own answer (decision 026): `insufficient_storage` (507) for a write that failed for
 * lack of space, uploads refused below MIN_FREE_SPACE_MB, and the storage state for /api/health.
 */
import fs from 'node:fs';
import { ErrorCode } from '#shared/errors.ts';
import { AppError, lastOutOfSpaceAt } from './errors.ts';
import type { MediaStorage } from './storage/index.ts';

/** After a write failed for lack of space, the storage counts as full for this long (unless space is seen again). */
const FULL_FOR_MS = 60_000;

export type StorageState = 'ok' | 'low' | 'full';

/**
 * The data folder's free space and what it means: `full` when a write has just failed for lack of space (and free
 * space has not come back above the threshold since) or almost nothing is left, `low` under the threshold, where
 * uploads are refused, else `ok`.
 */
export function storageState(dataDir: string, minFreeBytes: number): { state: StorageState; freeBytes: number } {
  const stats = fs.statfsSync(dataDir);
  const freeBytes = stats.bavail * stats.bsize;
  const recentlyFull = Date.now() - lastOutOfSpaceAt() < FULL_FOR_MS && freeBytes < minFreeBytes;
  const state = recentlyFull || freeBytes < 1024 * 1024 ? 'full' : freeBytes < minFreeBytes ? 'low' : 'ok';
  return { state, freeBytes };
}

/**
 * Refuses an upload (507) before its images are decoded when the media folder is low on space. Pictures kept in object
 * storage take none of this machine's disk, so nothing is checked for them: a store that refuses a write fails the
 * save like any other error (decision 044).
 */
export function ensureRoomForUpload(media: MediaStorage, minFreeBytes: number): void {
  const where = media.describe();
  if (where.kind !== 'folder' || storageState(where.dir, minFreeBytes).state === 'ok') return;
  throw new AppError(
    ErrorCode.InsufficientStorage,
    'The gallery is running out of storage space, so new pictures cannot be accepted right now. Nothing was saved; please try again later.',
  );
}
