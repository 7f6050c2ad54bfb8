/**
 * The server's side of the build worker (build-worker.ts): one thread for the snapshot and history builds, started
 * on the first build, ended after WORKER_IDLE_MS without one (builds are rare, and its heap is worth giving back).
 * PostgreSQL and an in-memory database (some tests) build in-process instead, since a worker has no file to open.
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Db } from '../../db.ts';
import { keepJsonText } from '../../raw-json.ts';
import { MEDIA_PATH_PREFIX, mediaUrlOf } from '../../storage/index.ts';
import {
  AWAITED_BUILDS,
  type BuildJob,
  type BuildReply,
  type BuildRequest,
  type BuildResults,
  type BuildWorkerData,
  type BuiltBytes,
} from './build-jobs.ts';

const WORKER_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'build-worker.ts');
const WORKER_IDLE_MS = 30_000;

export class BuildWorker {
  private worker: Worker | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  private nextRequest = 1;
  private readonly waiting = new Map<
    number,
    { resolve: (built: BuiltBytes) => void; reject: (error: Error) => void }
  >();
  private closed = false;

  constructor(
    private readonly db: Db,
    /** The database file the worker opens; null builds in-process. */
    private readonly databaseFile: string | null,
    /** The media storage's urlBase: thumbnails in snapshots are linked where the storage links pictures. */
    private readonly mediaUrlBase: string = MEDIA_PATH_PREFIX,
  ) {}

  /** Whether builds run on the worker thread (a database file) rather than in-process (an in-memory database). */
  get offThread(): boolean {
    return this.databaseFile !== null;
  }

  build<J extends BuildJob>(job: J, treeId: number): Promise<BuildResults[J]> {
    if (this.closed) return Promise.reject(new Error('The server is stopping.'));
    if (this.databaseFile === null) return AWAITED_BUILDS[job](this.db, treeId, mediaUrlOf(this.mediaUrlBase));
    const worker = this.started(this.databaseFile);
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    const id = this.nextRequest++;
    const built = new Promise<BuiltBytes>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ id, job, treeId } satisfies BuildRequest);
    });
    return built.finally(() => this.endWhenIdle()) as Promise<BuildResults[J]>;
  }

  /** Ends the worker; builds still under way are refused. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    const worker = this.worker;
    this.worker = null;
    for (const pending of this.waiting.values()) pending.reject(new Error('The server is stopping.'));
    this.waiting.clear();
    await worker?.terminate();
  }

  private endWhenIdle(): void {
    if (this.waiting.size > 0 || !this.worker) return;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      const idle = this.worker;
      if (!idle || this.waiting.size > 0) return;
      this.worker = null;
      void idle.terminate();
    }, WORKER_IDLE_MS);
    this.idleTimer.unref();
  }

  private started(databaseFile: string): Worker {
    if (this.worker) return this.worker;
    // The server runs TypeScript through tsx: the worker registers the same loader, then loads its module.
    const boot = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(pathToFileURL(WORKER_FILE).href)}); })`;
    const workerData: BuildWorkerData = { databaseFile, mediaUrlBase: this.mediaUrlBase };
    const worker = new Worker(boot, { eval: true, workerData, name: 'tree-builds' });
    worker.unref();
    worker.on('message', (reply: BuildReply) => {
      const pending = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      if (!pending) return;
      if (reply.ok) pending.resolve(asBuffers(reply.built));
      else pending.reject(new Error(reply.message));
    });
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = null;
      for (const pending of this.waiting.values()) pending.reject(error);
      this.waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (this.worker === worker && !this.closed) fail(new Error(`The build worker stopped (exit code ${code}).`));
    });
    this.worker = worker;
    return worker;
  }
}

/** Bytes that crossed from the worker arrive as plain Uint8Arrays: Buffers again, without copying. */
function asBuffers<T extends BuiltBytes>(built: T): T {
  const buffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const { identity, br, gzip } = built.body;
  return { ...built, body: { identity: buffer(identity), br: buffer(br), gzip: buffer(gzip) } };
}

const ENVELOPE_OPEN = '{"r":';

/** Kept bytes with their ETag and, parsed once when first asked, the object their JSON text encodes. */
export function withParsedWire<T extends BuiltBytes, W>(bytes: T, etag: string): T & { etag: string; wire: () => W } {
  let parsed: W | null = null;
  return {
    ...bytes,
    etag,
    wire: () => (parsed ??= wireOf<W>(bytes.body.identity)),
  };
}

/** The object a kept answer's JSON text `{"r": wire}` encodes, with that text kept for tRPC's short path. */
export function wireOf<W>(identity: Buffer): W {
  const wire = (JSON.parse(identity.toString('utf8')) as { r: W }).r;
  // `{"r":` … `}` around the wire's own text, which tRPC's short path sends as it is.
  keepJsonText(wire as object, identity.subarray(ENVELOPE_OPEN.length, identity.length - 1));
  return wire;
}
