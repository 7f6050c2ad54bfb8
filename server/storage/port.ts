/**
 * The media storage port (issue 34): the only code that knows where picture bytes live. Two adapters stand behind
 * it, the local folder (server/storage/folder.ts, the default, laid out as it always was) and S3-compatible object
 * storage (server/storage/s3.ts); createMediaStorage (server/storage/index.ts) builds the one the configuration names.
 *
 * Media names are content-addressed (the bytes' hash, a variant, an extension): a name always means the same bytes,
 * so writing a name that exists already changes nothing, and two saves of the same picture may write it at once.
 */
import type { Readable } from 'node:stream';

/** Where the server itself serves media files from when it serves them (the folder, or object storage by stream). */
export const MEDIA_PATH_PREFIX = '/media/';

/** A stored file, as a listing gives it. */
export interface StoredMedia {
  name: string;
  size: number;
  /** When it was last written, in milliseconds since 1970 (whole seconds on object stores, which keep no more). */
  modifiedAt: number;
  /**
   * The bytes' MD5 in hex, when the store tells it without the bytes being read: an S3 object's ETag is that for an
   * object uploaded whole, as this adapter uploads them. Only a hint (an object uploaded in parts, or encrypted with
   * the store's keys, has an ETag of another kind): a caller that finds it different reads the bytes to be sure.
   */
  md5?: string;
}

/**
 * A stored file opened for serving: its bytes as a stream, with what the answer's headers need. The caller reads the
 * stream to its end or destroys it, which frees the file or the connection it holds.
 */
export interface MediaStream {
  body: Readable;
  size: number;
  contentType: string;
}

/**
 * What is wrong with a storage, as check() finds it: `refused` when the store answered that the settings are wrong
 * (keys, bucket, region, a folder that is not there), which no wait mends; otherwise it could not be reached.
 */
export interface MediaStorageProblem {
  refused: boolean;
  message: string;
}

/** A picture's address from its media name. */
export type MediaUrlOf = (name: string) => string;

/**
 * The one place a picture's address is made: `base` (the server's /media/ path, or the store's public address with
 * its closing slash) and the name. Each adapter's urlOf is this; the snapshot worker thread, which has no storage
 * of its own, makes the same from the adapter's urlBase.
 */
export function mediaUrlOf(base: string): MediaUrlOf {
  return (name) => base + checkedMediaName(name);
}

/**
 * The server's own address of a picture, /media/<name>, which answers on every adapter (with a public address
 * configured, by sending the browser there). The folder's urlOf, and object storage's without a public address.
 */
export const serverMediaUrlOf: MediaUrlOf = mediaUrlOf(MEDIA_PATH_PREFIX);

/** What a log line or an error may say of the storage: never a key. */
export type MediaStorageDescription =
  | { kind: 'folder'; dir: string }
  | { kind: 's3'; endpoint: string | null; bucket: string; region: string; publicBaseUrl: string | null };

export interface MediaStorage {
  /**
   * Stores the bytes under `name`. When the name is stored already (same name, same bytes) its bytes are kept and
   * only its date is renewed: the orphan sweep removes only files no save has written for a day, and a save that
   * uses a picture again must make it young before its transaction names it.
   */
  put: (name: string, bytes: Buffer) => Promise<void>;
  /** The stored bytes, or null when nothing is stored under `name`. */
  get: (name: string) => Promise<Buffer | null>;
  /** The stored file as a stream, for serving it, or null when nothing is stored under `name`. */
  stream: (name: string) => Promise<MediaStream | null>;
  exists: (name: string) => Promise<boolean>;
  /** The stored file's size and date, as a listing gives them, or null when nothing is stored under `name`. */
  lookUp: (name: string) => Promise<StoredMedia | null>;
  /** Removes the file; quiet when there is none. */
  delete: (name: string) => Promise<void>;
  /** Every stored media file (never a temporary one, nor anything not named as media are), in no set order. */
  list: () => AsyncIterable<StoredMedia>;
  /** Where a browser gets the file: the server's /media/ path, or the store's public address when it has one. */
  urlOf: MediaUrlOf;
  /** What urlOf puts before a name (mediaUrlOf's base): `/media/`, or the public address ending in a slash. */
  urlBase: string;
  describe: () => MediaStorageDescription;
  /**
   * Whether the store can be used now, asked cheaply (a folder's access, a bucket's HEAD) and given up after
   * `timeoutMs`: null when it answers, else what is wrong.
   */
  check: (timeoutMs: number) => Promise<MediaStorageProblem | null>;
  /**
   * Deletes temporary files last written before `before` (ms): what a process killed while writing left behind.
   * Only where a write goes through a temporary file (the folder); an object store writes an object whole or not
   * at all.
   */
  removeStaleTemporaries?: (before: number) => Promise<string[]>;
  /**
   * Lets go of what the storage holds open (an object store's client keeps its connections for the next request), so
   * that a process that stops, or a script that is done, ends without waiting for them. Nothing may be asked after.
   */
  close: () => Promise<void>;
}

/** What a media name may be: lower-case letters, digits, dots, dashes and underscores, no leading dot, no slash. */
const SAFE_NAME = /^[a-z0-9][a-z0-9._-]{0,127}$/;

/** Answers `name` when it is a safe media name, else throws: no name reaches a path or a key unchecked. */
export function checkedMediaName(name: string): string {
  if (!SAFE_NAME.test(name)) throw new Error(`Unsafe media name: ${JSON.stringify(name)}`);
  return name;
}

/** Whether `name` is a safe media name (a listing leaves out whatever else a folder or a bucket holds). */
export function isMediaName(name: string): boolean {
  return SAFE_NAME.test(name);
}

const CONTENT_TYPES: Record<string, string> = {
  webp: 'image/webp',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  avif: 'image/avif',
  // A deep-zoom pyramid's descriptor (decision 048).
  json: 'application/json',
};

/** The content type a media file is served with, from its extension. */
export function contentTypeOf(name: string): string {
  const extension = /\.([a-z0-9]+)$/.exec(name)?.[1];
  return (extension && CONTENT_TYPES[extension]) || 'application/octet-stream';
}
