/**
 * Keeps an open tree up to date (decision 023): the event stream while the page is visible, /changes polled when the
 * stream fails, the whole snapshot again on a `resync`. Plain TypeScript: use-tree-snapshot.ts owns one per open tree.
 */
import { ChangesFetchError, fetchTreeChanges, treeEventsUrl } from '#client/api/tree-changes.ts';
import {
  fromChangesEvent,
  type TreeChangesAnswer,
  type TreeChangesEvent,
  type TreeChangesWire,
} from '#shared/tree/changes.ts';

/** How often a page without a stream asks /changes. */
export const TREE_POLL_MS = 5_000;
/** How long a page that fell back to polling waits before it tries the stream again. */
export const STREAM_RETRY_MS = 30_000;
/** Errors in a row (each after the browser's own reconnection) before the page gives the stream up for polling. */
export const STREAM_ERRORS_MAX = 3;
/** The first wait after a failed fetch; it doubles per failure in a row, up to FETCH_RETRY_MAX_MS. */
const FETCH_RETRY_MS = 2_000;
const FETCH_RETRY_MAX_MS = 60_000;

/** `connecting`: a stream is being opened; `paused`: the page is hidden. */
export type LiveMode = 'connecting' | 'stream' | 'polling' | 'paused' | 'stopped';

export interface LiveStatus {
  mode: LiveMode;
  /** The version of the tree on screen. */
  version: number;
  /** Snapshots fetched again after a resync. */
  resyncs: number;
}

/** The part of the page's Document the subscription watches (tests pass their own). */
export type VisibilitySource = Pick<Document, 'visibilityState' | 'addEventListener' | 'removeEventListener'>;

export interface LiveTreeOptions {
  token: string;
  /** The version of the tree on screen when the subscription starts (the snapshot's: it may be behind). */
  version: number;
  /** Applies changes that follow the tree on screen (their `since` is its version); throwing asks for the snapshot. */
  applyChanges: (changes: TreeChangesWire) => void;
  /** Fetches the snapshot again and puts it on screen; answers its version. */
  reloadSnapshot: (signal: AbortSignal) => Promise<number>;
  onStatus?: (status: LiveStatus) => void;
  pollMs?: number;
  streamRetryMs?: number;
  /** Opens an event stream; null where the browser has none (the page then polls). */
  openStream?: ((url: string) => EventSource) | null;
  fetchChanges?: typeof fetchTreeChanges;
  visibility?: VisibilitySource;
}

/** EventSource.CLOSED, without needing the global (absent where there are no streams). */
const STREAM_CLOSED = 2;

/**
 * Hands each change to the page in version order. A stream refused or broken STREAM_ERRORS_MAX times in a row gives
 * way to polling /changes, and is tried again now and then; a `resync` (the log no longer reaches the page's version)
 * fetches the snapshot again.
 */
export class LiveTree {
  private versionOnScreen: number;
  private mode: LiveMode = 'paused';
  private resyncs = 0;
  private stream: EventSource | null = null;
  private streamOpened = false;
  private streamErrors = 0;
  private pollTimer: ReturnType<typeof setInterval> | null = null;
  private streamRetryTimer: ReturnType<typeof setTimeout> | null = null;
  private fetchRetryTimer: ReturnType<typeof setTimeout> | null = null;
  private fetchFailures = 0;
  /** One job at a time (a catch-up or a snapshot), so changes are applied in order and never twice. */
  private running = false;
  private catchUpWanted = false;
  private reloadWanted = false;
  private reloading = false;
  /** The last /changes answer's ETag, and the version it was asked from. */
  private lastAnswer: { since: number; etag: string } | null = null;
  private readonly abort = new AbortController();
  private readonly visibility: VisibilitySource | null;
  private readonly openStream: ((url: string) => EventSource) | null;
  private readonly fetchChanges: typeof fetchTreeChanges;

