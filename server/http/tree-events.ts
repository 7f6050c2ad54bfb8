/**
 * GET /api/tree/{treeToken}/events, a tree's changes as Server-Sent Events (decision 023): `changes` when small (the
 * /changes answer less what the id says), `version` when large (fetch /changes?since=), `resync` (fetch the snapshot).
 * Each id is the version it brings the tree to, so a reconnection's Last-Event-ID resumes where it was. The same look
 * at the log answers the held long-polls of /changes?wait= (tree-long-poll.ts).
 */
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode } from '#shared/errors.ts';
import { toChangesEvent, type TreeChangesAnswer } from '#shared/tree/changes.ts';
import type { Db } from '../db.ts';
import { AppError } from '../errors.ts';
import { networkOf } from '../services/network.ts';
import type { MediaUrlOf } from '../storage/index.ts';
import { lastChangeSeq, parseSince, readChanges, readChangesUpTo, treesChangedAfter } from '../services/tree/index.ts';
import type { ChangesOverLimit, TreeRow } from '../services/tree/index.ts';
import { TreeLongPolls } from './tree-long-poll.ts';

/**
 * How often the feed reads the change log's last sequence number (one indexed read, whoever wrote: this process or
 * another); each tree's changes are then read once and the same message written to every stream of that tree.
 */
export const WATCH_MS = 100;
/** A comment line this often keeps proxies from closing an idle stream. */
export const HEARTBEAT_MS = 20_000;
/**
 * Streams one address may hold (a few tabs), and the whole server. An IPv6 address counts by its /64 (decision 040),
 * so no one network holds more than STREAMS_PER_IP of the total, whatever addresses it picks.
 */
export const STREAMS_PER_IP = 8;
export const STREAMS_TOTAL = 5_000;
/** Long-polls the whole server holds, unless the config says otherwise (LONG_POLLS_MAX). */
export const LONG_POLLS_TOTAL = 5_000;
/** Changes of at most this many cells ride in the event itself; more are fetched from /changes. */
export const EVENT_CELLS_MAX = 256;
/** A stream whose reader has fallen this far behind is closed (it reconnects and resumes from its last version). */
const SLOW_READER_BYTES = 1 << 20;

interface Stream {
  treeId: number;
  /** The network it was opened from (networkOf), what STREAMS_PER_IP counts by. */
  network: string;
  /** The version this stream's reader has been brought to. */
  version: number;
  raw: ServerResponse;
  /**
   * The connection, written to directly: an event goes out to hundreds of streams at once, and Node's response
   * object would frame, cork and copy it again for each (decision 023). The response only ends the stream.
   */
  socket: Socket;
  /** Whether the response uses chunked encoding (HTTP/1.1; not for an HTTP/1.0 reader): each event is one chunk. */
  chunked: boolean;
}

/** One message's bytes, built once for all its streams: as an HTTP/1.1 chunk and as plain bytes. */
class Outgoing {
  private plainBytes: Buffer | null = null;
  private chunkBytes: Buffer | null = null;

  constructor(private readonly text: string) {}

  for(stream: Stream): Buffer {
    this.plainBytes ??= Buffer.from(this.text);
    if (!stream.chunked) return this.plainBytes;
    this.chunkBytes ??= Buffer.concat([
      Buffer.from(`${this.plainBytes.length.toString(16)}\r\n`),
      this.plainBytes,
      CRLF,
    ]);
    return this.chunkBytes;
  }
}

const CRLF = Buffer.from('\r\n');

export interface FeedOptions {
  watchMs?: number;
  heartbeatMs?: number;
  perIp?: number;
  total?: number;
  /** Held long-polls, the whole server. */
  longPolls?: number;
  /** Where the changes' thumbnails are (the media storage's addresses); the server's own /media/ by default. */
  urlOf?: MediaUrlOf;
}

