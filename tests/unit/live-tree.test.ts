/**
 * The live tree's subscription (client/tree/live-tree.ts) with a fake stream, fake /changes answers and a fake
 * clock: changes are applied in version order and never twice, a gap or a stale answer asks again, a resync loads
 * the snapshot, a refused or breaking stream turns into polling until a stream opens again, a hidden page holds none.
 * The same with long-polls (LIVE_TRANSPORT=poll): one after another from the version on screen, backing off with
 * jitter when refused, let go when the page stays hidden; and the backoff and Retry-After themselves.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ChangesFetchError, retryAfterMs, type ChangesReply } from '#client/api/tree-changes.ts';
import {
  BACKOFF_BASE_MS,
  BACKOFF_MAX_MS,
  LONG_POLL_GRACE_MS,
  LONG_POLL_MIN_MS,
  LONG_POLL_WAIT_SECONDS,
  LiveTree,
  STREAM_ERRORS_MAX,
  backoffMs,
  type LiveTreeOptions,
  type VisibilitySource,
} from '#client/tree/live-tree.ts';
import { WAIT_MAX_SECONDS } from '#server/http/tree-long-poll.ts';
import { encodeChanges, toChangesEvent, type TreeChangesAnswer, type TreeChangesWire } from '#shared/tree/changes.ts';
import type { SnapshotCell } from '#shared/tree/snapshot.ts';

const POLL_MS = 1_000;
const RETRY_MS = 10_000;

class FakeStream {
  readyState = 0;
  onopen: (() => void) | null = null;
  onerror: (() => void) | null = null;
  closed = false;
  private readonly listeners = new Map<string, ((event: Event) => void)[]>();
  constructor(readonly url: string) {}
  addEventListener(type: string, listener: (event: Event) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close(): void {
    this.closed = true;
    this.readyState = 2;
  }
  open(): void {
    this.readyState = 1;
    this.onopen?.();
  }
  fail(closed = false): void {
    this.readyState = closed ? 2 : 0;
    this.onerror?.();
  }
  /** Sends an event as the server does: its id is the version, and changes leave out what the id says. */
  emit(type: string, data: unknown): void {
    const version = (data as { version?: number }).version;
    const body = type === 'changes' ? toChangesEvent(data as TreeChangesWire) : data;
    const event = {
      type,
      target: this,
      data: JSON.stringify(body),
      lastEventId: version === undefined ? '' : String(version),
    } as unknown as Event;
    for (const listener of this.listeners.get(type) ?? []) listener(event);
  }
}

class FakePage implements VisibilitySource {
  visibilityState: DocumentVisibilityState = 'visible';
  private listener: (() => void) | null = null;
  addEventListener(_type: string, listener: unknown): void {
    this.listener = listener as () => void;
  }
  removeEventListener(): void {
    this.listener = null;
  }
  show(state: DocumentVisibilityState): void {
    this.visibilityState = state;
    this.listener?.();
  }
}

function cell(row: number): SnapshotCell {
  return { row, column: 0, status: 2, type: 1, color: 0x123456, token: `c${row}`, thumb: null };
}

function changes(since: number, version: number): TreeChangesWire {
  return encodeChanges(since, version, [cell(version)]);
}

let streams: FakeStream[];
let page: FakePage;
/** The `since` of every /changes request, in order. */
let asked: number[];
/** The answer the server gives to a request since a version. */
let answer: (since: number) => TreeChangesAnswer | Error;
let applied: TreeChangesWire[];
let reloads: number;
let snapshotVersion: number;
let live: LiveTree;

/** A long-poll the fake server holds until the test answers or fails it (or the page aborts it). */
interface HeldPoll {
  since: number;
  wait: number;
  signal: AbortSignal;
  answer: (answer: TreeChangesAnswer) => void;
  fail: (error: Error) => void;
}
let polls: HeldPoll[];