  constructor(private readonly options: LiveTreeOptions) {
    this.versionOnScreen = options.version;
    this.visibility = options.visibility ?? (typeof document === 'undefined' ? null : document);
    this.openStream =
      options.openStream !== undefined
        ? options.openStream
        : typeof EventSource === 'undefined'
          ? null
          : (url) => new EventSource(url);
    this.fetchChanges = options.fetchChanges ?? fetchTreeChanges;
  }

  get version(): number {
    return this.versionOnScreen;
  }

  get status(): LiveStatus {
    return { mode: this.mode, version: this.versionOnScreen, resyncs: this.resyncs };
  }

  start(): void {
    this.visibility?.addEventListener('visibilitychange', this.onVisibilityChange);
    // The snapshot may be a few versions behind the tree: catch up at once, whatever the stream does.
    this.catchUp();
    if (this.visible) this.connect();
    else this.setMode('paused');
  }

  stop(): void {
    if (this.mode === 'stopped') return;
    this.visibility?.removeEventListener('visibilitychange', this.onVisibilityChange);
    this.disconnect();
    if (this.fetchRetryTimer) clearTimeout(this.fetchRetryTimer);
    this.fetchRetryTimer = null;
    this.abort.abort();
    this.setMode('stopped');
  }

  private get stopped(): boolean {
    return this.mode === 'stopped';
  }

  private get visible(): boolean {
    return this.visibility?.visibilityState !== 'hidden';
  }

  private readonly onVisibilityChange = (): void => {
    if (this.stopped) return;
    if (this.visible) {
      this.connect();
      void this.run();
    } else {
      this.disconnect();
      this.setMode('paused');
    }
  };

  /** The stream where the browser has one, else polling. */
  private connect(): void {
    if (this.stream || this.pollTimer) return;
    if (this.openStream) this.openEventStream();
    else this.startPolling();
  }

  private disconnect(): void {
    this.closeStream();
    this.stopPolling();
    if (this.streamRetryTimer) clearTimeout(this.streamRetryTimer);
    this.streamRetryTimer = null;
  }

  private openEventStream(): void {
    let source: EventSource;
    try {
      source = this.openStream!(treeEventsUrl(this.options.token, this.versionOnScreen));
    } catch {
      return this.fallBackToPolling();
    }
    this.stream = source;
    this.streamOpened = false;
    this.streamErrors = 0;
    if (!this.pollTimer) this.setMode('connecting');
    source.onopen = () => {
      if (this.stream !== source) return;
      this.streamOpened = true;
      this.streamErrors = 0;
      this.stopPolling();
      this.setMode('stream');
    };
    // A refused stream (an error status) is closed by the browser; a broken one is reopened by it, from the last
    // event's id. Refused, broken before it ever opened, or broken again and again: poll instead.
    source.onerror = () => {
      if (this.stream !== source) return;
      this.streamErrors++;
      if (source.readyState === STREAM_CLOSED || !this.streamOpened || this.streamErrors >= STREAM_ERRORS_MAX)
        this.fallBackToPolling();
    };
    source.addEventListener('changes', (event) =>
      this.onStreamEvent(event, (data) =>
        this.receive(fromChangesEvent(Number((event as MessageEvent<string>).lastEventId), data as TreeChangesEvent)),
      ),
    );
    source.addEventListener('version', (event) =>
      this.onStreamEvent(event, (data) => {
        if ((data as { version: number }).version > this.versionOnScreen) this.catchUp();
      }),
    );
    source.addEventListener('resync', (event) =>
      this.onStreamEvent(event, (data) => {
        if ((data as { version: number }).version > this.versionOnScreen) this.resync();
      }),
    );
  }

  private onStreamEvent(event: Event, take: (data: unknown) => void): void {
    if (this.stopped || this.stream !== event.target) return;
    let data: unknown;
    try {
      data = JSON.parse((event as MessageEvent<string>).data);
    } catch {
      // An event we cannot read: ask for what it said.
      return this.catchUp();
    }
    take(data);
  }

  private closeStream(): void {
    if (!this.stream) return;
    this.stream.onopen = null;
    this.stream.onerror = null;
    this.stream.close();
    this.stream = null;
  }

