/**
 * The built snapshots of the trees (docs/decisions/023-live-tree-change-log.md). A snapshot is built off the event
 * loop, by a worker thread with its own read-only connection, and is then served for as long as an open tree can be
 * brought up to date from it through the change log: a change costs the server the change, never a rebuild. It is
 * built again only when the log no longer reaches back to it (pruned, or a bulk change) or when it has fallen far
 * enough behind that a new visitor would fetch many changes after it; meanwhile the old one is still served.
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { trees } from '#drizzle/schema.ts';
import type { TreeSnapshotWire } from '#shared/tree/snapshot.ts';
import type { Db } from '../db.ts';
import { buildSnapshotBytes, type SnapshotBytes } from './snapshot-build.ts';
import type { BuildReply, BuildRequest } from './snapshot-worker.ts';
import { CHANGES_MAX, changesAfter } from './tree-changes.ts';

/** A snapshot this many changes behind its tree is built again (in the background; the old one is served meanwhile). */
export const REBUILD_AFTER_CHANGES = 2_000;
/** An idle worker is ended after this long: builds are rare, and its heap is worth giving back. */
const WORKER_IDLE_MS = 30_000;

export interface BuiltSnapshot extends SnapshotBytes {
  etag: string;
  /** The snapshot as an object (tRPC's tree.get answers it): parsed from its bytes once, when first asked. */
  wire(): TreeSnapshotWire;
}

interface TreeVersions {
  id: number;
  version: number;
  changesFrom: number;
}

const WORKER_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'snapshot-worker.ts');

export class SnapshotStore {
  private readonly built = new Map<number, BuiltSnapshot>();
  private readonly building = new Map<number, Promise<BuiltSnapshot>>();
  private worker: Worker | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  private nextRequest = 1;
  private readonly waiting = new Map<number, { resolve(built: SnapshotBytes): void; reject(error: Error): void }>();
  private closed = false;
  /** Builds done so far (tests and the benchmark read it). */
  builds = 0;

  constructor(
    private readonly db: Db,
    private readonly options: {
      /** The database file the worker opens; null (an in-memory database) builds on the event loop instead. */
      databaseFile: string | null;
      log?: FastifyBaseLogger;
      rebuildAfter?: number;
    },
  ) {}

  /**
   * A snapshot of the tree that the change log can bring up to date: the one kept if it still can (built again in
   * the background once far behind), else a new one, built off the event loop.
   */
  async get(tree: TreeVersions): Promise<BuiltSnapshot> {
    const kept = this.built.get(tree.id);
    if (kept && kept.version === tree.version) return kept;
    if (kept && kept.version >= tree.changesFrom) {
      const rebuildAfter = this.options.rebuildAfter ?? REBUILD_AFTER_CHANGES;
      const behind = changesAfter(this.db, tree.id, kept.version, CHANGES_MAX);
      // Too far behind for /changes to bring it up to date: wait for the new one (built off the event loop).
      if (behind > CHANGES_MAX) return this.rebuild(tree.id);
      if (behind >= rebuildAfter) {
        this.rebuild(tree.id).catch((error: unknown) => this.options.log?.warn({ err: error, treeId: tree.id }, 'the tree snapshot could not be rebuilt'));
      }
      return kept;
    }
    return this.rebuild(tree.id);
  }

  /** The last snapshot built for a tree, whatever its version; never builds one. */
  peek(treeId: number): BuiltSnapshot | null {
    return this.built.get(treeId) ?? null;
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

  /** Builds the tree's snapshot once, however many ask at the same time. */
  private rebuild(treeId: number): Promise<BuiltSnapshot> {
    const under = this.building.get(treeId);
    if (under) return under;
    const done = this.buildBytes(treeId)
      .then((bytes) => {
        this.builds++;
        const snapshot = withWire(bytes);
        const kept = this.built.get(treeId);
        if (!kept || kept.version <= snapshot.version) this.built.set(treeId, snapshot);
        return this.built.get(treeId)!;
      })
      .finally(() => this.building.delete(treeId));
    this.building.set(treeId, done);
    return done;
  }

  private buildBytes(treeId: number): Promise<SnapshotBytes> {
    if (this.closed) return Promise.reject(new Error('The server is stopping.'));
    if (this.options.databaseFile === null) {
      const tree = this.db.select().from(trees).where(eq(trees.id, treeId)).get();
      if (!tree) return Promise.reject(new Error(`No tree ${treeId}.`));
      return Promise.resolve(this.db.transaction((tx) => buildSnapshotBytes(tx, tree)));
    }
    const worker = this.startedWorker(this.options.databaseFile);
    const id = this.nextRequest++;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    const built = new Promise<SnapshotBytes>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ id, treeId } satisfies BuildRequest);
    });
    return built.finally(() => this.endWhenIdle());
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

  private startedWorker(databaseFile: string): Worker {
    if (this.worker) return this.worker;
    // The server runs TypeScript through tsx: the worker registers the same loader, then loads its module.
    const boot = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(pathToFileURL(WORKER_FILE).href)}); })`;
    const worker = new Worker(boot, { eval: true, workerData: { databaseFile }, name: 'tree-snapshot' });
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
      if (this.worker === worker && !this.closed) fail(new Error(`The snapshot worker stopped (exit code ${code}).`));
    });
    this.worker = worker;
    return worker;
  }
}

/** Bytes that crossed from the worker arrive as plain Uint8Arrays: Buffers again, without copying. */
function asBuffers(built: SnapshotBytes): SnapshotBytes {
  const buffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const { identity, br, gzip } = built.body;
  return { ...built, body: { identity: buffer(identity), br: buffer(br), gzip: buffer(gzip) } };
}

function withWire(bytes: SnapshotBytes): BuiltSnapshot {
  let parsed: TreeSnapshotWire | null = null;
  return {
    ...bytes,
    etag: `"t${bytes.treeId}v${bytes.version}"`,
    wire() {
      parsed ??= (JSON.parse(bytes.body.identity.toString('utf8')) as { r: TreeSnapshotWire }).r;
      return parsed;
    },
  };
}
