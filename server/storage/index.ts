/**
 * The media storage port's entry (server/storage/port.ts): createMediaStorage builds the adapter the options name,
 * the local folder (the default) or S3-compatible object storage.
 */
import { createFolderStorage } from './folder.ts';
import type { MediaStorage } from './port.ts';
import { createS3Storage, type S3StorageOptions } from './s3.ts';

export type MediaStorageOptions = { kind: 'folder'; dir: string } | ({ kind: 's3' } & S3StorageOptions);

export function createMediaStorage(options: MediaStorageOptions): MediaStorage {
  switch (options.kind) {
    case 'folder':
      return createFolderStorage(options.dir);
    case 's3':
      return createS3Storage(options);
  }
}

export { contentTypeOf, isMediaName, MEDIA_PATH_PREFIX, mediaUrlOf, serverMediaUrlOf } from './port.ts';
export type { MediaStorage, MediaStorageProblem, MediaUrlOf } from './port.ts';
