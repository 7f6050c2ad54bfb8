/**
 * A rolling restart of the site behind nginx (deploy/nginx.conf) under reads, writes, uploads and a live event
 * stream: each app process in turn is stopped (SIGTERM) and started again while the load runs, and no request may
 * fail, no event go missing, nothing acknowledged be lost. Used on one data folder (SQLite,
 * tests/server/nginx-front-door.test.ts) and on hosts that share only a PostgreSQL database
 * (tests/server/several-hosts.test.ts).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { and, count, eq, inArray } from 'drizzle-orm';
import { expect } from 'vitest';
import { art, reservations, userLikes, users } from '#drizzle/tables.ts';
import type { Db } from '#server/db.ts';
import { getDefaultTree } from '#server/services/tree/tree.ts';
import { artForm, validFields } from '../art-fixtures.ts';
import { openStream, type OpenStream, type SseEvent } from '../event-stream.ts';
import type { Nginx } from './nginx.ts';
import { encodeForm, signedInUsers, stopRealServer, writeHeaders, type RealServer } from './real-server.ts';
import { prepareWriteLoad } from './write-load.ts';

export interface RestartedSite {
  nginx: Nginx;
  db: Db;
  /** The app processes behind nginx, by index; `startApp(i)` starts process i again (and puts it in `apps`). */
  apps: RealServer[];
  startApp: (i: number) => Promise<unknown>;
  /** Names the site in the log line (the engine, the folders). */
  label: string;
}

/** Runs the load, restarts every app process in turn, and checks what every request and the stream saw. */
export async function rollingRestartUnderLoad(site: RestartedSite): Promise<void> {
  const { db } = site;
  const tree = (await getDefaultTree(db))!;
  // AVAILABLE squares and small pictures (the users are made here, with their ids).
  const { squares, images } = await prepareWriteLoad(db, { uploaders: 0, reservers: 0, images: 6 });
  const load = {
    uploaders: await signedInUsers(db, 3, 'uploader'),
    reservers: await signedInUsers(db, 30, 'reserver'),
    images,
  };
  const likers = await Promise.all((await signedInUsers(db, 2, 'liker')).map((user) => withToken(db, user)));
  const liked = await Promise.all((await signedInUsers(db, 40, 'liked')).map((user) => withToken(db, user)));
  const readSquare = squares.at(-1)!;

  const stream = followStream(site.nginx.url, `/api/tree/${tree.token}/events`);
  await stream.opened;

  const outcomes: { what: string; status: number; detail?: string }[] = [];
  /** Each uploader's last saved title, as acknowledged. */
  const lastTitles: string[] = [];
  let running = true;
  const through = async (what: string, route: string, init: RequestInit = {}) => {
    try {
      const res = await fetch(`${site.nginx.url}${route}`, init);
      const text = await res.text();
      outcomes.push({ what, status: res.status, ...(res.ok ? {} : { detail: text.slice(0, 200) }) });
      return res.status;
    } catch (error) {
      outcomes.push({ what, status: 0, detail: String(error) });
      return 0;
    }
  };
  /** Runs `step` every `everyMs` until the restarts are over, at most `max` times. */
  const paced = async (everyMs: number, max: number, step: (i: number) => Promise<unknown>) => {
    for (let i = 0; i < max && running; i++) {
      await step(i);
      await sleep(everyMs);
    }
  };
  const json = (cookie: string, method: string, body = '{}'): RequestInit => ({
    method,
    headers: { ...writeHeaders(cookie), 'content-type': 'application/json' },
    body,
  });
  const workers = [
    // Reads: a square and the tree's snapshot (the snapshot is mostly nginx's copy, a second old at most).
    ...[0, 1].map((r) =>
      paced(250, 120, async () => {
        await through('read cell', `/api/cell/${readSquare}`);
        await through('read tree', `/api/tree/${tree.token}${r ? '' : `?v=${tree.version}`}`);
      }),
    ),
    // Writes by signed-in users: likes, each a new pair.
    ...likers.map((liker) =>
      paced(400, liked.length, (i) =>
        through('like', `/api/user/${liker.token}/like/${liked[i]!.token}`, json(liker.cookie, 'PUT')),
      ),
    ),
    // Reservations, each a change of the tree.
    paced(500, load.reservers.length, (i) =>
      through(
        'reserve',
        `/api/cell/${squares[load.uploaders.length + i]}/reserve`,
        json(load.reservers[i]!.cookie, 'POST'),
      ),
    ),
    // Uploads: each uploader saves a piece on its own square, a new picture and title each time.
    ...load.uploaders.map((uploader, u) =>
      paced(900, 30, async (i) => {
        const title = `Restart ${u}.${i}`;
        const { body, contentType } = await encodeForm(
          artForm(validFields({ title }), [
            { bytes: load.images[(u + i) % load.images.length]!, name: 'art.png', type: 'image/png' },
          ]),
        );
        const status = await through('upload', `/api/cell/${squares[u]}`, {
          method: 'POST',
          headers: { ...writeHeaders(uploader.cookie), 'content-type': contentType },
          body: new Uint8Array(body),
        });
        if (status === 200) lastTitles[u] = title;
      }),
    ),
  ];

  const started = Date.now();
  await sleep(1500);
  const restarts: string[] = [];
  for (const i of [0, 1]) {
    const stopAt = Date.now();
    expect(await stopRealServer(site.apps[i]!, 'SIGTERM')).toBe(0);
    const stoppedAt = Date.now();
    await site.startApp(i);
    restarts.push(
      `process ${i + 1}: stopped in ${stoppedAt - stopAt} ms, up and healthy ${Date.now() - stoppedAt} ms later`,
    );
    // The next stop follows at once: with max_fails=0 nginx sends requests to a process from its first answer.
  }
  running = false;
  await Promise.all(workers);
  const tookMs = Date.now() - started;

  // The stream catches up with the last change, then every version it passed through is accounted for.
  const version = (await getDefaultTree(db))!.version;
  const deadline = Date.now() + 10_000;
  while (stream.lastId() !== version && Date.now() < deadline) await sleep(100);
  stream.stop();

  const failed = outcomes.filter((o) => o.status < 200 || o.status > 299);
  const retried = (await site.nginx.accessLog()).filter((line) => line.upstream_status.includes(','));
  const events = stream.events();
  console.log(
    `${site.label}, rolling restart: ${outcomes.length} requests in ${tookMs} ms (${JSON.stringify(
      tally(outcomes.map((o) => o.what)),
    )}), ${failed.length} failed; nginx sent ${retried.length} on to the other process ` +
      `(${JSON.stringify(tally(retried.map((line) => line.upstream_status)))}); the stream: ${events.length} events ` +
      `over ${stream.connections()} connections, versions ${tree.version} → ${version}; ${restarts.join('; ')}`,
  );

  expect(failed).toEqual([]);
  expect(stream.refusals()).toEqual([]);
  // Under load: requests reached a stopping process (503) or a stopped one (refused), and went to the other.
  expect(retried.length).toBeGreaterThan(0);
  expect(outcomes.length).toBeGreaterThan(100);
  // The stream was ended by the process holding it and came back through nginx to the other.
  expect(stream.connections()).toBeGreaterThanOrEqual(2);
  expect(stream.lastId()).toBe(version);
  expect(gaps(events)).toEqual([]);

  // What was acknowledged is there: every reservation, every like, each uploader's last save.
  const acknowledged = (what: string) => outcomes.filter((o) => o.what === what).length;
  const [reserved] = await db
    .select({ n: count() })
    .from(reservations)
    .where(
      and(
        inArray(
          reservations.userId,
          load.reservers.map((r) => r.id),
        ),
        eq(reservations.state, 'active'),
      ),
    );
  expect(reserved!.n).toBe(acknowledged('reserve'));
  const [likes] = await db
    .select({ n: count() })
    .from(userLikes)
    .where(
      inArray(
        userLikes.userId,
        likers.map((l) => l.id),
      ),
    );
  expect(likes!.n).toBe(acknowledged('like'));
  const stored = await Promise.all(
    load.uploaders.map((u) => db.select({ title: art.title }).from(art).where(eq(art.authorId, u.id))),
  );
  expect(stored).toEqual(lastTitles.map((title) => [{ title }]));
  expect(acknowledged('upload')).toBeGreaterThan(load.uploaders.length);
}

