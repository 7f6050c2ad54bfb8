/**
 * The tree's growth history for the replay (shared/tree/history.ts): every piece now published, with its publish
 * time, in publish order, built as precompressed bytes once per tree version and kept. Large trees are read and
 * compressed by a worker thread (tree-history-worker.ts) with its own read-only connection, off the event loop.
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { and, eq, isNotNull } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { art, cells, trees } from '#drizzle/schema.ts';
import { ArtStatus } from '#shared/domain.ts';
import { encodeHistory, type TreeHistoryPieces, type TreeHistoryWire } from '#shared/tree/history.ts';
import type { Db, Queryable } from '../db.ts';

/** A history's bytes: `{"r": wire}` as identity, brotli and gzip. */
export interface HistoryBytes {
  treeId: number;
  version: number;
  count: number;
  body: { identity: Buffer; br: Buffer; gzip: Buffer };
  builtMs: number;
}

export interface BuiltHistory extends HistoryBytes {
  etag: string;
  /** The history as an object (tRPC's tree.history answers it): parsed from its bytes once, when first asked. */
  wire(): TreeHistoryWire;
}

/** The pieces whose cell's current art is published, ordered by publish time, then row, then column. */
export function readHistoryPieces(db: Queryable, treeId: number): TreeHistoryPieces {
  // Read in the index's order and sorted here: SQLite's temporary b-tree for the ORDER BY took 3-4 times longer.
  const rows = db
    .select({ row: cells.row, column: cells.column, at: art.publishedAt })
    .from(cells)
    .innerJoin(art, eq(art.id, cells.artId))
    .where(and(eq(cells.treeId, treeId), eq(art.status, ArtStatus.Published), isNotNull(art.publishedAt)))
    .values() as [number, number, number][];
  const count = rows.length;
  const row = new Int32Array(count);
  const column = new Int32Array(count);
  const at = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const piece = rows[i]!;
    row[i] = piece[0];
    column[i] = piece[1];
    at[i] = piece[2];
  }
  const order = new Uint32Array(count);
  for (let i = 0; i < count; i++) order[i] = i;
  order.sort((a, b) => at[a]! - at[b]! || row[a]! - row[b]! || column[a]! - column[b]!);
  const pieces: TreeHistoryPieces = { count, row: new Int32Array(count), column: new Int32Array(count), at: new Float64Array(count) };
  for (let i = 0; i < count; i++) {
    const from = order[i]!;
    pieces.row[i] = row[from]!;
    pieces.column[i] = column[from]!;
    pieces.at[i] = at[from]!;
  }
  return pieces;
}

/** The whole history of a tree at the version its row gives, encoded and compressed. */
export function buildHistoryBytes(db: Queryable, tree: { id: number; token: string; version: number }): HistoryBytes {
  const started = performance.now();
  const pieces = readHistoryPieces(db, tree.id);
  const identity = Buffer.from(`{"r":${JSON.stringify(encodeHistory(tree, pieces))}}`);
  // Rows and columns repeat with the growth pattern far apart in the text: a large window finds those repeats.
  const br = brotliCompressSync(identity, {
    params: {
      [zlibConstants.BROTLI_PARAM_QUALITY]: identity.length > 4_000_000 ? 9 : 11,
      [zlibConstants.BROTLI_PARAM_LGWIN]: 24,
      [zlibConstants.BROTLI_PARAM_SIZE_HINT]: identity.length,
      [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
    },
  });
  const gzip = gzipSync(identity, { level: 9 });
  return { treeId: tree.id, version: tree.version, count: pieces.count, body: { identity, br, gzip }, builtMs: performance.now() - started };
}

/** Reads the tree's row and builds its history in one read transaction, so the version and the pieces agree. */
export function buildHistoryInTransaction(db: Db, treeId: number): HistoryBytes {
  return db.transaction((tx) => {
    const tree = tx.select({ id: trees.id, token: trees.token, version: trees.version }).from(trees).where(eq(trees.id, treeId)).get();
    if (!tree) throw new Error(`No tree ${treeId}.`);
    return buildHistoryBytes(tx, tree);
  });
}

const WORKER_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'tree-history-worker.ts');
/** The worker ends after this long without a build (the replay is asked for rarely); the next build starts it again. */
const WORKER_IDLE_MS = 30_000;