  private fallBackToPolling(): void {
    this.closeStream();
    this.startPolling();
    if (!this.openStream || this.streamRetryTimer) return;
    this.streamRetryTimer = setTimeout(() => {
      this.streamRetryTimer = null;
      // Polling goes on until the new stream opens.
      if (!this.stopped && this.visible && !this.stream) this.openEventStream();
    }, this.options.streamRetryMs ?? STREAM_RETRY_MS);
  }

  private startPolling(): void {
    this.setMode('polling');
    if (this.pollTimer) return;
    this.pollTimer = setInterval(() => this.catchUp(), this.options.pollMs ?? TREE_POLL_MS);
    this.catchUp();
  }

  private stopPolling(): void {
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.pollTimer = null;
  }

  /**
   * Asks /changes since the version on screen (once the job under way, if any, is done): the page's own action just
   * changed the tree, or an event said it moved.
   */
  catchUp(): void {
    if (this.stopped) return;
    this.catchUpWanted = true;
    void this.run();
  }

  private resync(): void {
    this.reloadWanted = true;
    void this.run();
  }

  /**
   * An answer or a pushed event: applied when it follows the tree on screen. One the tree already has is dropped;
   * one from another version (a gap: an event missed, or a job under way) makes the page ask /changes again.
   */
  private receive(answer: TreeChangesAnswer): void {
    if (this.stopped || answer.version <= this.versionOnScreen) return;
    if (answer.resync) return this.resync();
    if (answer.since !== this.versionOnScreen || this.reloading) return this.catchUp();
    try {
      this.options.applyChanges(answer);
    } catch (error) {
      // The tree on screen may be half changed: start again from a snapshot.
      console.warn('Live changes could not be applied; the tree is loaded again.', error);
      return this.resync();
    }
    this.versionOnScreen = answer.version;
    this.report();
  }

  /** Runs the wanted jobs one after another: a snapshot first if one is wanted, then a catch-up. */
  private async run(): Promise<void> {
    if (this.running || this.stopped || !this.visible) return;
    this.running = true;
    try {
      while (!this.stopped && (this.reloadWanted || this.catchUpWanted)) {
        if (this.reloadWanted) await this.reload();
        else await this.askChanges();
      }
      this.fetchFailures = 0;
    } catch (error) {
      if (this.stopped) return;
      // The tree has never had this version (its database was restored): start again from its snapshot.
      if (error instanceof ChangesFetchError && error.httpStatus === 400) this.reloadWanted = true;
      else this.catchUpWanted = true;
      this.retryLater();
    } finally {
      this.running = false;
    }
  }

  private async reload(): Promise<void> {
    this.reloading = true;
    try {
      this.versionOnScreen = await this.options.reloadSnapshot(this.abort.signal);
    } finally {
      this.reloading = false;
    }
    this.reloadWanted = false;
    this.resyncs++;
    this.lastAnswer = null;
    this.report();
    // The snapshot itself may be a few versions behind.
    this.catchUpWanted = true;
  }

  private async askChanges(): Promise<void> {
    this.catchUpWanted = false;
    const since = this.versionOnScreen;
    const etag = this.lastAnswer?.since === since ? this.lastAnswer.etag : null;
    const reply = await this.fetchChanges(this.options.token, since, etag, this.abort.signal);
    if (reply.status === 'not-modified') return;
    if (reply.etag) this.lastAnswer = { since, etag: reply.etag };
    this.receive(reply.answer);
  }

  private retryLater(): void {
    this.fetchFailures++;
    if (this.fetchRetryTimer) return;
    const wait = Math.min(FETCH_RETRY_MS * 2 ** (this.fetchFailures - 1), FETCH_RETRY_MAX_MS);
    this.fetchRetryTimer = setTimeout(() => {
      this.fetchRetryTimer = null;
      void this.run();
    }, wait);
  }

  private setMode(mode: LiveMode): void {
    if (this.mode === 'stopped') return;
    this.mode = mode;
    this.report();
  }

  private report(): void {
    this.options.onStatus?.(this.status);
  }
}
