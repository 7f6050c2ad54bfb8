/**
 * The S3-compatible adapter of the media storage port (server/storage/port.ts): each media file is one object in one
 * bucket, its key the media name. Any server that speaks S3 will do (AWS, MinIO, Garage, Ceph, Swift's s3api…): the
 * SDK adds checksums of its own only where an operation requires one, which servers other than AWS may refuse, and
 * each upload carries Content-MD5 instead, which every S3 server checks, so bytes damaged on the way are refused
 * rather than stored. Objects carry the cache headers the server's own /media/ answers carry (content-hashed names
 * never change), for a public bucket or a CDN in front of it.
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import {
  checkedMediaName,
  contentTypeOf,
  isMediaName,
  MEDIA_PATH_PREFIX,
  mediaUrlOf,
  type MediaStorage,
  type StoredMedia,
} from './port.ts';

export interface S3StorageOptions {
  /** The server's address (`https://s3.example.org`); none for AWS itself, which the region then finds. */
  endpoint?: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Bucket in the path (`endpoint/bucket/key`) rather than in the host name: what most servers other than AWS need. */
  forcePathStyle?: boolean;
  /**
   * Where browsers get the files straight from the store or a CDN in front of it (`https://media.example.org`):
   * pictures are then linked at `${publicBaseUrl}/${name}`. Without it, the server streams them at /media/<name>.
   */
  publicBaseUrl?: string;
  /** How many objects a listing asks for at once: S3's largest, 1000, unless a test wants to see several pages. */
  listPageSize?: number;
}

/** As the server's own /media/ answers: a year, never changed (the names are content-addressed). */
const CACHE_CONTROL = 'public, max-age=31536000, immutable';

/** A listing's page: S3's largest. */
const LIST_PAGE_SIZE = 1000;

/** An ETag as the port's md5 hint: 32 hex digits between quotes, else nothing (a multipart upload's has a dash). */
function md5Of(etag: string | undefined): string | undefined {
  const hex = etag?.replace(/^"|"$/g, '').toLowerCase();
  return hex && /^[0-9a-f]{32}$/.test(hex) ? hex : undefined;
}

function statusOf(error: unknown): number | undefined {
  return error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined;
}

/**
 * A copy of an object onto itself answered 404: its source was not there. S3 names that NoSuchKey; Swift's S3 layer
 * names every 404 of a write NoSuchBucket, and answers one as well when the copy's read of the source meets the same
 * object being written by another save at that moment (its object server removes the older file as the read opens
 * it). Whatever the name, the put that follows uploads the file afresh, and fails clearly if the bucket is really gone.
 */
export function copyFoundNoSource(error: unknown): boolean {
  return statusOf(error) === 404;
}

/**
 * What the store answered, for a message: its error code and text, or for an answer without a body (a HEAD), what
 * its status means.
 */
function answerOf(error: unknown): string {
  if (!(error instanceof S3ServiceException)) return String(error);
  const status = error.$metadata.httpStatusCode;
  if (error.name !== 'Unknown' && error.name !== 'UnknownError')
    return `${error.name} (HTTP ${status}): ${error.message}`;
  if (status === 401 || status === 403)
    return `access refused (HTTP ${status}): wrong keys, or keys without access to the bucket`;
  return `HTTP ${status ?? '(no status)'}`;
}

/** What a bucket's HEAD, which carries no body, answered: in words for the statuses a wrong setting gives. */
function checkAnswerOf(error: unknown, status: number | undefined, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError'))
    return `no answer in ${timeoutMs} ms`;
  if (status === 404) return 'no such bucket (HTTP 404)';
  if (status === 400 || (status !== undefined && status >= 300 && status < 400))
    return `HTTP ${status}: most often a region other than the bucket's, or an address that is not the store's`;
  return answerOf(error);
}