export class TreeEventFeed {
  private readonly streams = new Set<Stream>();
  /** Streams held per network (networkOf). */
  private readonly perIp = new Map<string, number>();
  private seen = 0;
  /** The look at the log under way, and the one asked for meanwhile (poll). */
  private looking: Promise<void> | null = null;
  private nextLook: Promise<void> | null = null;
  private readonly watch: NodeJS.Timeout;
  private readonly heartbeat: NodeJS.Timeout;
  private closed = false;
  /** Whether the last look failed (watchLog logs an outage once). */
  private unreadable = false;
  /** The held long-polls of /changes?wait=, answered by the same look at the log as the streams. */
  readonly longPolls: TreeLongPolls;
  /** Messages written (the benchmark reads it). */
  sent = 0;
  /**
   * CPU milliseconds the looks that found changes took, the writes to the streams included (the benchmark reads
   * it: what following costs per change). The process's CPU time, read around work on the event loop.
   */
  workMs = 0;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    private readonly options: FeedOptions = {},
  ) {
    // Read at once (the read is synchronous inside), taken when its promise settles: before any look at the log.
    void lastChangeSeq(db).then(
      (seq) => {
        this.seen = seq;
      },
      (error: unknown) => log.warn({ err: error }, 'the change log could not be read'),
    );
    this.longPolls = new TreeLongPolls(options.longPolls ?? LONG_POLLS_TOTAL);
    this.watch = setInterval(() => void this.watchLog(), options.watchMs ?? WATCH_MS);
    this.heartbeat = setInterval(() => this.beat(), options.heartbeatMs ?? HEARTBEAT_MS);
    this.watch.unref();
    this.heartbeat.unref();
  }

  get streamCount(): number {
    return this.streams.size;
  }

  /**
   * Opens a stream for `tree`, resuming after Last-Event-ID (or ?since=) when given. The catch-up reads cells only
   * when it fits in an event: further behind, one indexed count decides on the `version` event (decision 040).
   */
  async open(
    req: FastifyRequest<{ Querystring: Record<string, unknown> }>,
    reply: FastifyReply,
    tree: TreeRow,
  ): Promise<void> {
    const resumeFrom = req.headers['last-event-id'] ?? req.query.since;
    const since = resumeFrom === undefined ? null : parseSince(resumeFrom);
    this.refuseWhenClosed();
    const network = networkOf(req.ip);
    const held = this.perIp.get(network) ?? 0;
    if (held >= (this.options.perIp ?? STREAMS_PER_IP)) {
      throw new AppError(
        ErrorCode.RateLimited,
        'Too many live trees are open from this address. Close a tab and try again.',
      );
    }
    if (this.streams.size >= (this.options.total ?? STREAMS_TOTAL)) {
      throw new AppError(
        ErrorCode.RateLimited,
        'The server is following as many live trees as it can. Try again in a minute.',
      );
    }
    const first =
      since === null ? null : await readChangesUpTo(this.db, tree.id, since, EVENT_CELLS_MAX, this.options.urlOf);
    // The feed may have closed while that was read: a stream joining after it would never be ended, and the server's
    // stop would wait for it for good.
    this.refuseWhenClosed();

    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      // Proxies that buffer (nginx) pass the stream through at once.
      'x-accel-buffering': 'no',
    });
    raw.flushHeaders();
    const stream: Stream = {
      treeId: tree.id,
      network,
      // Resuming, the reader is where it says until `first` brings it on.
      version: since ?? tree.version,
      raw,
      socket: raw.socket!,
      chunked: raw.chunkedEncoding,
    };
    this.streams.add(stream);
    this.perIp.set(network, held + 1);
    raw.on('close', () => this.drop(stream));
    stream.socket.setNoDelay(true);
    // The reconnection delay a browser waits after a break, then where this stream starts.
    this.write(stream, new Outgoing(`retry: 3000\n`));
    if (first) this.deliver([stream], first);
    else this.write(stream, new Outgoing(message('version', tree.version, { version: tree.version })));
    void this.catchUp(stream);
  }

  private refuseWhenClosed(): void {
    if (this.closed) throw new AppError(ErrorCode.RateLimited, 'The server is stopping. Try again in a moment.');
  }

  /**
   * Holds a long-poll of `treeId` after `since` (TreeLongPolls.hold), once it has read again what came after `since`:
   * the caller read the log a moment before, and a look that ran meanwhile may have counted a change of that moment
   * as seen with no poll to answer (as for a joining stream, catchUp); the poll would then have waited out its wait.
   * Resolves as hold does, or at once with what that read found.
   */
  async holdPoll(treeId: number, since: number, ms: number, signal: AbortSignal): Promise<TreeChangesAnswer | null> {
    const found = new AbortController();
    const held = this.longPolls.hold(treeId, since, ms, AbortSignal.any([signal, found.signal]));
    let now: TreeChangesAnswer;
    try {
      now = await readChanges(this.db, treeId, since, this.options.urlOf);
    } catch (error) {
      found.abort();
      throw error;
    }
    if (now.version === since) return held;
    found.abort();
    await held;
    return now;
  }

  /**
   * A new stream's own look at its tree. Its version was read a moment before it joined, and a look at the log that
   * ran meanwhile may have counted a change made in that moment as seen without this stream to send it to (on
   * PostgreSQL, where every read waits for the network, a viewer's first change was lost so): whatever came after
   * the stream's version is read for it once, and sent unless a look got there first.
   */
  private async catchUp(stream: Stream): Promise<void> {
    try {
      const answer = await readChangesUpTo(this.db, stream.treeId, stream.version, EVENT_CELLS_MAX, this.options.urlOf);
      if (this.streams.has(stream)) this.deliver([stream], answer);
    } catch (error) {
      this.log.warn({ err: error, treeId: stream.treeId }, 'tree changes could not be read for a new live viewer');
    }
  }

  /**
   * Ends every stream (at shutdown): each reader is told to come back, and does once the server is up again. Held
   * long-polls are answered at once with what the log holds.
   */
  close(): void {
    this.closed = true;
    clearInterval(this.watch);
    clearInterval(this.heartbeat);
    for (const stream of this.streams) stream.raw.end();
    this.streams.clear();
    this.perIp.clear();
    this.longPolls.close();
  }

  /**
   * One look at the log: trees that moved since the last look get their changes sent to their streams and their held
   * long-polls. Looks never overlap: while one waits for the database (PostgreSQL's reads are a network away, and a
   * look can outlast the watch's interval), a second would group the same streams at the same version and send them
   * the same changes again. A poll asked meanwhile runs once the running look is done (one at most waits).
   */
  poll(): Promise<void> {
    if (!this.looking) {
      this.looking = this.look().finally(() => (this.looking = null));
      return this.looking;
    }
    this.nextLook ??= this.looking
      .catch(() => {})
      .then(() => {
        this.nextLook = null;
        return this.poll();
      });
    return this.nextLook;
  }

  /**
   * The watch's look: a database that stops answering (a PostgreSQL restart, a network break) is logged once while
   * it lasts, and the streams simply wait; the first look that succeeds again sends what they missed.
   */
  private async watchLog(): Promise<void> {
    try {
      await this.poll();
      if (this.unreadable) this.log.info('the change log can be read again');
      this.unreadable = false;
    } catch (error) {
      if (!this.unreadable)
        this.log.warn({ err: error }, 'the change log could not be read; the streams wait until it can');
      this.unreadable = true;
    }
  }

  private async look(): Promise<void> {
    if (this.closed || (this.streams.size === 0 && this.longPolls.size === 0)) {
      if (!this.closed) this.seen = await lastChangeSeq(this.db);
      return;
    }
    const latest = await lastChangeSeq(this.db);
    if (latest === this.seen) return;
    const started = process.cpuUsage();
    try {
      await this.sendChanges(latest);
    } finally {
      // A response's writes reach its socket on the next tick (Node corks them until then): this tick, queued
      // after theirs, measures them too.
      process.nextTick(() => {
        const used = process.cpuUsage(started);
        this.workMs += (used.user + used.system) / 1000;
      });
    }
  }

  private async sendChanges(latest: number): Promise<void> {
    const moved = await treesChangedAfter(this.db, this.seen);
    this.seen = latest;
    for (const tree of moved) {
      // Streams and polls of one tree are nearly always at one version: the changes are read once per version.
      const byVersion = new Map<number, Stream[]>();
      for (const stream of this.streams) {
        if (stream.treeId !== tree.id || stream.version >= tree.version) continue;
        const group = byVersion.get(stream.version);
        if (group) group.push(stream);
        else byVersion.set(stream.version, [stream]);
      }
      const polled = new Set(this.longPolls.behind(tree.id, tree.version));
      for (const since of polled) {
        if (!byVersion.has(since)) byVersion.set(since, []);
      }
      for (const [since, group] of byVersion) {
        let answer: TreeChangesAnswer | null = null;
        try {
          // A held poll needs the cells; streams alone need them only when they fit in an event.
          if (polled.has(since)) answer = await readChanges(this.db, tree.id, since, this.options.urlOf);
          const forStreams =
            answer ?? (await readChangesUpTo(this.db, tree.id, since, EVENT_CELLS_MAX, this.options.urlOf));
          if (group.length > 0) this.deliver(group, forStreams);
        } catch (error) {
          this.log.warn({ err: error, treeId: tree.id }, 'tree changes could not be read for live viewers');
        }
        // Without an answer, each poll reads the log itself (and answers the error it meets).
        if (polled.has(since)) this.longPolls.answer(tree.id, since, answer);
      }
    }
  }

  private deliver(group: Stream[], answer: TreeChangesAnswer | ChangesOverLimit): void {
    let text: string;
    if ('overLimit' in answer)
      text = message('version', answer.version, { version: answer.version, since: answer.since });
    else if (answer.resync) text = message('resync', answer.version, { version: answer.version });
    else if (answer.count === 0) return;
    else if (answer.count <= EVENT_CELLS_MAX) text = message('changes', answer.version, toChangesEvent(answer));
    else text = message('version', answer.version, { version: answer.version, since: answer.since });
    const outgoing = new Outgoing(text);
    for (const stream of group) {
      // Read for a stream at answer.since: one another look brought on meanwhile has had it already.
      if (stream.version !== answer.since) continue;
      stream.version = answer.version;
      this.write(stream, outgoing);
    }
  }

  private beat(): void {
    const ping = new Outgoing(': ping\n\n');
    for (const stream of this.streams) this.write(stream, ping);
  }

  private write(stream: Stream, outgoing: Outgoing): void {
    // Never past the response's end: a look that was reading when the feed closed still holds its streams, and on a
    // connection kept open (a proxy's to the app) those bytes would come before the next answer's status line.
    if (stream.raw.writableEnded || stream.socket.destroyed) return;
    if (stream.socket.writableLength > SLOW_READER_BYTES) {
      stream.socket.destroy();
      return;
    }
    stream.socket.write(outgoing.for(stream));
    this.sent++;
  }

  private drop(stream: Stream): void {
    if (!this.streams.delete(stream)) return;
    const held = (this.perIp.get(stream.network) ?? 1) - 1;
    if (held > 0) this.perIp.set(stream.network, held);
    else this.perIp.delete(stream.network);
  }
}

function message(event: string, id: number, data: unknown): string {
  return `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}
