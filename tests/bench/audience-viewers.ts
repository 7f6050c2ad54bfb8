/**
 * The audience benchmark's viewers (tests/bench/audience.bench.ts), in a process of their own so that their CPU is not
 * counted as the origin's. Each viewer is a plain HTTP/1.1 client on its own connection (raw sockets: thousands of
 * them share one process, and Node's http client would cost several times more per answer):
 *   - `poll`: one long-poll after another, GET /api/tree/{token}/changes?since=V&wait=25, as the page does with
 *     LIVE_TRANSPORT=poll (client/tree/live-tree.ts, whose timings and backoff it uses): an answer with changes moves
 *     the viewer to its version and the next poll asks from there at once; "nothing new" asks again, not twice
 *     within a second; a refusal or a failure waits the page's backoff; a poll unanswered after its wait and the
 *     page's grace is dropped and asked again. No cookie, and the headers a browser's fetch sends. Each viewer from a
 *     loopback address of its own, as viewers come from addresses of their own: nginx passes it on (X-Forwarded-For),
 *     and the origin's rate limit on /changes counts per address.
 *   - `stream`: an event stream each, GET /api/tree/{token}/events?since=V, from the given loopback addresses (the
 *     server takes 8 streams an address); a broken stream comes back with Last-Event-ID after 3 s, as EventSource does.
 * Started with an IPC channel (node --import tsx tests/bench/audience-viewers.ts): told to open viewers, then to
 * finish: it waits until every viewer is at the last change (or the deadline), answers what they saw, and exits.
 */
import net from 'node:net';
import zlib from 'node:zlib';
import { backoffMs, LONG_POLL_GRACE_MS, LONG_POLL_MIN_MS, LONG_POLL_WAIT_SECONDS } from '#client/tree/live-tree.ts';

export interface OpenOrder {
  type: 'open';
  mode: 'poll' | 'stream';
  /** Where the viewers connect (127.0.0.1): nginx for polls, an app process for streams. */
  port: number;
  token: string;
  /** The version every viewer starts from (the snapshot's, as if each had just loaded the page). */
  since: number;
  count: number;
  /** New viewers a second: a crowd arriving, not one burst of handshakes. */
  perSecond: number;
  /** Viewers per loopback address, and the index of this process's first address. */
  perAddress: number;
  firstAddress: number;
}

export interface FinishOrder {
  type: 'finish';
  /** The measured changes: [version, committed at (ms since the epoch)], in order. */
  commits: [number, number][];
  /** How long the viewers are given to reach the last version. */
  deadlineMs: number;
}

export interface Opened {
  type: 'opened';
  /** Viewers whose first poll was sent on an open connection, or whose stream answered 200. */
  ready: number;
  ms: number;
}

export interface ViewersResult {
  type: 'result';
  viewers: number;
  /** Commit → viewer latencies, every viewer and every measured change: [ms, how many]. */
  latencies: [number, number][];
  /** (viewer, change) pairs the viewer never reached. */
  missed: number;
  /** Viewers not at the last version when told to finish, or that met a resync or an answer not from their version. */
  incomplete: number;
  /** Answers `resync`, and answers whose `since` was not the version asked from (both would make the page refetch). */
  resyncs: number;
  mismatches: number;
  /** Requests sent (polls; stream connections), answers (events) that brought changes, "nothing new" answers. */
  requests: number;
  withChanges: number;
  nothingNew: number;
  /** Answers by HTTP status; connection failures; polls dropped unanswered after wait + grace; connections opened. */
  statuses: Record<string, number>;
  failures: number;
  dropped: number;
  connections: number;
  /** This process's CPU time (ms) since it started. */
  cpuMs: number;
}

type Order = OpenOrder | FinishOrder;

const HOST = '127.0.0.1';
const HEAD_END = Buffer.from('\r\n\r\n');
const CRLF = Buffer.from('\r\n');
/** What Chromium's fetch sends: the cache keeps one variant per Accept-Encoding, so every viewer sends the same. */
const ACCEPT_ENCODING = 'gzip, deflate, br, zstd';
/** EventSource's wait before it reconnects (the stream also says `retry: 3000`). */
const STREAM_RETRY_MS = 3000;
/** How often held polls are checked for the page's give-up (wait + grace). */
const SWEEP_MS = 1000;

