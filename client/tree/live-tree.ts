/**
 * Keeps an open tree up to date (decision 023): the event stream while the page is visible, /changes polled when the
 * stream fails, the whole snapshot again on a `resync`; or, where the operator chose `poll` (LIVE_TRANSPORT, decision
 * 033), long-polls of /changes that a shared cache can answer for many viewers at once. Both hand their answers to the
 * same path, which applies each change once and in order. Plain TypeScript: use-tree-snapshot.ts owns one per open
 * tree.
 */
import { ChangesFetchError, fetchTreeChanges, pollTreeChanges, treeEventsUrl } from '#client/api/tree-changes.ts';
import type { LiveTransport } from '#shared/api-types.ts';
import {
  CHANGES_WAIT_MAX_SECONDS,
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

/** How long the server is asked to hold each long-poll: all it allows (a quiet tree costs one request per wait). */
export const LONG_POLL_WAIT_SECONDS = CHANGES_WAIT_MAX_SECONDS;
/**
 * How long past its wait a long-poll is given before the page drops it and asks again: a cache may hold a request
 * behind another for the same address (decision 033), and a connection may die without a word.
 */
export const LONG_POLL_GRACE_MS = 5_000;
/** The least time between two long-polls that brought nothing, so a server that answers at once is not hammered. */
export const LONG_POLL_MIN_MS = 1_000;
/**
 * A refused or failed long-poll waits a random time up to BACKOFF_BASE_MS × 2^(failures − 1), at most BACKOFF_MAX_MS
 * ("full jitter": the viewers a busy server refused together do not all come back together), after what the answer's
 * Retry-After asked for, if anything.
 */
export const BACKOFF_BASE_MS = 1_000;
export const BACKOFF_MAX_MS = 30_000;
/** How long a hidden page keeps long-polling: a glance at another tab costs nothing, a tab left behind is let go. */
export const HIDDEN_POLL_MS = 60_000;

/**
 * The wait before the next try after `failures` failures in a row (1 for the first), with `random()` in [0, 1): the
 * Retry-After asked for (milliseconds, or null), plus a random share of a ceiling that doubles with each failure.
 */
export function backoffMs(failures: number, retryAfterMs: number | null, random: () => number = Math.random): number {
  const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.min(Math.max(failures, 1) - 1, 30));
  return (retryAfterMs ?? 0) + Math.floor(random() * ceiling);
}

/**
 * `connecting`: a stream is being opened; `polling`: /changes asked every few seconds (a stream failed, or the
 * browser has none); `long-poll`: following by long-polls (LIVE_TRANSPORT=poll); `paused`: the page is hidden.
 */
export type LiveMode = 'connecting' | 'stream' | 'polling' | 'long-poll' | 'paused' | 'stopped';

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
  /** `events` (the default): the event stream, polling when it fails; `poll`: long-polls of /changes. */
  transport?: LiveTransport;
  /** Applies changes that follow the tree on screen (their `since` is its version); throwing asks for the snapshot. */
  applyChanges: (changes: TreeChangesWire) => void;
  /** Fetches the snapshot again and puts it on screen; answers its version. */
  reloadSnapshot: (signal: AbortSignal) => Promise<number>;
  onStatus?: (status: LiveStatus) => void;
  pollMs?: number;
  streamRetryMs?: number;
  /** How long a hidden page keeps long-polling (HIDDEN_POLL_MS). */
  hiddenPollMs?: number;
  /** Opens an event stream; null where the browser has none (the page then polls). */
  openStream?: ((url: string) => EventSource) | null;
  fetchChanges?: typeof fetchTreeChanges;
  pollChanges?: typeof pollTreeChanges;
  /** Random numbers in [0, 1) for the backoff's jitter. */
  random?: () => number;
  visibility?: VisibilitySource;
}

/** EventSource.CLOSED, without needing the global (absent where there are no streams). */
const STREAM_CLOSED = 2;

