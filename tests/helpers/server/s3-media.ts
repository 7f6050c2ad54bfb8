/**
 * A gallery pointed at a bucket of the test's object store server (tests/helpers/object-store-server.ts), the way an
 * operator points one: the environment variables, or the media storage's options loadConfig makes of them.
 */
import { afterAll } from 'vitest';
import { loadConfig, type AppConfig } from '#server/config.ts';
import type { MediaStorageOptions } from '#server/storage/index.ts';
import { startObjectStoreServer, stopObjectStoreServer, type ObjectStoreServer } from '../object-store-server.ts';

/** MEDIA_STORAGE=s3 and the S3_ variables for `bucket`; `extra` adds or replaces some (MEDIA_PUBLIC_URL, a key). */
export function s3Environment(
  server: ObjectStoreServer,
  bucket: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    MEDIA_STORAGE: 's3',
    S3_ENDPOINT: server.endpoint,
    S3_BUCKET: bucket,
    S3_REGION: server.region,
    S3_ACCESS_KEY_ID: server.accessKeyId,
    S3_SECRET_ACCESS_KEY: server.secretAccessKey,
    ...extra,
  };
}

/** The media storage's options for `bucket`, as the app reads them from that environment. */
export function s3Media(
  server: ObjectStoreServer,
  bucket: string,
  extra: Record<string, string> = {},
): MediaStorageOptions {
  return loadConfig({ ...s3Environment(server, bucket, extra), DATA_DIR: '.' }).media;
}

/** A media adapter a server test runs on: its kind, and the app config that points a new app at a fresh store. */
export interface MediaAdapter {
  kind: 'folder' | 's3';
  config: () => Promise<Partial<AppConfig>>;
}

/**
 * The two adapters for `describe.each`: the app's own media folder, and a new bucket on the file's object store
 * server, started when a test first asks for one and stopped after the file.
 */
export function mediaAdapters(): MediaAdapter[] {
  let objectStore: ObjectStoreServer | undefined;
  afterAll(async () => {
    if (objectStore) await stopObjectStoreServer(objectStore);
  });
  return [
    { kind: 'folder', config: async () => ({}) },
    {
      kind: 's3',
      config: async () => {
        objectStore ??= await startObjectStoreServer();
        return { media: s3Media(objectStore, await objectStore.createBucket()) };
      },
    },
  ];
}
