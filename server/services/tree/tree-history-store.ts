/**
 * The built growth histories (tree-history.ts; decision 023), one per tree, built off the event loop once however many
 * ask. A history the tree has moved past is still served, since the page adds newer pieces from the live tree it holds
 * (client/tree/replay/replay-timeline.ts); a new one is built meanwhile, one build at a time per tree, and at most one
 * every REBUILD_EVERY_MS: a busy tree moves every few seconds, and one visitor asking again each time would otherwise
 * keep the build thread working without a pause.
 */
import type { TreeHistoryWire } from '#shared/tree/history.ts';
import { withParsedWire, type BuildWorker } from './build-worker-client.ts';
import type { HistoryBytes } from './tree-history.ts';

/**
 * How long a request waits for a newer history before it is answered with the kept one: a small tree's build comes
 * well within it; on a million cells a build takes seconds.
 */
export const STALE_WAIT_MS = 500;

/** The least time between the starts of two builds of one tree's history (a million cells take seconds). */
export const REBUILD_EVERY_MS = 30_000;

export interface BuiltHistory extends HistoryBytes {
  etag: string;
  /** The history as an object (tRPC's tree.history answers it): parsed from its bytes once, when first asked. */
  wire: () => TreeHistoryWire;
}

interface TreeVersion {
  id: number;
  version: number;
}

export class TreeHistoryStore {
  private readonly built = new Map<number, BuiltHistory>();
  private readonly building = new Map<number, Promise<BuiltHistory>>();
  /** When each tree's last build started (the store's clock). */
  private readonly startedAt = new Map<number, number>();
  /** Builds done so far (tests read it). */
  builds = 0;

  constructor(
    private readonly worker: BuildWorker,
    private readonly options: {
      staleWaitMs?: number;
      rebuildEveryMs?: number;
      now?: () => number;
      warn?: (error: unknown, treeId: number) => void;
    } = {},
  ) {}

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  /**
   * The history at the tree's current version if it is kept or comes within the stale wait; else the kept one,
   * older (the page fills in the rest). With none kept, the request waits for the first build.
   */
  async get(tree: TreeVersion): Promise<BuiltHistory> {
    const kept = this.built.get(tree.id);
    if (kept && kept.version >= tree.version) return kept;
    if (!kept) return this.build(tree.id);
    const lastStart = this.startedAt.get(tree.id) ?? -Infinity;
    const under = this.building.get(tree.id);
    if (!under && this.now() - lastStart < (this.options.rebuildEveryMs ?? REBUILD_EVERY_MS)) return kept;
    const next = under ?? this.build(tree.id);
    // A failed build leaves the kept history in service: it is logged, not thrown at the visitor.
    const fresh = next.catch((error: unknown) => {
      this.options.warn?.(error, tree.id);
      return kept;
    });
    const waitMs = this.options.staleWaitMs ?? STALE_WAIT_MS;
    if (waitMs <= 0) return kept;
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<BuiltHistory>((resolve) => {
      timer = setTimeout(() => resolve(kept), waitMs);
    });
    return Promise.race([fresh, waited]).finally(() => clearTimeout(timer));
  }

  /** The last history built for a tree, whatever its version; never builds one. */
  peek(treeId: number): BuiltHistory | null {
    return this.built.get(treeId) ?? null;
  }

  /**
   * Builds a tree's first history in the background (after its first snapshot), so that the first replay on a
   * large tree does not wait for the build; nothing when one is kept or under way.
   */
  warm(tree: TreeVersion): void {
    if (this.built.has(tree.id) || this.building.has(tree.id)) return;
    this.build(tree.id).catch((error: unknown) => this.options.warn?.(error, tree.id));
  }

  /** One build at a time per tree: it reads the tree as it is when the worker reaches it. */
  private build(treeId: number): Promise<BuiltHistory> {
    const under = this.building.get(treeId);
    if (under) return under;
    this.startedAt.set(treeId, this.now());
    const done = this.worker
      .build('history', treeId)
      .then((bytes) => {
        this.builds++;
        const history: BuiltHistory = withParsedWire<HistoryBytes, TreeHistoryWire>(
          bytes,
          `"t${bytes.treeId}h${bytes.version}"`,
        );
        const current = this.built.get(treeId);
        if (!current || current.version <= history.version) this.built.set(treeId, history);
        return this.built.get(treeId)!;
      })
      .finally(() => this.building.delete(treeId));
    this.building.set(treeId, done);
    return done;
  }
}
