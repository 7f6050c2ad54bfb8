/**
 * The media storage port's contract (server/storage/port.ts, issue 34), one suite run against both adapters: the
 * local folder on a temporary folder, and S3 against a real S3-compatible server, a throwaway Swift with s3api
 * (tests/helpers/object-store-server.ts) that checks every request's signature. One server for the file, a new
 * bucket for each test. Then what only one adapter has: the folder's layout (the one galleries already have on
 * disk), its temporaries and its check; S3's refusals (a wrong secret, a missing bucket, no server), its listing in
 * pages, its public URL.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CopyObjectCommand, NoSuchBucket, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMediaStorage, type MediaStorage } from '#server/storage/index.ts';
import type { StoredMedia } from '#server/storage/port.ts';
import { copyFoundNoSource } from '#server/storage/s3.ts';
import {
  startObjectStoreServer,
  stopObjectStoreServer,
  type ObjectStoreServer,
} from '../helpers/object-store-server.ts';

interface Adapter {
  kind: 'folder' | 's3';
  setUp: () => Promise<void>;
  tearDown: () => Promise<void>;
  /** A new, empty storage for one test. */
  fresh: () => Promise<MediaStorage>;
  /** Another storage on the same folder or bucket, as another process would have. */
  sameStore: (storage: MediaStorage) => MediaStorage;
}

const folders: string[] = [];

const folderAdapter: Adapter = {
  kind: 'folder',
  setUp: async () => {},
  tearDown: async () => {
    for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
  },
  fresh: async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gallery-media-storage-'));
    folders.push(dir);
    return createMediaStorage({ kind: 'folder', dir });
  },
  sameStore: (storage) => {
    const described = storage.describe();
    if (described.kind !== 'folder') throw new Error('not a folder');
    return createMediaStorage({ kind: 'folder', dir: described.dir });
  },
};

/** The file's one object store server, started by the first describe that needs it and stopped after the last. */
let server: ObjectStoreServer | undefined;

async function startServerOnce(): Promise<void> {
  server ??= await startObjectStoreServer();
}

afterAll(async () => {
  if (server) await stopObjectStoreServer(server);
  server = undefined;
});

function objectStore(): ObjectStoreServer {
  if (!server) throw new Error('The object store server has not started');
  return server;
}

function s3Storage(
  bucket: string,
  changes: { secretAccessKey?: string; publicBaseUrl?: string; listPageSize?: number } = {},
) {
  const { endpoint, region, accessKeyId, secretAccessKey } = objectStore();
  return createMediaStorage({
    kind: 's3',
    endpoint,
    region,
    bucket,
    accessKeyId,
    secretAccessKey,
    forcePathStyle: true,
    ...changes,
  });
}

const s3Adapter: Adapter = {
  kind: 's3',
  setUp: startServerOnce,
  // The buckets go with the server, after the file.
  tearDown: async () => {},
  fresh: async () => s3Storage(await objectStore().createBucket()),
  sameStore: (storage) => {
    const described = storage.describe();
    if (described.kind !== 's3') throw new Error('not S3');
    return s3Storage(described.bucket);
  },
};

const sha256 = (bytes: Buffer | null) => (bytes ? createHash('sha256').update(bytes).digest('hex') : null);