function start(options: Partial<LiveTreeOptions> = {}): LiveTree {
  live = new LiveTree({
    token: 'tree',
    version: 10,
    applyChanges: (c) => void applied.push(c),
    reloadSnapshot: async () => {
      reloads++;
      return snapshotVersion;
    },
    pollMs: POLL_MS,
    streamRetryMs: RETRY_MS,
    openStream: (url) => {
      const stream = new FakeStream(url);
      streams.push(stream);
      return stream as unknown as EventSource;
    },
    fetchChanges: async (_token, since): Promise<ChangesReply> => {
      asked.push(since);
      const reply = answer(since);
      if (reply instanceof Error) throw reply;
      return { status: 'fresh', answer: reply, etag: null };
    },
    pollChanges: (_token, since, wait, signal) =>
      new Promise<TreeChangesAnswer>((resolve, reject) => {
        signal!.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
        polls.push({ since, wait, signal: signal!, answer: resolve, fail: reject });
      }),
    random: () => 0.5,
    visibility: page,
    ...options,
  });
  live.start();
  return live;
}

const stream = () => streams.at(-1)!;
const versions = () => applied.map((c) => `${c.since}→${c.version}`);

beforeEach(() => {
  vi.useFakeTimers();
  streams = [];
  page = new FakePage();
  asked = [];
  answer = (since) => encodeChanges(since, since, []);
  applied = [];
  reloads = 0;
  snapshotVersion = 50;
  polls = [];
});

afterEach(() => {
  live.stop();
  vi.useRealTimers();
});