export interface HistoryWorkerRequest {
  id: number;
  treeId: number;
}

export type HistoryWorkerReply = { id: number; ok: true; built: HistoryBytes } | { id: number; ok: false; message: string };

/** The built histories of the trees, one per tree, at the version last asked for. */
export class TreeHistoryStore {
  private readonly built = new Map<number, BuiltHistory>();
  private readonly building = new Map<number, { version: number; done: Promise<BuiltHistory> }>();
  private worker: Worker | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  private nextRequest = 1;
  private readonly waiting = new Map<number, { resolve(built: HistoryBytes): void; reject(error: Error): void }>();
  private closed = false;
  /** Builds done so far (tests read it). */
  builds = 0;

  constructor(
    private readonly db: Db,
    private readonly options: { databaseFile: string | null; log?: FastifyBaseLogger },
  ) {}

  /** The history at the tree's current version: kept if it is, else built (once, however many ask). */
  async get(tree: { id: number; version: number }): Promise<BuiltHistory> {
    const kept = this.built.get(tree.id);
    if (kept && kept.version >= tree.version) return kept;
    const under = this.building.get(tree.id);
    if (under && under.version >= tree.version) return under.done;
    // A build for an older version may still be under way: this one queues behind it in the worker.
    const done = this.buildBytes(tree.id)
      .then((bytes) => {
        this.builds++;
        const history = withWire(bytes);
        const current = this.built.get(tree.id);
        if (!current || current.version <= history.version) this.built.set(tree.id, history);
        return history;
      })
      .finally(() => {
        if (this.building.get(tree.id)?.done === done) this.building.delete(tree.id);
      });
    this.building.set(tree.id, { version: tree.version, done });
    return done;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.stopWorker(new Error('The server is stopping.'));
  }

  private buildBytes(treeId: number): Promise<HistoryBytes> {
    if (this.closed) return Promise.reject(new Error('The server is stopping.'));
    if (this.options.databaseFile === null) {
      try {
        return Promise.resolve(buildHistoryInTransaction(this.db, treeId));
      } catch (error) {
        return Promise.reject(error as Error);
      }
    }
    const worker = this.startedWorker(this.options.databaseFile);
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    const id = this.nextRequest++;
    return new Promise<HistoryBytes>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ id, treeId } satisfies HistoryWorkerRequest);
    });
  }

  private startedWorker(databaseFile: string): Worker {
    if (this.worker) return this.worker;
    // The server runs TypeScript through tsx: the worker registers the same loader, then loads its module.
    const boot = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(pathToFileURL(WORKER_FILE).href)}); })`;
    const worker = new Worker(boot, { eval: true, workerData: { databaseFile }, name: 'tree-history' });
    worker.unref();
    worker.on('message', (reply: HistoryWorkerReply) => {
      const pending = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      if (this.waiting.size === 0) this.idleLater(worker);
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
      if (this.worker === worker) fail(new Error(`The history worker stopped (exit code ${code}).`));
    });
    this.worker = worker;
    return worker;
  }

  private idleLater(worker: Worker): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      if (this.worker === worker && this.waiting.size === 0) void this.stopWorker(null);
    }, WORKER_IDLE_MS);
    this.idleTimer.unref();
  }

  private async stopWorker(reason: Error | null): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    const worker = this.worker;
    this.worker = null;
    if (reason) for (const pending of this.waiting.values()) pending.reject(reason);
    this.waiting.clear();
    await worker?.terminate();
  }
}

/** Bytes that crossed from the worker arrive as plain Uint8Arrays: Buffers again, without copying. */
function asBuffers(built: HistoryBytes): HistoryBytes {
  const buffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const { identity, br, gzip } = built.body;
  return { ...built, body: { identity: buffer(identity), br: buffer(br), gzip: buffer(gzip) } };
}

function withWire(bytes: HistoryBytes): BuiltHistory {
  let parsed: TreeHistoryWire | null = null;
  return {
    ...bytes,
    etag: `"t${bytes.treeId}h${bytes.version}"`,
    wire() {
      parsed ??= (JSON.parse(bytes.body.identity.toString('utf8')) as { r: TreeHistoryWire }).r;
      return parsed;
    },
  };
}
