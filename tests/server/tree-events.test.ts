/**
 * GET /api/tree/{token}/events over real HTTP: a change reaches an open stream as soon as its transaction
 * commits, with the version as the event's id; a stream resumes from Last-Event-ID across a server restart and misses
 * nothing; an address holding too many streams gets 429; stopping the server ends every stream cleanly, and nothing
 * follows a stream's end on its connection.
 */
import fs from 'node:fs';
import net from 'node:net';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { cells, trees, users } from '#drizzle/tables.ts';
import { CellStatus, Role } from '#shared/domain.ts';
import { fromChangesEvent, type TreeChangesEvent } from '#shared/tree/changes.ts';
import { buildApp, type App } from '#server/app.ts';
import { closeAppDatabase } from '#server/open-database.ts';
import { manualClock } from '#server/clock.ts';
import { testConfig } from '#server/config.ts';
import { STREAMS_PER_IP, TreeEventFeed } from '#server/http/tree-events.ts';
import { reserveCell } from '#server/services/reservations/reservations.ts';
import { createTree, type TreeRow } from '#server/services/tree/tree.ts';
import { newToken } from '#server/tokens.ts';
import { readChanges, recordBulkChange, recordCellChanges } from '#server/services/tree/tree-changes.ts';
import { createTestApp, tempDir, type TestApp } from '#tests/helpers/server/test-app.ts';
import { openStream, type OpenStream } from '../helpers/event-stream.ts';
import { oneRow } from '#tests/helpers/server/rows.ts';
import { publishedPieceAt } from '#tests/helpers/art-fixtures.ts';

const apps: App[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const app of apps) await app.stop().catch(() => {});
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

async function availableCell(app: App, tree: TreeRow): Promise<string> {
  return (
    await app.deps.db
      .select({ token: cells.token })
      .from(cells)
      .where(and(eq(cells.treeId, tree.id), eq(cells.status, CellStatus.Available)))
      .limit(1)
  )[0]!.token;
}

/** A test app listening on a free port with a tree of its own, stopped after the file. */
async function appWithTree(name: string): Promise<{ t: TestApp; tree: TreeRow }> {
  const t = await createTestApp({ port: 0 });
  apps.push(t);
  dirs.push(t.dir);
  return { t, tree: await createTree(t.deps.db, t.clock.now(), name) };
}

async function versionOf(app: App, tree: TreeRow): Promise<number> {
  return (await oneRow(app.deps.db.select({ version: trees.version }).from(trees).where(eq(trees.id, tree.id))))
    .version;
}

/** A server whose one route opens a stream of `feed` for `tree` as read at the time, as the events route hands it. */
async function serveFeed(feed: TreeEventFeed, tree: TreeRow): Promise<{ server: FastifyInstance; base: string }> {
  const server = Fastify();
  server.get('/events', async (req, reply) => {
    await feed.open(req as FastifyRequest<{ Querystring: Record<string, unknown> }>, reply, tree);
    return reply;
  });
  return { server, base: await server.listen({ port: 0, host: '127.0.0.1' }) };
}

/**
 * A feed that looks only when asked and closes, once `closeOnRead()` was called, when it reads a changed piece's
 * picture: the moment a server stops, in the middle of a read of the log.
 */
function feedClosingOnRead(t: TestApp): { feed: TreeEventFeed; closeOnRead: () => void } {
  let armed = false;
  const feed: TreeEventFeed = new TreeEventFeed(t.deps.db, t.server.log, {
    watchMs: 3_600_000,
    urlOf: (name) => {
      if (armed) feed.close();
      return `/media/${name}`;
    },
  });
  return { feed, closeOnRead: () => (armed = true) };
}

/** Publishes a piece with a picture on an available square of `tree`, and logs the change. */
async function publishChange(t: TestApp, tree: TreeRow, mediaKey: string): Promise<void> {
  const member = await t.addUser(Role.Artist);
  const token = await availableCell(t, tree);
  const cell = await oneRow(t.deps.db.select().from(cells).where(eq(cells.token, token)));
  await publishedPieceAt(t.deps.db, tree.id, cell.row, cell.column, member.user.id, mediaKey);
  await recordCellChanges(t.deps.db, tree.id, [cell.id], t.clock.now());
}