/** A user as `signedInUsers` gives it, with the account's token (the user paths name it). */
async function withToken(
  db: Db,
  user: { id: number; cookie: string },
): Promise<{ id: number; cookie: string; token: string }> {
  const [row] = await db.select({ token: users.token }).from(users).where(eq(users.id, user.id));
  return { ...user, token: row!.token };
}

/** How many times each value occurs. */
export function tally(values: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}

/**
 * The live tree's event stream followed as a browser's EventSource follows it: when it ends (its process stopped),
 * it is opened again at once with Last-Event-ID, through nginx. Answers other than 200 are kept as refusals.
 */
function followStream(base: string, route: string) {
  const done: SseEvent[] = [];
  const refused: string[] = [];
  let current: OpenStream | null = null;
  let lastId: string | null = null;
  let connections = 0;
  let stopped = false;
  let markOpened: () => void;
  const opened = new Promise<void>((resolve) => (markOpened = resolve));
  const loop = async () => {
    while (!stopped) {
      let stream: OpenStream;
      try {
        stream = await openStream(base, route, lastId === null ? {} : { 'last-event-id': lastId });
      } catch (error) {
        refused.push(String(error));
        await sleep(100);
        continue;
      }
      if (stream.status !== 200) {
        refused.push(`${stream.status} ${stream.body.slice(0, 200)}`);
        stream.close();
        await sleep(100);
        continue;
      }
      connections++;
      current = stream;
      markOpened();
      await stream.ended;
      current = null;
      done.push(...stream.events);
      lastId = stream.events.findLast((e) => e.id !== null)?.id ?? lastId;
    }
  };
  void loop();
  return {
    opened,
    events: () => [...done, ...(current?.events ?? [])],
    lastId: () => {
      const id = [...done, ...(current?.events ?? [])].findLast((e) => e.id !== null)?.id ?? lastId;
      return id === null ? null : Number(id);
    },
    connections: () => connections,
    refusals: () => refused,
    stop: () => {
      stopped = true;
      current?.close();
    },
  };
}

/**
 * Where a stream's versions do not follow on: each event after the first must start where the one before ended
 * (its `since` is the previous id), and none may be a resync (the stream lost track).
 */
function gaps(events: readonly SseEvent[]): string[] {
  const found: string[] = [];
  let previous: number | null = null;
  for (const event of events) {
    const id = Number(event.id);
    const data = JSON.parse(event.data) as { since?: number };
    if (event.event === 'resync') found.push(`resync at ${id}`);
    else if (previous !== null && data.since !== previous) found.push(`${previous} → ${data.since ?? '?'}..${id}`);
    previous = id;
  }
  return found;
}
