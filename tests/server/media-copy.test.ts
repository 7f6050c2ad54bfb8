/**
 * `npm run media -- copy --to s3|folder` (scripts/media.ts, server/storage/copy.ts; decision 044's amendment) against
 * a real S3-compatible server (Swift with s3api, one for the file): a media folder of real pictures and an avatar
 * copied into a new bucket and checked byte for byte, temporaries and other files left out; a second run copies
 * nothing and says so; a run after a copy damaged in the bucket (an object gone, one with other bytes of the same
 * size) writes exactly those two again; a source file whose bytes do not match its name is refused, named, and makes
 * the exit code 1 while the others are copied; the bucket copied back into an empty folder gives the same bytes, and
 * a file cut short there is replaced;
 * missing variables and a wrong secret stop the command in one line that never holds the secret.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMediaPlaces } from '#server/config.ts';
import { prepareAvatar } from '#server/services/accounts/avatars.ts';
import { preparePicture, writePreparedPicture } from '#server/services/media/images.ts';
import { copyMedia, nameMismatch } from '#server/storage/copy.ts';
import { createMediaStorage, type MediaStorage } from '#server/storage/index.ts';
import { tempDir } from '#tests/helpers/server/test-app.ts';
import { png } from '../helpers/art-fixtures.ts';
import { runScript, type ScriptRun } from '../helpers/server/real-server.ts';
import { s3Environment, s3Media } from '../helpers/server/s3-media.ts';
import {
  startObjectStoreServer,
  stopObjectStoreServer,
  type ObjectStoreServer,
} from '../helpers/object-store-server.ts';

let store: ObjectStoreServer;
const opened: MediaStorage[] = [];
beforeAll(async () => {
  store = await startObjectStoreServer();
}, 60_000);
afterAll(async () => {
  await Promise.all(opened.map((storage) => storage.close()));
  await stopObjectStoreServer(store);
});

function bucketStorage(bucket: string): MediaStorage {
  const storage = createMediaStorage(s3Media(store, bucket));
  opened.push(storage);
  return storage;
}

const folderStorage = (dataDir: string) => createMediaStorage({ kind: 'folder', dir: path.join(dataDir, 'media') });

/**
 * The S3_ variables of `bucket` with MEDIA_STORAGE left at its default, the folder (which the start-up would refuse):
 * the command runs before the switch as well as after it.
 */
function copyEnvironment(bucket: string, extra: Record<string, string> = {}) {
  const { MEDIA_STORAGE: _storage, ...s3 } = s3Environment(store, bucket, extra);
  return s3;
}

/** The command as `npm run media` runs it, in a process of its own, with only `env` set besides DATA_DIR. */
const media = (args: string[], dataDir: string, env: Record<string, string> = {}) =>
  runScript('media.ts', args, dataDir, env);

/** A data folder whose media folder holds `pictures` real pictures (two sizes each) and an avatar, as saves write. */
async function galleryFolder(pictures: number): Promise<string> {
  const dataDir = tempDir('gallery-media-copy-');
  fs.mkdirSync(path.join(dataDir, 'media'));
  const folder = folderStorage(dataDir);
  for (let index = 0; index < pictures; index++) {
    const colour = `#${(0x203040 + index * 0x151307).toString(16).slice(-6)}`;
    await writePreparedPicture(folder, await preparePicture(await png(48 + index, 32, colour)));
  }
  const avatar = await prepareAvatar(await png(300, 300, '#a05020'));
  if ('error' in avatar) throw new Error(avatar.error);
  await folder.put(avatar.name, avatar.bytes);
  return dataDir;
}

/** Every media file of a storage with its bytes, by name. */
async function contents(storage: MediaStorage): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  for await (const { name } of storage.list()) files.set(name, (await storage.get(name))!);
  return new Map([...files].sort(([a], [b]) => a.localeCompare(b)));
}