describe('the tree event stream', () => {
  let t: TestApp;
  let base: string;
  let tree: TreeRow;

  it('sends a change as it commits: the cells in the event, the new version as its id', async () => {
    ({ t, tree } = await appWithTree('Live'));
    base = await t.start();
    const since = await versionOf(t, tree);
    const stream = await openStream(base, `/api/tree/${tree.token}/events?since=${since}`);
    expect(stream.status).toBe(200);
    // Nothing changed yet: nothing is sent but the reconnection delay.
    await new Promise((wait) => setTimeout(wait, 300));
    expect(stream.events).toEqual([]);
    expect(stream.body).toContain('retry: ');

    const member = await t.addUser(Role.Observer);
    const committed = Date.now();
    await reserveCell(t.deps, member.user, await availableCell(t, tree));
    const event = await stream.next();
    const latency = Date.now() - committed;
    expect(event.event).toBe('changes');
    expect(Number(event.id)).toBe(await versionOf(t, tree));
    const changes = fromChangesEvent(Number(event.id), JSON.parse(event.data) as TreeChangesEvent);
    expect(changes).toEqual(await readChanges(t.deps.db, tree.id, since));
    // What the id says is not said again: a one-square change stays small on the wire.
    expect(event.data).not.toMatch(/"version"|"format"|"resync"/);
    expect(changes).toMatchObject({ count: 1, status: String(CellStatus.Reserved) });
    // How soon is the benchmark's question (npm run bench:live); here only that it came, and what it said.
    console.log(`tree events: commit → event ${latency} ms`);
    stream.close();
  });

  it('sends a change once, though two looks at the log are asked at the same moment', async () => {
    // A feed that looks only when asked: two looks at once, as when one outlasts the watch's interval (a database a
    // network away), must not both send the change.
    t.deps.treeEvents?.close();
    const feed = new TreeEventFeed(t.deps.db, t.server.log, { watchMs: 3_600_000 });
    t.deps.treeEvents = feed;
    try {
      await feed.poll();
      const since = await versionOf(t, tree);
      const stream = await openStream(base, `/api/tree/${tree.token}/events?since=${since}`);
      const member = await t.addUser(Role.Observer);
      await reserveCell(t.deps, member.user, await availableCell(t, tree));
      await Promise.all([feed.poll(), feed.poll()]);
      await feed.poll();
      await new Promise((wait) => setTimeout(wait, 200));
      expect(stream.events.map((event) => `${event.event} ${event.id}`)).toEqual([`changes ${since + 1}`]);
      stream.close();
    } finally {
      feed.close();
      t.deps.treeEvents = new TreeEventFeed(t.deps.db, t.server.log);
    }
  });

  it('tells a stream whose version the log no longer reaches to fetch the snapshot again', async () => {
    const stream = await openStream(base, `/api/tree/${tree.token}/events?since=${await versionOf(t, tree)}`);
    await recordBulkChange(t.deps.db, tree.id, t.clock.now());
    const event = await stream.next();
    expect(event).toMatchObject({ event: 'resync', id: String(await versionOf(t, tree)) });
    stream.close();
    // A stream asked from before the bulk change is told at once.
    const late = await openStream(base, `/api/tree/${tree.token}/events?since=1`);
    expect(await late.next()).toMatchObject({ event: 'resync' });
    late.close();
  });

  it('refuses a bad since and an unknown tree in the envelope', async () => {
    const bad = await openStream(base, `/api/tree/${tree.token}/events?since=-4`);
    expect(bad.status).toBe(400);
    await bad.ended;
    expect(JSON.parse(bad.body).r.error).toBe('bad_request');
    const unknown = await openStream(base, `/api/tree/${'z'.repeat(22)}/events`);
    expect(unknown.status).toBe(404);
  });

  it(`holds at most ${STREAMS_PER_IP} streams per address: the next gets 429, and a closed one frees its place`, async () => {
    const open: OpenStream[] = [];
    for (let i = 0; i < STREAMS_PER_IP; i++) {
      const stream = await openStream(base, `/api/tree/${tree.token}/events`);
      expect(stream.status).toBe(200);
      open.push(stream);
    }
    const refused = await openStream(base, `/api/tree/${tree.token}/events`);
    expect(refused.status).toBe(429);
    await refused.ended;
    expect(JSON.parse(refused.body).r.error).toBe('rate_limited');
    open.pop()!.close();
    await new Promise((wait) => setTimeout(wait, 100));
    const again = await openStream(base, `/api/tree/${tree.token}/events`);
    expect(again.status).toBe(200);
    for (const stream of [...open, again]) stream.close();
  });
});