/**
 * Hands each change to the page in version order. A stream refused or broken STREAM_ERRORS_MAX times in a row gives
 * way to polling /changes, and is tried again now and then; a `resync` (the log no longer reaches the page's version)
 * fetches the snapshot again. With the `poll` transport, one long-poll after another from the version on screen
 * instead, backing off when refused.
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
  /** The long-poll loop under way (`poll` transport): aborting it ends the loop and its request. */
  private longPoll: AbortController | null = null;
  /** Ends the long-polls of a page hidden for HIDDEN_POLL_MS. */
  private hiddenTimer: ReturnType<typeof setTimeout> | null = null;
  /** Long-polls waiting for the jobs (a catch-up, a snapshot) to be done before they ask again. */
  private idleWaiters: (() => void)[] = [];
  private readonly abort = new AbortController();
  private readonly visibility: VisibilitySource | null;
  private readonly openStream: ((url: string) => EventSource) | null;
  private readonly fetchChanges: typeof fetchTreeChanges;
  private readonly pollChanges: typeof pollTreeChanges;
  private readonly transport: LiveTransport;

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
    this.pollChanges = options.pollChanges ?? pollTreeChanges;
    this.transport = options.transport ?? 'events';
  }

  get version(): number {
    return this.versionOnScreen;
  }

  get status(): LiveStatus {
    return { mode: this.mode, version: this.versionOnScreen, resyncs: this.resyncs };
  }

  start(): void {
    this.visibility?.addEventListener('visibilitychange', this.onVisibilityChange);
    // The snapshot may be a few versions behind the tree: catch up at once, whatever the stream does. The first
    // long-poll does that itself (it answers at once when the tree is past its version), through the cache.
    if (this.transport === 'events') this.catchUp();
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
    this.settleIdleWaiters();
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
      this.clearHiddenTimer();
      this.connect();
      void this.run();
    } else if (this.transport === 'poll') {
      // The poll under way goes on for a while: a glance at another tab should not cost a new start.
      this.hiddenTimer ??= setTimeout(() => {
        this.hiddenTimer = null;
        this.disconnect();
        this.setMode('paused');
      }, this.options.hiddenPollMs ?? HIDDEN_POLL_MS);
    } else {
      this.disconnect();
      this.setMode('paused');
    }
  };

  /** The long-polls where the operator chose them; else the stream where the browser has one, else polling. */
  private connect(): void {
    if (this.transport === 'poll') return this.startLongPoll();
    if (this.stream || this.pollTimer) return;
    if (this.openStream) this.openEventStream();
    else this.startPolling();
  }

  private disconnect(): void {
    this.closeStream();
    this.stopPolling();
    this.stopLongPoll();
    this.clearHiddenTimer();
    if (this.streamRetryTimer) clearTimeout(this.streamRetryTimer);
    this.streamRetryTimer = null;
  }

  private clearHiddenTimer(): void {
    if (this.hiddenTimer) clearTimeout(this.hiddenTimer);
    this.hiddenTimer = null;
  }

  private startLongPoll(): void {
    if (this.longPoll) return;
    const loop = new AbortController();
    this.longPoll = loop;
    this.setMode('long-poll');
    void this.followByLongPolls(loop.signal).finally(() => {
      if (this.longPoll === loop) this.longPoll = null;
    });
  }

  private stopLongPoll(): void {
    this.longPoll?.abort();
    this.longPoll = null;
  }

  /**
   * One long-poll after another, each from the version on screen once the jobs under way are done: its answer goes
   * the way of every other (receive), so a change is applied once, in order, whichever path brought it first. A
   * refusal or a failure waits (backoffMs), a poll not answered within its wait and LONG_POLL_GRACE_MS is dropped
   * and asked again. Ends when `signal` aborts: the page was hidden too long, or the tree left the screen.
   */
  private async followByLongPolls(signal: AbortSignal): Promise<void> {
    let failures = 0;
    let lastEmpty = -Infinity;
    while (!signal.aborted) {
      await this.whenIdle(signal);
      if (signal.aborted) return;
      const since = this.versionOnScreen;
      const poll = abortAfter(signal, LONG_POLL_WAIT_SECONDS * 1000 + LONG_POLL_GRACE_MS);
      try {
        const answer = await this.pollChanges(this.options.token, since, LONG_POLL_WAIT_SECONDS, poll.signal);
        failures = 0;
        this.receive(answer);
        if (answer.version <= since) {
          // Nothing new: ask again at once, unless the last empty answer came back just as fast.
          const now = Date.now();
          if (now - lastEmpty < LONG_POLL_MIN_MS) await sleep(LONG_POLL_MIN_MS, signal);
          lastEmpty = now;
        }
      } catch (error) {
        if (signal.aborted) return;
        // Dropped unanswered: ask again.
        if (poll.timedOut()) continue;
        // The tree has never had this version (its database was restored): start again from its snapshot.
        if (error instanceof ChangesFetchError && error.httpStatus === 400) {
          this.resync();
          continue;
        }
        failures++;
        const retryAfter = error instanceof ChangesFetchError ? error.retryAfterMs : null;
        await sleep(backoffMs(failures, retryAfter, this.options.random), signal);
      } finally {
        poll.done();
      }
    }
  }

  /** Resolves once no job runs or is wanted (the tree on screen is where the jobs leave it), or `signal` aborts. */
  private whenIdle(signal: AbortSignal): Promise<void> {
    if (!this.running && !this.reloadWanted && !this.catchUpWanted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        signal.removeEventListener('abort', done);
        this.idleWaiters = this.idleWaiters.filter((waiter) => waiter !== done);
        resolve();
      };
      this.idleWaiters.push(done);
      signal.addEventListener('abort', done, { once: true });
    });
  }

  private settleIdleWaiters(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
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
      this.running = false;
      this.settleIdleWaiters();
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

/** Sleeps `ms`, or less if `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** A signal that aborts with `signal`, or by itself after `ms`; `done()` lets go of both. */
function abortAfter(signal: AbortSignal, ms: number) {
  const controller = new AbortController();
  let timedOut = false;
  const follow = () => controller.abort(signal.reason);
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException('The long-poll was not answered in time.', 'TimeoutError'));
  }, ms);
  signal.addEventListener('abort', follow, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    done: () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', follow);
    },
  };
}