describe('a media folder copied into a bucket and back', () => {
  let dataDir: string;
  let bucket: string;
  let source: Map<string, Buffer>;
  beforeAll(async () => {
    [dataDir, bucket] = await Promise.all([galleryFolder(3), store.createBucket()]);
    source = await contents(folderStorage(dataDir));
    // What the folder may hold besides pictures: a write a killed process left, a file of the operator's.
    fs.writeFileSync(path.join(dataDir, 'media', `.${[...source.keys()][0]}.0123456789ab.tmp`), 'half');
    fs.writeFileSync(path.join(dataDir, 'media', 'NOTES.txt'), 'kept by hand');
  }, 30_000);

  it('copies every picture into the bucket, checked, and leaves out what is not one', async () => {
    expect(source.size).toBe(7);
    const run = await media(['copy', '--to', 's3'], dataDir, copyEnvironment(bucket));
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`to bucket ${bucket} at ${store.endpoint}, 8 at a time.`);
    expect(run.stdout).toMatch(/Done in [\d.]+ s, 7 files: 7 copied, 0 already there, 0 replaced, 0 refused; /);
    expect(run.stdout + run.stderr).not.toContain(store.secretAccessKey);
    expect(await contents(bucketStorage(bucket))).toEqual(source);
    // The bucket's listing says each object's MD5 (its ETag), which lets the next runs skip a file without reading it.
    for await (const file of bucketStorage(bucket).list())
      expect(file.md5, file.name).toBe(createHash('md5').update(source.get(file.name)!).digest('hex'));
  }, 60_000);

  it('copies nothing the second time, and says so', async () => {
    const run = await media(['copy', '--to=s3'], dataDir, copyEnvironment(bucket));
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Nothing to copy: all 7 files were already there, the same');
    const again = await copyMedia(folderStorage(dataDir), bucketStorage(bucket));
    expect(again).toMatchObject({
      looked: 7,
      copied: 0,
      alreadyThere: 7,
      replaced: 0,
      refused: 0,
      failed: 0,
      bytes: 0,
    });
  }, 60_000);

  it('writes again only the objects missing or wrong in the bucket', async () => {
    const storage = bucketStorage(bucket);
    const [gone, damaged] = [...source.keys()];
    await storage.delete(gone!);
    // Other bytes of the same size, which only a look at the bytes (or their MD5) tells from the right ones.
    const wrong = Buffer.from(source.get(damaged!)!);
    const middle = wrong.length >> 1;
    wrong.writeUInt8(wrong.readUInt8(middle) ^ 0xff, middle);
    await storage.delete(damaged!);
    await storage.put(damaged!, wrong);

    const progress: number[] = [];
    const result = await copyMedia(folderStorage(dataDir), storage, {
      atOnce: 3,
      progressEveryFiles: 3,
      onProgress: (tally) => progress.push(tally.looked),
    });
    expect(progress).toEqual([3, 6]);
    expect(result).toMatchObject({ looked: 7, copied: 1, replaced: 1, alreadyThere: 5, refused: 0, failed: 0 });
    expect(result.bytes).toBe(source.get(gone!)!.length + wrong.length);
    expect(await contents(storage)).toEqual(source);
  });

  it('copies the bucket back into an empty data folder, the same bytes', async () => {
    const back = tempDir('gallery-media-back-');
    const run = await media(['copy', '--to', 'folder'], back, copyEnvironment(bucket));
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Copying the pictures of bucket ${bucket} at ${store.endpoint} to the folder`);
    expect(run.stdout).toContain('7 copied');
    expect(fs.readdirSync(path.join(back, 'media')).sort()).toEqual([...source.keys()]);
    expect(await contents(folderStorage(back))).toEqual(source);
    // A wrong file in the folder (a copy cut short by another tool) is replaced; the right ones stay as they are.
    const [cut] = [...source.keys()];
    fs.writeFileSync(path.join(back, 'media', cut!), source.get(cut!)!.subarray(0, source.get(cut!)!.length >> 1));
    const again = await copyMedia(bucketStorage(bucket), folderStorage(back));
    expect(again).toMatchObject({ copied: 0, replaced: 1, alreadyThere: 6, failed: 0 });
    expect(await contents(folderStorage(back))).toEqual(source);
    fs.rmSync(back, { recursive: true, force: true });
  }, 60_000);

  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
});

describe('what the copy refuses', () => {
  it('refuses a picture whose bytes do not match its name, names it, copies the others and exits with 1', async () => {
    const [dataDir, bucket] = await Promise.all([galleryFolder(1), store.createBucket()]);
    const good = await contents(folderStorage(dataDir));
    const large = [...good.keys()].find((name) => name.endsWith('-large.webp'))!;
    const damaged = `${'ab'.repeat(16)}-large.webp`;
    fs.writeFileSync(path.join(dataDir, 'media', damaged), good.get(large)!);
    expect(nameMismatch(large, good.get(large)!)).toBeNull();
    expect(nameMismatch(damaged, good.get(large)!)).toMatch(/^its bytes hash to [0-9a-f]{32}, not to the abab/);

    const run = await media(['copy', '--to', 's3'], dataDir, copyEnvironment(bucket));
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/4 files: 3 copied, 0 already there, 0 replaced, 1 refused/);
    expect(run.stderr).toContain(`${damaged}: not copied: its bytes hash to ${large.slice(0, 32)}, not to the abab`);
    expect(run.stderr).toContain('1 files do not hold the bytes their names say and were not copied');
    expect(await contents(bucketStorage(bucket))).toEqual(good);
    // Nothing is taken from the source, the refused file included.
    expect(fs.readdirSync(path.join(dataDir, 'media')).sort()).toEqual([...good.keys(), damaged].sort());
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('stops in one line for missing variables, a wrong secret or no command, never printing the secret', async () => {
    const dataDir = await galleryFolder(0);
    const bucket = await store.createBucket();
    const { S3_BUCKET: _bucket, ...withoutBucket } = copyEnvironment(bucket);
    const { S3_ACCESS_KEY_ID: _key, ...withoutKey } = copyEnvironment(bucket);
    const wrongSecret = `${store.secretAccessKey}-not-it`;
    const [noBucket, noKey, refused, usage, unknown] = await Promise.all([
      media(['copy', '--to', 's3'], dataDir, withoutBucket),
      media(['copy', '--to', 'folder'], dataDir, withoutKey),
      media(['copy', '--to', 's3'], dataDir, copyEnvironment(bucket, { S3_SECRET_ACCESS_KEY: wrongSecret })),
      media([], dataDir),
      media(['copy', '--to', 'disk'], dataDir),
    ]);
    const lines = (run: ScriptRun) => run.stderr.trim().split('\n');
    expect(noBucket.code).toBe(1);
    expect(lines(noBucket)).toEqual([
      "Cannot copy the pictures: Missing environment variable S3_BUCKET: copying to or from the bucket needs the bucket's name.",
    ]);
    expect(noKey.code).toBe(1);
    expect(lines(noKey)).toEqual([
      'Cannot copy the pictures: Missing environment variable S3_ACCESS_KEY_ID: copying to or from the bucket needs the access key.',
    ]);
    expect(refused.code).toBe(1);
    expect(lines(refused)).toEqual([
      `Cannot copy the pictures: Object storage (bucket ${bucket} at ${store.endpoint}) refused: access refused (HTTP 403): wrong keys, or keys without access to the bucket.`,
    ]);
    for (const run of [usage, unknown]) {
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/^Usage: npm run media -- copy --to s3 /);
    }
    for (const run of [noBucket, noKey, refused, usage, unknown]) {
      expect(run.stdout).not.toContain('Copying');
      expect(run.stdout + run.stderr).not.toContain(store.secretAccessKey);
    }
    expect(await contents(bucketStorage(bucket))).toEqual(new Map());
    expect(() => loadMediaPlaces({ S3_BUCKET: bucket, S3_ACCESS_KEY_ID: 'key' })).toThrow(
      /^Missing environment variable S3_SECRET_ACCESS_KEY: /,
    );
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);
});