describe('a stream joining as a change is counted', () => {
  it('still gets a change made after its tree was read and counted as seen before it joined', async () => {
    // The moment between the route reading the tree and the stream joining, held open: a change commits in it and a
    // look at the log counts it as seen while no stream wants it (on PostgreSQL every read there waits on the
    // network, and a viewer's first change was lost so). The feed looks only when asked.
    const { t, tree } = await appWithTree('Joining');
    const feed = new TreeEventFeed(t.deps.db, t.server.log, { watchMs: 3_600_000 });
    const readBefore = await oneRow(t.deps.db.select().from(trees).where(eq(trees.id, tree.id)));
    const member = await t.addUser(Role.Observer);
    await reserveCell(t.deps, member.user, await availableCell(t, tree));
    await feed.poll();
    // The stream joins with the tree as read before the change, as the route hands it over.
    const { server: joining, base } = await serveFeed(feed, readBefore);
    const stream = await openStream(base, '/events');
    try {
      expect((await stream.next()).event).toBe('version');
      const event = await stream.next();
      expect(event).toMatchObject({ event: 'changes', id: String(await versionOf(t, tree)) });
      expect(fromChangesEvent(Number(event.id), JSON.parse(event.data) as TreeChangesEvent)).toEqual(
        await readChanges(t.deps.db, tree.id, readBefore.version),
      );
      // Once: later looks do not send it again.
      await feed.poll();
      await new Promise((wait) => setTimeout(wait, 200));
      expect(stream.events.filter((e) => e.event === 'changes')).toHaveLength(1);
    } finally {
      stream.close();
      feed.close();
      await joining.close();
    }
  });
});

describe('a feed that closes while a look is reading', () => {
  it('writes nothing into a connection after its stream has ended', async () => {
    // A look reads a change, and the server stops meanwhile, ending every stream: what the look read must not follow
    // the stream's last chunk, where the connection's next answer begins. Behind a proxy that keeps its connections
    // to the app, the next viewer sent along it was handed those bytes as an answer with no status line.
    const { t, tree } = await appWithTree('Closing');
    const { feed, closeOnRead } = feedClosingOnRead(t);
    await feed.poll();
    const current = await oneRow(t.deps.db.select().from(trees).where(eq(trees.id, tree.id)));
    const { server, base } = await serveFeed(feed, current);
    // The connection's bytes as they arrive, the HTTP framing included.
    const socket = net.connect(Number(new URL(base).port), '127.0.0.1');
    let received = '';
    socket.setEncoding('latin1').on('data', (chunk: string) => (received += chunk));
    socket.write('GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n');
    try {
      await expect.poll(() => received).toContain('event: version');
      await publishChange(t, tree, 'closingkey');
      // The look reads the change, and the feed closes before it sends it.
      closeOnRead();
      await feed.poll();
      await new Promise((wait) => setTimeout(wait, 200));
      const lastChunk = received.indexOf('\r\n0\r\n\r\n');
      expect(lastChunk, received).toBeGreaterThan(0);
      expect(received.slice(lastChunk + '\r\n0\r\n\r\n'.length)).toBe('');
    } finally {
      socket.destroy();
      feed.close();
      await server.close();
    }
  });
});

describe('a feed that closes while a stream is joining', () => {
  it('refuses the stream instead of holding it open past the stop', async () => {
    // A viewer comes back with Last-Event-ID as the server stops: the feed closes while the stream's catch-up is read.
    // Joined after the close, the stream was never ended, and the server's stop waited for its connection for good.
    const { t, tree } = await appWithTree('Joining late');
    const { feed, closeOnRead } = feedClosingOnRead(t);
    const since = await versionOf(t, tree);
    await publishChange(t, tree, 'joiningkey');
    const current = await oneRow(t.deps.db.select().from(trees).where(eq(trees.id, tree.id)));
    const { server, base } = await serveFeed(feed, current);
    // The stream's catch-up reads the change, and the feed closes before the stream joins.
    closeOnRead();
    const stream = await openStream(base, '/events', { 'last-event-id': String(since) });
    try {
      expect(stream.status).not.toBe(200);
      await stream.ended;
      expect(stream.body).toContain('The server is stopping');
      expect(feed.streamCount).toBe(0);
    } finally {
      stream.close();
      feed.close();
      await server.close();
    }
  });
});