describe('the live tree', () => {
  it('asks what changed since the snapshot at once, applies it, and opens the stream from the snapshot', async () => {
    answer = (since) => changes(since, 12);
    start();
    await vi.advanceTimersByTimeAsync(0);
    expect(asked).toEqual([10]);
    // The event stream is the default: no long-poll.
    expect(polls).toEqual([]);
    expect(versions()).toEqual(['10→12']);
    expect(stream().url).toBe('/api/tree/tree/events?since=10');
    stream().open();
    expect(live.status).toMatchObject({ mode: 'stream', version: 12 });
  });

  it('applies events in order, drops those it has, and asks /changes when one does not follow its version', async () => {
    start();
    await vi.advanceTimersByTimeAsync(0);
    stream().open();
    stream().emit('changes', changes(10, 11));
    stream().emit('changes', changes(10, 11));
    stream().emit('changes', changes(11, 13));
    // Already on screen (the stream resumed from an older version): dropped.
    stream().emit('changes', changes(12, 13));
    expect(versions()).toEqual(['10→11', '11→13']);
    // A gap: 13 → 15 was missed. The page asks, and applies the answer, not the event.
    answer = (since) => changes(since, 16);
    stream().emit('changes', changes(15, 16));
    await vi.advanceTimersByTimeAsync(0);
    expect(asked.at(-1)).toBe(13);
    expect(versions()).toEqual(['10→11', '11→13', '13→16']);
    expect(live.version).toBe(16);
  });

  it('drops an answer overtaken by the stream, and asks again when the answer is from an older version', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    start({
      fetchChanges: async (_token, since) => {
        asked.push(since);
        calls++;
        // The first answer arrives late, after the stream brought 10 → 11: it is from 10, so it is not applied.
        if (calls === 1) await held;
        return { status: 'fresh', answer: changes(since, 12), etag: null };
      },
    });
    stream().open();
    stream().emit('changes', changes(10, 11));
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect(asked).toEqual([10, 11]);
    expect(versions()).toEqual(['10→11', '11→12']);
  });

  it('fetches /changes on a version event, and the snapshot on a resync, then catches up from the snapshot', async () => {
    start();
    await vi.advanceTimersByTimeAsync(0);
    stream().open();
    answer = (since) => changes(since, 20);
    stream().emit('version', { version: 20, since: 10 });
    await vi.advanceTimersByTimeAsync(0);
    expect(versions()).toEqual(['10→20']);

    answer = (since) => changes(since, 55);
    stream().emit('resync', { version: 60 });
    await vi.advanceTimersByTimeAsync(0);
    expect(reloads).toBe(1);
    expect(asked.at(-1)).toBe(50);
    expect(live.status).toMatchObject({ version: 55, resyncs: 1 });
    // An old resync (the page already has a newer snapshot) does nothing.
    stream().emit('resync', { version: 40 });
    await vi.advanceTimersByTimeAsync(0);
    expect(reloads).toBe(1);
  });

  it('loads the snapshot when /changes answers resync or refuses the version', async () => {
    answer = (since) =>
      since === 10 ? { format: 1, resync: true, since, version: 70 } : encodeChanges(since, since, []);
    start();
    await vi.advanceTimersByTimeAsync(0);
    expect(reloads).toBe(1);
    expect(live.version).toBe(50);
    answer = () => new ChangesFetchError('bad since', 400);
    stream().emit('version', { version: 80 });
    await vi.advanceTimersByTimeAsync(0);
    expect(reloads).toBe(1);
    // After the first wait for a retry, the page starts again from a snapshot.
    await vi.advanceTimersByTimeAsync(2_000);
    expect(reloads).toBe(2);
  });

  it('polls when the stream is refused, tries the stream again later, and stops polling once it opens', async () => {
    start();
    await vi.advanceTimersByTimeAsync(0);
    stream().fail(true);
    expect(live.status.mode).toBe('polling');
    const before = asked.length;
    await vi.advanceTimersByTimeAsync(POLL_MS * 3);
    expect(asked.length - before).toBeGreaterThanOrEqual(3);
    expect(streams).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(RETRY_MS);
    expect(streams).toHaveLength(2);
    // Still polling while the new stream connects.
    expect(live.status.mode).toBe('polling');
    stream().open();
    expect(live.status.mode).toBe('stream');
    const polled = asked.length;
    await vi.advanceTimersByTimeAsync(POLL_MS * 3);
    expect(asked.length).toBe(polled);
  });

  it(`gives a stream that breaks ${STREAM_ERRORS_MAX} times in a row up for polling, but not one that recovers`, async () => {
    start();
    await vi.advanceTimersByTimeAsync(0);
    stream().open();
    stream().fail();
    stream().open();
    stream().fail();
    expect(live.status.mode).toBe('stream');
    for (let i = 1; i < STREAM_ERRORS_MAX; i++) stream().fail();
    expect(live.status.mode).toBe('polling');
    expect(stream().closed).toBe(true);
  });

  it('polls where the browser has no event streams', async () => {
    start({ openStream: null });
    await vi.advanceTimersByTimeAsync(POLL_MS * 2);
    expect(live.status.mode).toBe('polling');
    expect(asked.length).toBeGreaterThanOrEqual(3);
  });

  it('holds no stream and asks nothing while the page is hidden, and reopens from its version once shown', async () => {
    answer = (since) => changes(since, 12);
    start();
    await vi.advanceTimersByTimeAsync(0);
    stream().open();
    page.show('hidden');
    expect(stream().closed).toBe(true);
    expect(live.status.mode).toBe('paused');
    const before = asked.length;
    await vi.advanceTimersByTimeAsync(RETRY_MS * 3);
    expect(asked.length).toBe(before);
    page.show('visible');
    expect(streams).toHaveLength(2);
    expect(stream().url).toBe('/api/tree/tree/events?since=12');
  });

  it('retries a failed catch-up, waiting longer each time', async () => {
    answer = () => new ChangesFetchError('offline', null);
    start();
    await vi.advanceTimersByTimeAsync(0);
    stream().open();
    expect(asked).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(asked).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(asked).toHaveLength(2);
    answer = (since) => changes(since, 11);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(versions()).toEqual(['10→11']);
  });

  it('stops: closes its stream and applies nothing more', async () => {
    start();
    await vi.advanceTimersByTimeAsync(0);
    stream().open();
    live.stop();
    expect(stream().closed).toBe(true);
    stream().emit('changes', changes(10, 11));
    expect(applied).toEqual([]);
    expect(live.status.mode).toBe('stopped');
  });
});

const nothingNew = (version: number) => encodeChanges(version, version, []);
const poll = () => polls.at(-1)!;
const WAIT_MS = LONG_POLL_WAIT_SECONDS * 1000;

