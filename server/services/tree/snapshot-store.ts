/**
 * The built snapshots of the trees (decision 023): built by a worker thread off the event loop, then served while the
 * change log can bring an open tree up to date from them, so a change never costs a rebuild. A new one is built when
 * the log no longer reaches back (pruned, a bulk change) or it is far behind; meanwhile the old one is still served.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { TreeSnapshotWire } from '#shared/tree/snapshot.ts';
import type { Db } from '../../db.ts';
import { SNAPSHOT_BINARY_TYPE } from '#shared/tree/snapshot-type.ts';
import { wireOf, type BuildWorker } from './build-worker-client.ts';
import { compressBuiltAway, snapshotJsonAway, SNAPSHOT_WINDOW, type SnapshotBytes } from './snapshot-build.ts';
import { CHANGES_MAX, changesAfter } from './tree-changes.ts';

/** A snapshot this many changes behind its tree is built again (in the background; the old one is served meanwhile). */
export const REBUILD_AFTER_CHANGES = 2_000;

/** The snapshot's bytes in one form, as the route sends them. */
export interface SnapshotForm {
  etag: string;
  version: number;
  type: string;
  body: SnapshotBytes['body'];
}

/** A built snapshot: its binary form (what the page asks for), with the JSON form made from it when first asked. */
export interface BuiltSnapshot extends SnapshotBytes, SnapshotForm {
  /** The JSON form `{"r": wire}` (decision 002), compressed off the event loop, for the API's readers. */
  json: () => Promise<SnapshotForm>;
  /**
   * The snapshot as an object (tRPC's tree.get answers it): made once, when first asked, from its JSON form written in
   * slices between other requests.
   */
  wireAway: () => Promise<TreeSnapshotWire>;
}

interface TreeVersions {
  id: number;
  version: number;
  changesFrom: number;
}

export class SnapshotStore {
  private readonly built = new Map<number, BuiltSnapshot>();
  private readonly building = new Map<number, Promise<BuiltSnapshot>>();
  /** Builds done so far (tests and the benchmark read it). */
  builds = 0;

  constructor(
    private readonly db: Db,
    private readonly worker: BuildWorker,
    private readonly options: {
      log?: FastifyBaseLogger;
      rebuildAfter?: number;
      /** Called after each build (the app warms the tree's growth history then). */
      built?: (tree: { id: number; version: number }) => void;
    } = {},
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
      const behind = await changesAfter(this.db, tree.id, kept.version, CHANGES_MAX);
      // Too far behind for /changes to bring it up to date: wait for the new one (built off the event loop).
      if (behind > CHANGES_MAX) return this.rebuild(tree.id);
      if (behind >= rebuildAfter) {
        this.rebuild(tree.id).catch((error: unknown) =>
          this.options.log?.warn({ err: error, treeId: tree.id }, 'the tree snapshot could not be rebuilt'),
        );
      }
      return kept;
    }
    return this.rebuild(tree.id);
  }

  /** The last snapshot built for a tree, whatever its version; never builds one. */
  peek(treeId: number): BuiltSnapshot | null {
    return this.built.get(treeId) ?? null;
  }

  /** Builds the tree's snapshot once, however many ask at the same time. */
  private rebuild(treeId: number): Promise<BuiltSnapshot> {
    const under = this.building.get(treeId);
    if (under) return under;
    const done = this.worker
      .build('snapshot', treeId)
      .then((bytes) => {
        this.builds++;
        const snapshot = withWire(bytes);
        const kept = this.built.get(treeId);
        if (!kept || kept.version <= snapshot.version) this.built.set(treeId, snapshot);
        this.options.built?.({ id: treeId, version: snapshot.version });
        return this.built.get(treeId)!;
      })
      .finally(() => this.building.delete(treeId));
    this.building.set(treeId, done);
    return done;
  }
}

/** The binary form's ETag differs from the JSON form's: a cache holding both must never answer one for the other. */
function withWire(bytes: SnapshotBytes): BuiltSnapshot {
  const jsonEtag = `"t${bytes.treeId}v${bytes.version}"`;
  let writing: Promise<Buffer> | null = null;
  const jsonTextAway = () => (writing ??= snapshotJsonAway(bytes.body.identity));
  let json: Promise<SnapshotForm> | null = null;
  let wire: Promise<TreeSnapshotWire> | null = null;
  const etag = `"t${bytes.treeId}v${bytes.version}b"`;
  return {
    ...bytes,
    etag,
    type: SNAPSHOT_BINARY_TYPE,
    wireAway: () => (wire ??= jsonTextAway().then((text) => wireOf<TreeSnapshotWire>(text))),
    json: () =>
      (json ??= jsonTextAway().then(async (identity) => {
        const { br, gzip } = await compressBuiltAway(identity, SNAPSHOT_WINDOW);
        return {
          etag: jsonEtag,
          version: bytes.version,
          type: 'application/json; charset=utf-8',
          body: { identity, br, gzip },
        };
      })),
  };
}