describe('the streams a whole server holds', () => {
  it('are capped too: past the total, 429 whatever the address', async () => {
    const { t, tree } = await appWithTree('Crowded');
    t.deps.treeEvents?.close();
    t.deps.treeEvents = new TreeEventFeed(t.deps.db, t.server.log, { total: 2, perIp: 10 });
    const base = await t.start();
    const held = [
      await openStream(base, `/api/tree/${tree.token}/events`),
      await openStream(base, `/api/tree/${tree.token}/events`),
    ];
    expect(held.map((s) => s.status)).toEqual([200, 200]);
    const refused = await openStream(base, `/api/tree/${tree.token}/events`);
    expect(refused.status).toBe(429);
    await refused.ended;
    expect(JSON.parse(refused.body).r).toMatchObject({
      error: 'rate_limited',
      message: expect.stringContaining('as many live trees as it can'),
    });
    for (const stream of held) stream.close();
  });
});

describe('across a server restart', () => {
  it('ends the streams cleanly on stop, and a reconnection with Last-Event-ID gets what it missed', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const clock = manualClock(Date.UTC(2026, 5, 1, 12));
    const config = testConfig(dir, { port: 0 });
    const first = await buildApp(config, { clock });
    const tree = await createTree(first.deps.db, clock.now(), 'Restarted');
    const base = await first.start();
    const stream = await openStream(base, `/api/tree/${tree.token}/events?since=${await versionOf(first, tree)}`);
    /** A new member, straight into the users table (the second app is not a test app with addUser). */
    const reserver = async (app: App) => {
      const now = clock.now();
      return (
        await app.deps.db
          .insert(users)
          .values({
            token: newToken(),
            email: `${newToken(6)}@example.test`,
            passwordHash: 'unusable',
            firstname: 'A',
            lastname: 'B',
            role: Role.Observer,
            createdAt: now,
            updatedAt: now,
          })
          .returning()
      )[0]!;
    };
    await reserveCell(first.deps, await reserver(first), await availableCell(first, tree));
    const seen = await stream.next();
    expect(seen.event).toBe('changes');

    // Stopping ends the stream (it does not hold the shutdown up).
    const stopping = first.stop();
    await stream.ended;
    await stopping;

    // While the server is down nothing can change; right after it is back, a change is made before the viewer returns.
    const second = await buildApp(config, { clock });
    apps.push(second);
    await reserveCell(second.deps, await reserver(second), await availableCell(second, tree));
    const back = await second.start();
    const resumed = await openStream(back, `/api/tree/${tree.token}/events`, { 'last-event-id': seen.id! });
    const missed = await resumed.next();
    expect(missed.event).toBe('changes');
    expect(Number(missed.id)).toBe(await versionOf(second, tree));
    const caughtUp = fromChangesEvent(Number(missed.id), JSON.parse(missed.data) as TreeChangesEvent);
    expect(caughtUp).toEqual(await readChanges(second.deps.db, tree.id, Number(seen.id)));
    expect(caughtUp.count).toBe(1);
    resumed.close();
  });
});

describe('a database that stops answering', () => {
  it('is logged once while it lasts, and never ends the process with an unhandled rejection', async () => {
    const t = await createTestApp();
    apps.push(t);
    dirs.push(t.dir);
    const warnings: string[] = [];
    const log = t.server.log.child({});
    log.warn = ((_details: unknown, text?: string) => void warnings.push(String(text))) as typeof log.warn;
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    const feed = new TreeEventFeed(t.deps.db, log, { watchMs: 10 });
    try {
      await feed.poll();
      await closeAppDatabase(t.deps.db);
      // Many looks at the log while the database is gone: each fails, none may go unhandled.
      await new Promise((wait) => setTimeout(wait, 300));
      expect(unhandled).toEqual([]);
      expect(warnings).toEqual(['the change log could not be read; the streams wait until it can']);
    } finally {
      feed.close();
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