describe('the live tree by long-poll', () => {
  const startPolling = (options: Partial<LiveTreeOptions> = {}) => start({ transport: 'poll', ...options });

  it('asks for as long a wait as the server holds', () => {
    expect(LONG_POLL_WAIT_SECONDS).toBe(WAIT_MAX_SECONDS);
  });

  it('opens no stream, catches up through its first poll, and polls again from each version it reaches', async () => {
    startPolling();
    await vi.advanceTimersByTimeAsync(0);
    expect(streams).toEqual([]);
    // The catch-up after the snapshot is the first poll itself (a cache may answer it), not a /changes of its own.
    expect(asked).toEqual([]);
    expect(polls.map(({ since, wait }) => ({ since, wait }))).toEqual([{ since: 10, wait: LONG_POLL_WAIT_SECONDS }]);
    expect(live.status.mode).toBe('long-poll');
    poll().answer(changes(10, 12));
    await vi.advanceTimersByTimeAsync(0);
    poll().answer(changes(12, 15));
    await vi.advanceTimersByTimeAsync(0);
    expect(versions()).toEqual(['10→12', '12→15']);
    expect(polls.map((p) => p.since)).toEqual([10, 12, 15]);
    expect(live.status).toMatchObject({ mode: 'long-poll', version: 15 });
  });

  it('applies a change once when a catch-up brought it first, and asks /changes when an answer does not follow', async () => {
    startPolling();
    await vi.advanceTimersByTimeAsync(0);
    // The page's own action asked for the change while the poll from 10 was held.
    answer = (since) => changes(since, 12);
    live.catchUp();
    await vi.advanceTimersByTimeAsync(0);
    expect(versions()).toEqual(['10→12']);
    poll().answer(changes(10, 12));
    await vi.advanceTimersByTimeAsync(0);
    // Already on screen: dropped, and the next poll is from the version on screen.
    expect(versions()).toEqual(['10→12']);
    expect(poll().since).toBe(12);
    // An answer from another version than the one on screen: /changes brings the tree up, then the polls go on.
    answer = (since) => changes(since, 16);
    poll().answer(changes(11, 16));
    await vi.advanceTimersByTimeAsync(0);
    expect(asked).toEqual([10, 12]);
    expect(versions()).toEqual(['10→12', '12→16']);
    expect(polls.map((p) => p.since)).toEqual([10, 12, 16]);
  });

  it('waits for a catch-up under way before it polls again', async () => {
    let release!: () => void;
    startPolling({
      fetchChanges: async (_token, since) => {
        asked.push(since);
        await new Promise<void>((resolve) => (release = resolve));
        return { status: 'fresh', answer: changes(since, 14), etag: null };
      },
    });
    await vi.advanceTimersByTimeAsync(0);
    poll().answer(changes(12, 13));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(asked).toEqual([10]);
    expect(polls).toHaveLength(1);
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect(versions()).toEqual(['10→14']);
    expect(polls.map((p) => p.since)).toEqual([10, 14]);
  });

  it('loads the snapshot on a resync answer or a refused version, then polls from the snapshot', async () => {
    startPolling();
    await vi.advanceTimersByTimeAsync(0);
    poll().answer({ format: 1, resync: true, since: 10, version: 70 });
    await vi.advanceTimersByTimeAsync(0);
    expect(reloads).toBe(1);
    // The snapshot may be behind too: /changes from its version, then the polls.
    expect(asked).toEqual([50]);
    expect(poll().since).toBe(50);
    expect(live.status).toMatchObject({ version: 50, resyncs: 1 });
    snapshotVersion = 60;
    poll().fail(new ChangesFetchError('bad since', 400));
    await vi.advanceTimersByTimeAsync(0);
    expect(reloads).toBe(2);
    expect(poll().since).toBe(60);
  });

  it('backs off a refusal as long as its Retry-After says and a random share more, longer each time', async () => {
    startPolling();
    await vi.advanceTimersByTimeAsync(0);
    poll().fail(new ChangesFetchError('busy', 503, 5_000));
    // Retry-After, plus half (random 0.5) of the first ceiling.
    await vi.advanceTimersByTimeAsync(5_000 + BACKOFF_BASE_MS / 2 - 1);
    expect(polls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(polls).toHaveLength(2);
    poll().fail(new ChangesFetchError('busy', 503, 5_000));
    await vi.advanceTimersByTimeAsync(5_000 + BACKOFF_BASE_MS - 1);
    expect(polls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(polls).toHaveLength(3);
    // Answered at last: the page catches up, and the next failure starts from the first wait again.
    poll().answer(changes(10, 11));
    await vi.advanceTimersByTimeAsync(0);
    expect(versions()).toEqual(['10→11']);
    poll().fail(new ChangesFetchError('offline', null));
    await vi.advanceTimersByTimeAsync(BACKOFF_BASE_MS / 2 - 1);
    expect(polls).toHaveLength(4);
    await vi.advanceTimersByTimeAsync(1);
    expect(polls.map((p) => p.since)).toEqual([10, 10, 10, 11, 11]);
  });

  it('drops a poll not answered within its wait and a grace, and asks again', async () => {
    startPolling();
    await vi.advanceTimersByTimeAsync(WAIT_MS + LONG_POLL_GRACE_MS - 1);
    expect(polls).toHaveLength(1);
    expect(polls[0]!.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(polls[0]!.signal.aborted).toBe(true);
    expect(polls).toHaveLength(2);
    expect(poll().since).toBe(10);
  });

  it('asks again at once after nothing new, but not faster than once a second', async () => {
    startPolling();
    await vi.advanceTimersByTimeAsync(WAIT_MS);
    poll().answer(nothingNew(10));
    await vi.advanceTimersByTimeAsync(0);
    expect(polls).toHaveLength(2);
    // A server that answers nothing new at once, again and again.
    poll().answer(nothingNew(10));
    await vi.advanceTimersByTimeAsync(LONG_POLL_MIN_MS - 1);
    expect(polls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(polls).toHaveLength(3);
    expect(versions()).toEqual([]);
  });

  it('keeps polling through a short hide, lets go of a page hidden long, and catches up once shown', async () => {
    startPolling({ hiddenPollMs: 10_000 });
    await vi.advanceTimersByTimeAsync(0);
    page.show('hidden');
    await vi.advanceTimersByTimeAsync(5_000);
    page.show('visible');
    expect(polls).toHaveLength(1);
    expect(polls[0]!.signal.aborted).toBe(false);

    page.show('hidden');
    await vi.advanceTimersByTimeAsync(5_000);
    poll().answer(changes(10, 11));
    await vi.advanceTimersByTimeAsync(5_000 - 1);
    expect(versions()).toEqual(['10→11']);
    expect(live.status.mode).toBe('long-poll');
    await vi.advanceTimersByTimeAsync(1);
    expect(polls[1]!.signal.aborted).toBe(true);
    expect(live.status.mode).toBe('paused');
    await vi.advanceTimersByTimeAsync(WAIT_MS * 4);
    expect(polls).toHaveLength(2);

    page.show('visible');
    await vi.advanceTimersByTimeAsync(0);
    expect(polls).toHaveLength(3);
    expect(poll().since).toBe(11);
    expect(live.status.mode).toBe('long-poll');
  });

  it('stops: aborts its poll and asks nothing more', async () => {
    startPolling();
    await vi.advanceTimersByTimeAsync(0);
    live.stop();
    expect(polls[0]!.signal.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(WAIT_MS * 4);
    expect(polls).toHaveLength(1);
    expect(live.status.mode).toBe('stopped');
  });
});

describe('the backoff', () => {
  it('waits a random share of a ceiling that doubles with each failure, up to its cap', () => {
    const ceilings = [1, 2, 3, 4, 5, 6, 7, 40].map((failures) => backoffMs(failures, null, () => 0.999999));
    expect(ceilings).toEqual([
      999,
      1_999,
      3_999,
      7_999,
      15_999,
      BACKOFF_MAX_MS - 1,
      BACKOFF_MAX_MS - 1,
      BACKOFF_MAX_MS - 1,
    ]);
    expect(backoffMs(3, null, () => 0)).toBe(0);
    expect(backoffMs(3, null, () => 0.25)).toBe(1_000);
  });

  it('never comes back before the Retry-After', () => {
    expect(backoffMs(1, 5_000, () => 0)).toBe(5_000);
    expect(backoffMs(2, 5_000, () => 0.5)).toBe(6_000);
  });

  it('reads Retry-After in seconds or as a date', () => {
    const now = Date.parse('2026-11-25T12:00:00Z');
    expect(retryAfterMs('5', now)).toBe(5_000);
    expect(retryAfterMs(' 0 ', now)).toBe(0);
    expect(retryAfterMs('Wed, 25 Nov 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Wed, 25 Nov 2026 11:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeNull();
    expect(retryAfterMs(null, now)).toBeNull();
  });
});
