/**
 * Asks the server for region details (shared/tree/region.ts) in aligned blocks: those around the view once the
 * camera settles (debounced), and one block at once when a tap or the keyboard needs a cell's token or title.
 * At most a few requests in flight; a failed block is not asked again for a while.
 */
import { blockBounds, blockOf, type RegionBounds, type TreeRegionWire } from '#shared/tree/region.ts';
import { blockKey, type CellDetails } from './cell-details.ts';

export type FetchRegion = (bounds: RegionBounds, signal: AbortSignal) => Promise<TreeRegionWire>;

const SETTLE_MS = 150;
const MAX_IN_FLIGHT = 4;
/** Blocks asked for around one view at most (a very large screen at the smallest zoom needs about 12). */
const MAX_VIEW_BLOCKS = 24;
const RETRY_AFTER_MS = 5_000;

interface Wanted {
  key: number;
  blockRow: number;
  blockColumn: number;
}

export class RegionLoader {
  private readonly inFlight = new Map<number, Promise<void>>();
  private readonly failedAt = new Map<number, number>();
  private queue: Wanted[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly abort = new AbortController();

  constructor(
    private readonly details: CellDetails,
    private readonly fetchRegion: FetchRegion,
    /** A block arrived (its key). */
    private readonly onLoaded: (key: number) => void,
  ) {}

  get loading(): number {
    return this.inFlight.size;
  }

  /** The view now covers these positions (inclusive); loads their blocks once the camera has settled. */
  wantView(rowFrom: number, rowTo: number, columnFrom: number, columnTo: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      const from = blockOf(rowFrom, columnFrom);
      const to = blockOf(rowTo, columnTo);
      const midRow = (from.blockRow + to.blockRow) / 2;
      const midColumn = (from.blockColumn + to.blockColumn) / 2;
      const wanted: Wanted[] = [];
      for (let blockRow = from.blockRow; blockRow <= to.blockRow; blockRow++) {
        for (let blockColumn = from.blockColumn; blockColumn <= to.blockColumn; blockColumn++) {
          const key = blockKey(blockRow, blockColumn);
          if (!this.details.hasBlock(key) && !this.inFlight.has(key)) wanted.push({ key, blockRow, blockColumn });
        }
      }
      // Nearest the middle first; the view's newest wishes replace older ones still waiting.
      wanted.sort(
        (a, b) =>
          (a.blockRow - midRow) ** 2 +
          (a.blockColumn - midColumn) ** 2 -
          ((b.blockRow - midRow) ** 2 + (b.blockColumn - midColumn) ** 2),
      );
      this.queue = wanted.slice(0, MAX_VIEW_BLOCKS);
      this.pump();
    }, SETTLE_MS);
  }

  /** Loads the block holding (row, column) now; resolves when it is there (or could not be loaded). */
  ensure(row: number, column: number): Promise<void> {
    const { blockRow, blockColumn } = blockOf(row, column);
    const key = blockKey(blockRow, blockColumn);
    if (this.details.hasBlock(key)) return Promise.resolve();
    return this.inFlight.get(key) ?? this.load({ key, blockRow, blockColumn }, true);
  }

  destroy(): void {
    if (this.timer) clearTimeout(this.timer);
    this.queue = [];
    this.abort.abort();
  }

  private pump(): void {
    while (this.inFlight.size < MAX_IN_FLIGHT && this.queue.length > 0) {
      const next = this.queue.shift()!;
      if (this.details.hasBlock(next.key) || this.inFlight.has(next.key)) continue;
      const failed = this.failedAt.get(next.key);
      if (failed !== undefined && performance.now() - failed < RETRY_AFTER_MS) continue;
      void this.load(next, false);
    }
  }

  private load(wanted: Wanted, urgent: boolean): Promise<void> {
    const bounds = blockBounds(wanted.blockRow, wanted.blockColumn);
    const done = this.fetchRegion(bounds, this.abort.signal)
      .then(
        (wire) => {
          if (this.abort.signal.aborted) return;
          this.failedAt.delete(wanted.key);
          this.details.addRegion(wire);
          this.onLoaded(wanted.key);
        },
        () => {
          if (!urgent) this.failedAt.set(wanted.key, performance.now());
        },
      )
      .finally(() => {
        this.inFlight.delete(wanted.key);
        if (!this.abort.signal.aborted) this.pump();
      });
    this.inFlight.set(wanted.key, done);
    return done;
  }
}