const nowMs = () => performance.timeOrigin + performance.now();

interface Response {
  status: number;
  /** The head, lower-cased (status line and headers): `header` reads one. */
  head: string;
  body: Buffer;
}

/** One header's value from a lower-cased head, or undefined. */
function header(head: string, name: string): string | undefined {
  const at = head.indexOf(`\r\n${name}:`);
  if (at < 0) return undefined;
  const end = head.indexOf('\r\n', at + 2);
  return head.slice(at + name.length + 3, end < 0 ? undefined : end).trim();
}

/** Reads HTTP/1.1 responses off one kept-alive connection: bodies by Content-Length or chunked. */
class ResponseReader {
  private buffer: Buffer = Buffer.alloc(0);

  constructor(private readonly onResponse: (response: Response) => void) {}

  push(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    while (this.buffer.length > 0) {
      const response = this.next();
      if (!response) return;
      this.onResponse(response);
    }
  }

  /** The next whole response off the buffer, or null when it has not all arrived yet. */
  private next(): Response | null {
    const headEnd = this.buffer.indexOf(HEAD_END);
    if (headEnd < 0) return null;
    const head = this.buffer.toString('latin1', 0, headEnd).toLowerCase();
    const status = Number(head.slice(9, 12));
    const start = headEnd + HEAD_END.length;
    const length = header(head, 'content-length');
    if (length !== undefined || status === 204 || status === 304) {
      const end = start + Number(length ?? 0);
      if (this.buffer.length < end) return null;
      const body = this.buffer.subarray(start, end);
      this.buffer = this.buffer.subarray(end);
      return { status, head, body };
    }
    if (!(header(head, 'transfer-encoding') ?? '').includes('chunked')) {
      throw new Error(`an answer (${status}) with neither Content-Length nor chunked encoding`);
    }
    const parts: Buffer[] = [];
    let at = start;
    for (;;) {
      const lineEnd = this.buffer.indexOf(CRLF, at);
      if (lineEnd < 0) return null;
      const size = parseInt(this.buffer.toString('latin1', at, lineEnd), 16);
      if (size === 0) {
        const trailerEnd = this.buffer.indexOf(HEAD_END, lineEnd);
        if (trailerEnd < 0) return null;
        this.buffer = this.buffer.subarray(trailerEnd + HEAD_END.length);
        return { status, head, body: Buffer.concat(parts) };
      }
      const dataEnd = lineEnd + CRLF.length + size;
      if (this.buffer.length < dataEnd + CRLF.length) return null;
      parts.push(this.buffer.subarray(lineEnd + CRLF.length, dataEnd));
      at = dataEnd + CRLF.length;
    }
  }
}

function decode(response: Response): string {
  const encoding = header(response.head, 'content-encoding');
  if (encoding === 'br') return zlib.brotliDecompressSync(response.body).toString('utf8');
  if (encoding === 'gzip') return zlib.gunzipSync(response.body).toString('utf8');
  return response.body.toString('utf8');
}

