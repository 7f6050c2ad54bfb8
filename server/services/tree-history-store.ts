/**
 * The built growth histories of the trees (tree-history.ts), one per tree at the version last asked for: built by
 * the build worker off the event loop, once however many ask, and kept.
 */
import type { TreeHistoryWire } from '#shared/tree/history.ts';
import { withParsedWire, type BuildWorker } from './build-worker-client.ts';
import type { HistoryBytes } from './tree-history.ts';

export interface BuiltHistory extends HistoryBytes {
  etag: string;
  /** The history as an object (tRPC's tree.history answers it): parsed from its bytes once, when first asked. */
  wire(): TreeHistoryWire;
}

export class TreeHistoryStore {
  private readonly built = new Map<number, BuiltHistory>();
  private readonly building = new Map<number, { version: number; done: Promise<BuiltHistory> }>();
  /** Builds done so far (tests read it). */
  builds = 0;

  constructor(private readonly worker: BuildWorker) {}

  /** The history at the tree's current version: kept if it is, else built (once, however many ask). */
  async get(tree: { id: number; version: number }): Promise<BuiltHistory> {
    const kept = this.built.get(tree.id);
    if (kept && kept.version >= tree.version) return kept;
    const under = this.building.get(tree.id);
    if (under && under.version >= tree.version) return under.done;
    // A build for an older version may still be under way: this one queues behind it in the worker.
    const done = this.worker
      .build('history', tree.id)
      .then((bytes) => {
        this.builds++;
        const history: BuiltHistory = withParsedWire<HistoryBytes, TreeHistoryWire>(bytes, `"t${bytes.treeId}h${bytes.version}"`);
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
}
