/**
 * The live tree's subscription (client/tree/live-tree.ts) with a fake stream, fake /changes answers and a fake
 * clock: changes are applied in version order and never twice, a gap or a stale answer asks again, a resync loads
 * the snapshot, a refused or breaking stream turns into polling until a stream opens again, a hidden page holds none.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ChangesFetchError, type ChangesReply } from '#client/api/tree-changes.ts';
import { LiveTree, STREAM_ERRORS_MAX, type LiveTreeOptions, type VisibilitySource } from '#client/tree/live-tree.ts';
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