/** Retry-After in milliseconds (seconds or an HTTP date), or null. */
function retryAfterMs(value: string | undefined): number | null {
  if (value === undefined) return null;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

/** What every viewer counts. */
const tally = {
  requests: 0,
  withChanges: 0,
  nothingNew: 0,
  resyncs: 0,
  mismatches: 0,
  statuses: {} as Record<string, number>,
  failures: 0,
  dropped: 0,
  connections: 0,
};
const countStatus = (status: number) => (tally.statuses[status] = (tally.statuses[status] ?? 0) + 1);

abstract class Viewer {
  version: number;
  /** Whether the viewer met something that would make the page fetch the snapshot again. */
  broken = false;
  /** [version reached, at (ms since the epoch)] pairs, flattened, in the order they arrived. */
  readonly reached: number[] = [];
  ready = false;

  constructor(
    protected readonly order: OpenOrder,
    protected readonly address: string,
  ) {
    this.version = order.since;
  }

  abstract start(): void;
  abstract close(): void;

  protected reach(version: number, at: number): void {
    if (version <= this.version) return;
    this.version = version;
    this.reached.push(version, at);
  }

  protected connect(onData: (chunk: Buffer) => void, onEnd: () => void): net.Socket {
    tally.connections++;
    const socket = net.connect({ host: HOST, port: this.order.port, localAddress: this.address });
    socket.setNoDelay(true);
    socket.on('data', onData);
    socket.on('error', () => {});
    socket.on('close', onEnd);
    return socket;
  }
}

/** One long-poll after another, as the page follows the tree with LIVE_TRANSPORT=poll. */
class PollViewer extends Viewer {
  private socket: net.Socket | null = null;
  /** The version the poll under way asks from (null: none under way), and when it was sent. */
  private asked: number | null = null;
  private askedAt = 0;
  private failures = 0;
  private lastEmpty = -Infinity;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  start(): void {
    this.ask();
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.socket?.destroy();
  }

  /** Drops a poll held longer than the page waits for one (its wait and grace), and asks again at once. */
  sweep(now: number): void {
    if (this.asked === null || now - this.askedAt < LONG_POLL_WAIT_SECONDS * 1000 + LONG_POLL_GRACE_MS) return;
    tally.dropped++;
    this.drop();
    this.ask();
  }

  private drop(): void {
    const socket = this.socket;
    this.socket = null;
    this.asked = null;
    socket?.destroy();
  }

  private ask(): void {
    if (this.closed) return;
    if (!this.socket) {
      const reader = new ResponseReader((response) => this.answered(response));
      const socket = this.connect(
        (chunk) => {
          try {
            reader.push(chunk);
          } catch {
            if (this.socket === socket) this.failed(null);
          }
        },
        () => {
          // Closed by the other end: a failure if a poll was waiting on it; otherwise the next poll reconnects.
          if (this.socket !== socket) return;
          if (this.asked !== null) this.failed(null);
          else this.socket = null;
        },
      );
      socket.once('connect', () => (this.ready = true));
      this.socket = socket;
    }
    this.asked = this.version;
    this.askedAt = nowMs();
    tally.requests++;
    this.socket.write(
      `GET /api/tree/${this.order.token}/changes?since=${this.version}&wait=${LONG_POLL_WAIT_SECONDS} HTTP/1.1\r\n` +
        `Host: ${HOST}:${this.order.port}\r\nAccept: */*\r\nAccept-Encoding: ${ACCEPT_ENCODING}\r\n\r\n`,
    );
  }

  private answered(response: Response): void {
    const at = nowMs();
    const since = this.asked;
    if (since === null) return;
    this.asked = null;
    countStatus(response.status);
    if (header(response.head, 'connection') === 'close') {
      const socket = this.socket;
      this.socket = null;
      socket?.end();
    }
    if (response.status !== 200) {
      // 400: the tree never had this version; anything else is a refusal to wait out.
      if (response.status === 400) this.broken = true;
      this.failures++;
      this.later(backoffMs(this.failures, retryAfterMs(header(response.head, 'retry-after'))));
      return;
    }
    this.failures = 0;
    const answer = (JSON.parse(decode(response)) as { r: { since: number; version: number; resync: boolean } }).r;
    if (answer.since !== since) {
      tally.mismatches++;
      this.broken = true;
    }
    if (answer.resync) {
      tally.resyncs++;
      this.broken = true;
    }
    if (answer.version > since) {
      tally.withChanges++;
      this.reach(answer.version, at);
      this.ask();
      return;
    }
    tally.nothingNew++;
    const empty = Date.now();
    const wait = empty - this.lastEmpty < LONG_POLL_MIN_MS ? LONG_POLL_MIN_MS : 0;
    this.lastEmpty = empty;
    if (wait > 0) this.later(wait);
    else this.ask();
  }

  private failed(retryAfter: number | null): void {
    tally.failures++;
    this.failures++;
    this.drop();
    this.later(backoffMs(this.failures, retryAfter));
  }

  private later(ms: number): void {
    this.timer = setTimeout(() => {
      this.timer = null;
      this.ask();
    }, ms);
  }
}

/** An event stream, read as EventSource would: each event's id is the version it brings the viewer to. */
class StreamViewer extends Viewer {
  private socket: net.Socket | null = null;
  private closed = false;

  start(): void {
    this.open();
  }

  close(): void {
    this.closed = true;
    this.socket?.destroy();
  }

  private open(): void {
    if (this.closed) return;
    let head: Buffer | null = Buffer.alloc(0);
    let pending = '';
    const socket = this.connect(
      (chunk) => {
        const at = nowMs();
        if (head !== null) {
          head = Buffer.concat([head, chunk]);
          const end = head.indexOf(HEAD_END);
          if (end < 0) return;
          const status = Number(head.toString('latin1', 0, end).split(' ')[1]);
          countStatus(status);
          const rest = head.subarray(end + HEAD_END.length);
          head = null;
          if (status !== 200) {
            socket.destroy();
            return;
          }
          this.ready = true;
          chunk = rest;
        }
        // The chunk framing's lines ("5a\r") never start with "id: ", so the body is read as it comes.
        pending += chunk.toString('latin1');
        const lines = pending.split('\n');
        pending = lines.pop()!;
        for (const line of lines) {
          if (!line.startsWith('id: ')) continue;
          tally.withChanges++;
          this.reach(Number(line.slice(4)), at);
        }
      },
      () => {
        if (this.socket !== socket) return;
        this.socket = null;
        if (this.closed) return;
        tally.failures++;
        setTimeout(() => this.open(), STREAM_RETRY_MS);
      },
    );
    this.socket = socket;
    tally.requests++;
    socket.write(
      `GET /api/tree/${this.order.token}/events?since=${this.order.since} HTTP/1.1\r\n` +
        `Host: ${HOST}:${this.order.port}\r\nAccept: text/event-stream\r\nCache-Control: no-cache\r\n` +
        `Last-Event-ID: ${this.version}\r\nAccept-Encoding: ${ACCEPT_ENCODING}\r\n\r\n`,
    );
  }
}

/** The n-th loopback address for viewers (127.0.0.1 is left to the rest). */
const loopback = (n: number) => `127.0.${Math.floor(n / 250) + 1}.${(n % 250) + 2}`;

const viewers: Viewer[] = [];
let sweeper: NodeJS.Timeout | null = null;

async function open(order: OpenOrder): Promise<void> {
  const started = nowMs();
  const perTick = Math.max(1, Math.round(order.perSecond / 100));
  for (let i = 0; i < order.count; i++) {
    const address = loopback(order.firstAddress + Math.floor(i / order.perAddress));
    const viewer = order.mode === 'poll' ? new PollViewer(order, address) : new StreamViewer(order, address);
    viewers.push(viewer);
    viewer.start();
    if (i % perTick === perTick - 1) await new Promise((resolve) => setTimeout(resolve, 10));
  }
  if (order.mode === 'poll') {
    sweeper = setInterval(() => {
      const now = nowMs();
      for (const viewer of viewers) (viewer as PollViewer).sweep(now);
    }, SWEEP_MS);
  }
  const deadline = Date.now() + 60_000;
  while (viewers.some((v) => !v.ready) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  const opened: Opened = { type: 'opened', ready: viewers.filter((v) => v.ready).length, ms: nowMs() - started };
  process.send!(opened);
}

async function finish(order: FinishOrder): Promise<void> {
  const last = order.commits.at(-1)?.[0] ?? 0;
  const deadline = Date.now() + order.deadlineMs;
  while (viewers.some((v) => v.version < last) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (sweeper) clearInterval(sweeper);
  for (const viewer of viewers) viewer.close();
  const histogram = new Map<number, number>();
  let missed = 0;
  let incomplete = 0;
  for (const viewer of viewers) {
    const reached = viewer.reached;
    let i = 0;
    for (const [version, committedAt] of order.commits) {
      while (i < reached.length && reached[i]! < version) i += 2;
      if (i >= reached.length) {
        missed++;
        continue;
      }
      const ms = Math.max(0, Math.round(reached[i + 1]! - committedAt));
      histogram.set(ms, (histogram.get(ms) ?? 0) + 1);
    }
    if (viewer.version < last || viewer.broken) incomplete++;
  }
  const cpu = process.cpuUsage();
  const result: ViewersResult = {
    type: 'result',
    viewers: viewers.length,
    latencies: [...histogram],
    missed,
    incomplete,
    ...tally,
    cpuMs: (cpu.user + cpu.system) / 1000,
  };
  process.send!(result, () => process.exit(0));
}

process.on('message', (order: Order) => {
  if (order.type === 'open') void open(order);
  else void finish(order);
});
process.on('disconnect', () => process.exit(0));