async function listed(storage: MediaStorage): Promise<StoredMedia[]> {
  const files: StoredMedia[] = [];
  for await (const file of storage.list()) files.push(file);
  return files.sort((a, b) => a.name.localeCompare(b.name));
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

const hashName = (variant: string, extension = 'webp') => `${randomBytes(16).toString('hex')}-${variant}.${extension}`;

const UNSAFE_NAMES = ['../escape.webp', '.hidden.webp', 'a/b.webp', 'Upper.webp', '', `${'x'.repeat(200)}.webp`];

describe.each([folderAdapter, s3Adapter])('media storage: $kind', (adapter) => {
  beforeAll(adapter.setUp);
  afterAll(adapter.tearDown);

  it('gives back exactly the bytes it was given, small and several megabytes', async () => {
    const storage = await adapter.fresh();
    const small = randomBytes(1000);
    const large = randomBytes(6 * 1024 * 1024 + 7);
    const [smallName, largeName] = [hashName('thumb'), hashName('large')];
    await storage.put(smallName, small);
    await storage.put(largeName, large);
    expect(sha256(await storage.get(smallName))).toBe(sha256(small));
    const got = await storage.get(largeName);
    expect(got?.length).toBe(large.length);
    expect(sha256(got)).toBe(sha256(large));
  });

  it('answers null, false and nothing for a name never stored', async () => {
    const storage = await adapter.fresh();
    const name = hashName('thumb');
    expect(await storage.get(name)).toBeNull();
    expect(await storage.stream(name)).toBeNull();
    expect(await storage.exists(name)).toBe(false);
    await expect(storage.delete(name)).resolves.toBeUndefined();
    expect(await listed(storage)).toEqual([]);
  });

  it('keeps what a name holds: a second put of a stored name changes nothing', async () => {
    const storage = await adapter.fresh();
    const name = hashName('large');
    const first = randomBytes(500);
    await storage.put(name, first);
    await storage.put(name, randomBytes(800));
    expect(sha256(await storage.get(name))).toBe(sha256(first));
  });

  it('renews the date of a stored name put again, keeping its bytes', async () => {
    const storage = await adapter.fresh();
    const name = hashName('thumb');
    const bytes = randomBytes(300);
    await storage.put(name, bytes);
    const first = await storage.lookUp(name);
    // Object stores keep whole seconds: the second put comes in a later one.
    await new Promise((resolve) => setTimeout(resolve, adapter.kind === 's3' ? 1100 : 20));
    await storage.put(name, bytes);
    const second = await storage.lookUp(name);
    expect(second).toMatchObject({ name, size: bytes.length });
    expect(second!.modifiedAt).toBeGreaterThan(first!.modifiedAt);
    expect(sha256(await storage.get(name))).toBe(sha256(bytes));
    expect((await listed(storage)).map((file) => file.modifiedAt)).toEqual([second!.modifiedAt]);
  });

  it('looks a file up with its size and date, as the listing has them', async () => {
    const storage = await adapter.fresh();
    const name = hashName('avatar', 'jpg');
    await storage.put(name, randomBytes(1234));
    expect(await storage.lookUp(name)).toEqual((await listed(storage))[0]);
    expect(await storage.lookUp(hashName('thumb'))).toBeNull();
  });

  it('answers a check when it can be used', async () => {
    const storage = await adapter.fresh();
    expect(await storage.check(5000)).toBeNull();
  });

  it('says whether a file exists, and deletes it', async () => {
    const storage = await adapter.fresh();
    const [kept, deleted] = [hashName('thumb'), hashName('large')];
    await storage.put(kept, randomBytes(10));
    await storage.put(deleted, randomBytes(20));
    expect(await storage.exists(deleted)).toBe(true);
    await storage.delete(deleted);
    expect(await storage.exists(deleted)).toBe(false);
    expect(await storage.get(deleted)).toBeNull();
    expect(await storage.exists(kept)).toBe(true);
    expect((await listed(storage)).map((file) => file.name)).toEqual([kept]);
  });

  it('lists every file with its size and when it was written', async () => {
    const storage = await adapter.fresh();
    // Object stores keep whole seconds; a second either side covers a clock read between two of them.
    const before = Date.now() - 1000;
    const files = [
      { name: hashName('thumb'), bytes: randomBytes(1) },
      { name: hashName('large'), bytes: randomBytes(4321) },
      { name: hashName('avatar', 'jpg'), bytes: randomBytes(70_000) },
    ];
    for (const file of files) await storage.put(file.name, file.bytes);
    const after = Date.now() + 1000;
    const list = await listed(storage);
    expect(list.map(({ name, size }) => ({ name, size }))).toEqual(
      files.map(({ name, bytes }) => ({ name, size: bytes.length })).sort((a, b) => a.name.localeCompare(b.name)),
    );
    for (const file of list) {
      expect(file.modifiedAt).toBeGreaterThanOrEqual(before);
      expect(file.modifiedAt).toBeLessThanOrEqual(after);
    }
  });

  it('streams a file with its size and content type', async () => {
    const storage = await adapter.fresh();
    const [picture, avatar] = [hashName('large'), hashName('avatar', 'jpg')];
    const bytes = randomBytes(3 * 1024 * 1024 + 1);
    await storage.put(picture, bytes);
    await storage.put(avatar, randomBytes(64));
    const streamed = await storage.stream(picture);
    expect(streamed).not.toBeNull();
    expect(streamed!.size).toBe(bytes.length);
    expect(streamed!.contentType).toBe('image/webp');
    expect(sha256(await readAll(streamed!.body))).toBe(sha256(bytes));
    const avatarStream = await storage.stream(avatar);
    expect(avatarStream?.contentType).toBe('image/jpeg');
    avatarStream?.body.destroy();
  });

  it('refuses unsafe names in every call, and writes nothing for them', async () => {
    const storage = await adapter.fresh();
    for (const name of UNSAFE_NAMES) {
      await expect(storage.put(name, randomBytes(10)), name).rejects.toThrow(/Unsafe media name/);
      await expect(storage.get(name), name).rejects.toThrow(/Unsafe media name/);
      await expect(storage.stream(name), name).rejects.toThrow(/Unsafe media name/);
      await expect(storage.exists(name), name).rejects.toThrow(/Unsafe media name/);
      await expect(storage.lookUp(name), name).rejects.toThrow(/Unsafe media name/);
      await expect(storage.delete(name), name).rejects.toThrow(/Unsafe media name/);
      expect(() => storage.urlOf(name), name).toThrow(/Unsafe media name/);
    }
    expect(await listed(storage)).toEqual([]);
    const described = storage.describe();
    if (described.kind === 'folder') {
      expect(fs.readdirSync(described.dir)).toEqual([]);
      expect(fs.existsSync(path.join(path.dirname(described.dir), 'escape.webp'))).toBe(false);
    }
  });

  it('leaves one correct file when several callers put the same name at once', async () => {
    const storage = await adapter.fresh();
    const callers = [storage, ...Array.from({ length: 5 }, () => adapter.sameStore(storage))];
    const name = hashName('large');
    const bytes = randomBytes(2 * 1024 * 1024 + 3);
    await Promise.all(callers.flatMap((caller) => [caller.put(name, bytes), caller.put(name, bytes)]));
    expect(await listed(storage)).toEqual([expect.objectContaining({ name, size: bytes.length })]);
    for (const caller of callers) expect(sha256(await caller.get(name))).toBe(sha256(bytes));
    const described = storage.describe();
    // No temporary left behind by any of them.
    if (described.kind === 'folder') expect(fs.readdirSync(described.dir)).toEqual([name]);
  });

  it('links a picture at the server’s /media/ path when no public address is set', async () => {
    const storage = await adapter.fresh();
    const name = hashName('thumb');
    expect(storage.urlOf(name)).toBe(`/media/${name}`);
    expect(storage.urlBase).toBe('/media/');
  });

  it('describes itself without a key', async () => {
    const storage = await adapter.fresh();
    const described = storage.describe();
    expect(described.kind).toBe(adapter.kind);
    if (server) expect(JSON.stringify(described)).not.toContain(server.secretAccessKey);
  });
});

describe('media storage: the folder adapter’s own', () => {
  afterAll(folderAdapter.tearDown);

  it('keeps the layout galleries already have: each file under its name, directly in the folder', async () => {
    const storage = await folderAdapter.fresh();
    const described = storage.describe();
    if (described.kind !== 'folder') throw new Error('not a folder');
    const [old, fresh] = [hashName('large'), hashName('avatar', 'jpg')];
    const [oldBytes, freshBytes] = [randomBytes(300), randomBytes(400)];
    fs.writeFileSync(path.join(described.dir, old), oldBytes);
    await storage.put(fresh, freshBytes);
    expect(sha256(await storage.get(old))).toBe(sha256(oldBytes));
    expect(sha256(fs.readFileSync(path.join(described.dir, fresh)))).toBe(sha256(freshBytes));
    expect(fs.readdirSync(described.dir).sort()).toEqual([old, fresh].sort());
  });

  it('says, when checked, that a folder which is not there cannot be used', async () => {
    const dir = path.join(os.tmpdir(), `gallery-no-such-media-${randomBytes(4).toString('hex')}`);
    const problem = await createMediaStorage({ kind: 'folder', dir }).check(1000);
    expect(problem).toMatchObject({ refused: true, message: expect.stringContaining(dir) as string });
  });

  it('lists no temporary file, and removes those left before a given time', async () => {
    const storage = await folderAdapter.fresh();
    const described = storage.describe();
    if (described.kind !== 'folder') throw new Error('not a folder');
    const name = hashName('thumb');
    await storage.put(name, randomBytes(5));
    const [stale, recent] = [`.${name}.0123456789ab.tmp`, `.${name}.ba9876543210.tmp`];
    fs.writeFileSync(path.join(described.dir, stale), 'half');
    fs.writeFileSync(path.join(described.dir, recent), 'half');
    const hourAgo = new Date(Date.now() - 3600_000);
    fs.utimesSync(path.join(described.dir, stale), hourAgo, hourAgo);
    expect((await listed(storage)).map((file) => file.name)).toEqual([name]);
    expect(await storage.removeStaleTemporaries!(Date.now() - 60_000)).toEqual([stale]);
    expect(fs.readdirSync(described.dir).sort()).toEqual([recent, name].sort());
  });
});

describe('media storage: the S3 adapter’s own', () => {
  beforeAll(startServerOnce);

  it('is refused with a wrong secret, says so, and nothing is written', async () => {
    const bucket = await objectStore().createBucket();
    const wrong = s3Storage(bucket, { secretAccessKey: `${objectStore().secretAccessKey}x` });
    const name = hashName('large');
    await expect(wrong.put(name, randomBytes(100))).rejects.toThrow(
      new RegExp(`bucket ${bucket} .*could not .*access refused \\(HTTP 403\\): wrong keys`),
    );
    // The signature is what the server checked; and a refused read is an error, never a missing picture.
    await expect(wrong.get(name)).rejects.toThrow(/could not read .*SignatureDoesNotMatch \(HTTP 403\)/);
    await expect(wrong.exists(name)).rejects.toThrow(/HTTP 403/);
    const right = s3Storage(bucket);
    expect(await right.exists(name)).toBe(false);
    expect(await listed(right)).toEqual([]);
  });

  it('says, when checked, why it cannot be used: wrong keys, no bucket, no server', async () => {
    const bucket = await objectStore().createBucket();
    expect(await s3Storage(bucket, { secretAccessKey: `${objectStore().secretAccessKey}x` }).check(5000)).toEqual({
      refused: true,
      message: expect.stringMatching(/refused: access refused \(HTTP 403\): wrong keys/) as string,
    });
    expect(await s3Storage(`gallery-missing-${randomBytes(4).toString('hex')}`).check(5000)).toEqual({
      refused: true,
      message: expect.stringContaining('no such bucket (HTTP 404)') as string,
    });
    // A port nothing listens on: the store is not reached, which a wait may mend.
    const { region, accessKeyId, secretAccessKey } = objectStore();
    const nowhere = createMediaStorage({
      kind: 's3',
      endpoint: 'http://127.0.0.1:9',
      region,
      bucket,
      accessKeyId,
      secretAccessKey,
      forcePathStyle: true,
    });
    expect(await nowhere.check(5000)).toEqual({
      refused: false,
      message: expect.stringContaining('did not answer') as string,
    });
  });

  it('reads from a bucket that does not exist as an error, not as a missing picture', async () => {
    const missing = s3Storage(`gallery-missing-${randomBytes(4).toString('hex')}`);
    await expect(missing.get(hashName('thumb'))).rejects.toThrow(/NoSuchBucket/);
    await expect(missing.put(hashName('thumb'), randomBytes(3))).rejects.toThrow(/NoSuchBucket/);
  });

  it('takes a copy onto itself answered 404 as a file to upload again, whatever the store names the 404', async () => {
    // A save that looked a file up renews it by a copy, which may find it gone: the sweep took it (S3 and Swift answer
    // NoSuchKey), or, on Swift, the copy's read met the object being written by another save at that moment (seen in
    // the two-process race: Swift's S3 layer answers the copy NoSuchBucket, the bucket being there all along).
    const missingKey = await (async () => {
      const bucket = await objectStore().createBucket();
      const { endpoint, region, accessKeyId, secretAccessKey } = objectStore();
      const credentials = { accessKeyId, secretAccessKey };
      const client = new S3Client({ endpoint, region, forcePathStyle: true, credentials });
      const key = hashName('large');
      const copy = { Bucket: bucket, Key: key, CopySource: `${bucket}/${key}`, MetadataDirective: 'REPLACE' } as const;
      const refusal = await client.send(new CopyObjectCommand(copy)).then(
        () => null,
        (error: unknown) => error,
      );
      client.destroy();
      return refusal;
    })();
    expect(missingKey).toMatchObject({ name: 'NoSuchKey', $metadata: { httpStatusCode: 404 } });
    expect(copyFoundNoSource(missingKey)).toBe(true);
    const racedOnSwift = new NoSuchBucket({
      $metadata: { httpStatusCode: 404 },
      message: 'The specified bucket does not exist.',
    });
    expect(copyFoundNoSource(racedOnSwift)).toBe(true);
    // Any other refusal fails the save.
    const refused = new S3ServiceException({
      name: 'AccessDenied',
      $fault: 'client',
      $metadata: { httpStatusCode: 403 },
    });
    expect(copyFoundNoSource(refused)).toBe(false);
  });

  it('lists a bucket over several pages, leaving out what is not named as media', async () => {
    const bucket = await objectStore().createBucket();
    const storage = s3Storage(bucket, { listPageSize: 2 });
    const names = Array.from({ length: 5 }, () => hashName('thumb')).sort();
    for (const name of names) await storage.put(name, randomBytes(7));
    const { endpoint, region, accessKeyId, secretAccessKey } = objectStore();
    const client = new S3Client({
      endpoint,
      region,
      forcePathStyle: true,
      credentials: { accessKeyId, secretAccessKey },
    });
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: 'Backups/README.txt', Body: 'not a picture' }));
    client.destroy();
    expect((await listed(storage)).map((file) => file.name)).toEqual(names);
  });

  it('links pictures at the public base URL when one is set', async () => {
    const bucket = await objectStore().createBucket();
    const name = hashName('large');
    const storage = s3Storage(bucket, { publicBaseUrl: 'https://media.gallery.test/pictures/' });
    expect(storage.urlOf(name)).toBe(`https://media.gallery.test/pictures/${name}`);
    expect(storage.urlBase).toBe('https://media.gallery.test/pictures/');
    expect(storage.describe()).toMatchObject({
      kind: 's3',
      bucket,
      publicBaseUrl: 'https://media.gallery.test/pictures',
    });
    expect(storage.removeStaleTemporaries).toBeUndefined();
  });
});