function clientOf(options: S3StorageOptions): S3Client {
  return new S3Client({
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    region: options.region,
    forcePathStyle: options.forcePathStyle ?? false,
    credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
    // The SDK's default adds CRC32 checksums to uploads (and checks them on downloads), which many servers other
    // than AWS refuse or do not send.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/** The bucket's HEAD, the cheapest request that proves the address, the keys, the region and the bucket. */
async function checkBucket(client: S3Client, bucket: string, where: string, timeoutMs: number) {
  try {
    await client.send(new HeadBucketCommand({ Bucket: bucket }), { abortSignal: AbortSignal.timeout(timeoutMs) });
    return null;
  } catch (error) {
    const status = statusOf(error);
    // An answer short of a server error says the settings are wrong (keys, bucket, region), which no wait mends;
    // anything else, that the store could not be reached or is failing for now.
    const refused = status !== undefined && status >= 300 && status < 500;
    return {
      refused,
      message: `Object storage (${where}) ${refused ? 'refused' : 'did not answer'}: ${checkAnswerOf(error, status, timeoutMs)}`,
    };
  }
}

export function createS3Storage(options: S3StorageOptions): MediaStorage {
  const { bucket } = options;
  const client = clientOf(options);
  const where = `bucket ${bucket}${options.endpoint ? ` at ${options.endpoint}` : ''}`;

  /** An error that says what was asked of which bucket, and what the store answered. */
  const failure = (what: string, error: unknown) =>
    new Error(`Object storage (${where}) could not ${what}: ${answerOf(error)}`, { cause: error });
  const send = async <T>(what: string, request: () => Promise<T>): Promise<T> => {
    try {
      return await request();
    } catch (error) {
      throw failure(what, error);
    }
  };

  /** GetObject, or null when the object does not exist (a missing bucket is an error, not a missing picture). */
  const getObject = async (name: string) => {
    const key = checkedMediaName(name);
    try {
      return await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    } catch (error) {
      if (error instanceof S3ServiceException && error.name === 'NoSuchKey') return null;
      throw failure(`read ${name}`, error);
    }
  };

  const lookUp = async (name: string): Promise<StoredMedia | null> => {
    const key = checkedMediaName(name);
    try {
      const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
      return {
        name,
        size: head.ContentLength ?? 0,
        modifiedAt: head.LastModified?.getTime() ?? 0,
        md5: md5Of(head.ETag),
      };
    } catch (error) {
      if (statusOf(error) === 404) return null;
      throw failure(`look up ${name}`, error);
    }
  };

  /** The headers an object is stored with, the same whether it is uploaded or its date renewed. */
  const headersOf = (name: string) => ({ ContentType: contentTypeOf(name), CacheControl: CACHE_CONTROL });

  /**
   * Renews a stored object's date by copying it onto itself (S3 allows that only when the copy replaces its
   * metadata, given again as it was): answers false when there is no such object, or none any more.
   */
  const renew = async (key: string): Promise<boolean> => {
    try {
      await client.send(
        new CopyObjectCommand({
          Bucket: bucket,
          Key: key,
          CopySource: `${bucket}/${key}`,
          MetadataDirective: 'REPLACE',
          ...headersOf(key),
        }),
      );
      return true;
    } catch (error) {
      if (copyFoundNoSource(error)) return false;
      throw failure(`renew ${key}`, error);
    }
  };

  const publicBase = options.publicBaseUrl?.replace(/\/+$/, '');
  const urlBase = publicBase ? `${publicBase}/` : MEDIA_PATH_PREFIX;

  return {
    async put(name, bytes) {
      const key = checkedMediaName(name);
      // Stored already (content-addressed: same name, same bytes): its bytes stay, its date is renewed, so that the
      // orphan sweep sees an object a save has just used. A copy that finds it gone (the sweep took it since the
      // look) uploads it after all.
      if ((await lookUp(key)) && (await renew(key))) return;
      await send(`store ${name}`, () =>
        client.send(
          new PutObjectCommand({
            Bucket: bucket,
            Key: key,
            Body: bytes,
            ContentLength: bytes.length,
            ContentMD5: createHash('md5').update(bytes).digest('base64'),
            ...headersOf(name),
          }),
        ),
      );
    },
    async get(name) {
      const object = await getObject(name);
      if (!object?.Body) return null;
      const bytes = await send(`read ${name}`, () => object.Body!.transformToByteArray());
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },
    async stream(name) {
      const object = await getObject(name);
      if (!object?.Body) return null;
      if (!(object.Body instanceof Readable))
        throw new Error('The S3 client answered a body that is not a Node stream');
      return { body: object.Body, size: object.ContentLength ?? 0, contentType: contentTypeOf(name) };
    },
    exists: async (name) => (await lookUp(name)) !== null,
    lookUp,
    async delete(name) {
      const key = checkedMediaName(name);
      await send(`delete ${name}`, () => client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key })));
    },
    async *list(): AsyncGenerator<StoredMedia> {
      let token: string | undefined;
      do {
        const page = await send('list the objects', () =>
          client.send(
            new ListObjectsV2Command({
              Bucket: bucket,
              MaxKeys: options.listPageSize ?? LIST_PAGE_SIZE,
              ContinuationToken: token,
            }),
          ),
        );
        for (const object of page.Contents ?? []) {
          if (!object.Key || !isMediaName(object.Key)) continue;
          yield {
            name: object.Key,
            size: object.Size ?? 0,
            modifiedAt: object.LastModified?.getTime() ?? 0,
            md5: md5Of(object.ETag),
          };
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
    urlOf: mediaUrlOf(urlBase),
    urlBase,
    describe: () => ({
      kind: 's3',
      endpoint: options.endpoint ?? null,
      bucket,
      region: options.region,
      publicBaseUrl: publicBase ?? null,
    }),
    check: (timeoutMs) => checkBucket(client, bucket, where, timeoutMs),
    // The client keeps its connections open for the next request: without this, a stopped app or a finished
    // script would wait for the store to close them.
    close: async () => client.destroy(),
  };
}
