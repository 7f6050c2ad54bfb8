/**
 * The live tree through a shared cache (decision 033), over real HTTP on a real database: the long-poll
 * GET /api/tree/{token}/changes?since=&wait= answers at once when the log is past `since`, holds until the first
 * commit otherwise (or answers "nothing new" after the wait, never to be kept), gives every viewer the same bytes
 * and headers and no cookie, refuses bad input with 400 and a full server with 503, and lets go at shutdown. Then the
 * answers fixed by version: the snapshot, the history and the regions at `?v=` are immutable, the others short-lived.
 */
import fs from 'node:fs';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { cells, trees } from '#drizzle/tables.ts';
import { CellStatus, Role } from '#shared/domain.ts';
import type { TreeChangesAnswer } from '#shared/tree/changes.ts';
import type { TreeRegionWire } from '#shared/tree/region.ts';
import { TreeEventFeed } from '#server/http/tree-events.ts';
import { FULL_RETRY_SECONDS, WAIT_MAX_SECONDS } from '#server/http/tree-long-poll.ts';
import { CACHE_CHANGES, CACHE_CURRENT, CACHE_IMMUTABLE, CACHE_NEVER } from '#server/rest/tree-routes.ts';
import { readChanges } from '#server/services/tree/tree-changes.ts';
import { createTree, type TreeRow } from '#server/services/tree/tree.ts';
import { publishedPieceAt } from '#tests/helpers/art-fixtures.ts';
import { createTestApp, type TestApp } from '#tests/helpers/server/test-app.ts';
import { oneRow } from '#tests/helpers/server/rows.ts';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** Milliseconds from asking to the whole answer. */
  ms: number;
}

/** One GET on a connection of its own, as a viewer's browser or a cache would send it; the raw bytes kept. */
function get(base: string, address: string, headers: Record<string, string> = {}, signal?: AbortSignal) {
  const started = performance.now();
  return new Promise<Answer>((resolve, reject) => {
    const req = http.get(new URL(address, base), { headers, signal, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode!,
          headers: res.headers,
          body: Buffer.concat(chunks),
          ms: performance.now() - started,
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

const json = (answer: Answer) => (JSON.parse(answer.body.toString()) as { r: unknown }).r;

/** Waits for `done` to hold, looking every 10 ms. */
async function until(done: () => boolean, timeoutMs = 2000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((wait) => setTimeout(wait, 10));
  }
}

const versionOf = async (t: TestApp, tree: TreeRow) =>
  (await oneRow(t.deps.db.select({ version: trees.version }).from(trees).where(eq(trees.id, tree.id)))).version;

/** A real commit: a new member reserves an available square through the tRPC caller. */
async function commit(t: TestApp, tree: TreeRow): Promise<void> {
  const square = (
    await t.deps.db
      .select({ token: cells.token })
      .from(cells)
      .where(and(eq(cells.treeId, tree.id), eq(cells.status, CellStatus.Available)))
      .limit(1)
  )[0]!.token;
  await t.caller((await t.addUser(Role.Observer)).user).cell.reserve({ token: square });
}

const heldPolls = (t: TestApp) => t.deps.treeEvents!.longPolls.size;

describe('the long-poll of a tree’s changes', () => {
  let t: TestApp;
  let base: string;
  let tree: TreeRow;
  const changes = (since: number | string, wait: number | string = 1) =>
    `/api/tree/${tree.token}/changes?since=${since}&wait=${wait}`;

  beforeAll(async () => {
    t = await createTestApp({ port: 0 });
    tree = await createTree(t.deps.db, t.clock.now(), 'Watched');
    base = await t.start();
  });
  afterAll(() => t.cleanup());

  it('answers at once when the log is past since: the changes, kept briefly by a shared cache', async () => {
    const since = await versionOf(t, tree);
    await commit(t, tree);
    const answer = await get(base, changes(since, WAIT_MAX_SECONDS));
    expect(answer.status).toBe(200);
    expect(answer.ms).toBeLessThan(1000);
    expect(json(answer)).toEqual(await readChanges(t.deps.db, tree.id, since));
    expect(answer.headers).toMatchObject({
      'cache-control': CACHE_CHANGES,
      vary: 'accept-encoding',
      etag: `"t${tree.id}c${since}-${await versionOf(t, tree)}"`,
    });
    expect(heldPolls(t)).toBe(0);
  });

  it('holds a poll at the current version until a commit, and answers it within a moment', async () => {
    const since = await versionOf(t, tree);
    const polled = get(base, changes(since, 10));
    await until(() => heldPolls(t) === 1);
    const committed = performance.now();
    await commit(t, tree);
    const answer = await polled;
    const latency = performance.now() - committed;
    expect(answer.status).toBe(200);
    // The feed looks at the log every 100 ms; a second is the most a viewer should wait.
    expect(latency).toBeLessThan(1000);
    const body = json(answer) as TreeChangesAnswer;
    expect(body).toEqual(await readChanges(t.deps.db, tree.id, since));
    expect(body).toMatchObject({ since, version: await versionOf(t, tree), count: 1 });
    expect(answer.headers['cache-control']).toBe(CACHE_CHANGES);
    expect(heldPolls(t)).toBe(0);
    console.log(`tree long-poll: commit → answer ${Math.round(latency)} ms`);
  });

  it('answers at once a poll held just after a look counted its change as seen', async () => {
    // The route read the log (nothing after `since`), then a change committed and a look at the log counted it as
    // seen before the poll was held: held as it was, it waited out its whole wait. The feed looks only when asked.
    const feed = new TreeEventFeed(t.deps.db, t.server.log, { watchMs: 3_600_000 });
    try {
      const since = await versionOf(t, tree);
      await commit(t, tree);
      await feed.poll();
      const answer = await feed.holdPoll(tree.id, since, 3_000, new AbortController().signal);
      expect(answer).toEqual(await readChanges(t.deps.db, tree.id, since));
      expect(answer).toMatchObject({ since, version: await versionOf(t, tree), count: 1 });
      expect(feed.longPolls.size).toBe(0);
    } finally {
      feed.close();
    }
  });

  it('answers "nothing new" with the same version once the wait runs out, never to be kept', async () => {
    const since = await versionOf(t, tree);
    const answer = await get(base, changes(since, 1));
    expect(answer.status).toBe(200);
    expect(answer.ms).toBeGreaterThanOrEqual(950);
    expect(answer.ms).toBeLessThan(2500);
    expect(json(answer)).toMatchObject({ resync: false, since, version: since, count: 0 });
    expect(answer.headers['cache-control']).toBe(CACHE_NEVER);
    // Asked again with its ETag, an unchanged answer after the wait is a 304, kept by no one either.
    const again = await get(base, changes(since, 1), { 'if-none-match': answer.headers.etag! });
    expect(again.status).toBe(304);
    expect(again.ms).toBeGreaterThanOrEqual(950);
    expect(again.headers['cache-control']).toBe(CACHE_NEVER);
    expect(heldPolls(t)).toBe(0);
  });

  it('without wait answers at once, as before: nothing new, revalidated each time', async () => {
    const since = await versionOf(t, tree);
    const answer = await get(base, `/api/tree/${tree.token}/changes?since=${since}`);
    // Not held: a held poll answers no sooner than the shortest wait, a second (the test above). The bound is that
    // second rather than a guess at a quick answer: on a busy two-core machine this plain read once took 666 ms.
    expect(answer.ms).toBeLessThan(950);
    expect(heldPolls(t)).toBe(0);
    expect(json(answer)).toMatchObject({ since, version: since, count: 0 });
    expect(answer.headers['cache-control']).toBe('no-cache');
  });

  it('gives a signed-in viewer and a guest the same bytes and headers, and sets no cookie', async () => {
    const member = await t.addUser(Role.Observer);
    // The member's session is due to be extended: any route that reads it re-sends the cookie.
    t.clock.advance(2 * 60 * 60 * 1000);
    const viewers: Record<string, string>[] = [{ cookie: member.cookie }, {}, { cookie: 'session=not-a-session' }];
    const same = (answers: Answer[]) => {
      const [first, ...others] = answers.map(({ status, headers, body }) => {
        const { date: _date, ...kept } = headers;
        return { status, headers: kept, body: body.toString('base64') };
      });
      for (const other of others) expect(other).toEqual(first);
      for (const answer of answers) expect(answer.headers['set-cookie']).toBeUndefined();
      expect(Object.keys(first!.headers)).not.toContain('set-cookie');
    };
    const accept = { 'accept-encoding': 'gzip, br' };

    // Held together and answered by one commit.
    const since = await versionOf(t, tree);
    const held = viewers.map((viewer) => get(base, changes(since, 10), { ...accept, ...viewer }));
    await until(() => heldPolls(t) === viewers.length);
    await commit(t, tree);
    same(await Promise.all(held));
    // Answered at once, for a version the log is past.
    same(await Promise.all(viewers.map((viewer) => get(base, changes(since, 10), { ...accept, ...viewer }))));
    // The vary header names nothing about the viewer.
    expect((await get(base, changes(since, 10), { cookie: member.cookie })).headers.vary).toBe('accept-encoding');

    // The member's session was not touched: the first route that reads it extends it.
    const current = await get(base, '/api/user/current', { cookie: member.cookie });
    expect(current.status).toBe(200);
    expect(String(current.headers['set-cookie'])).toMatch(/^session=/);
  });

  it('refuses each bad since or wait with 400 in the envelope, at once, holding and changing nothing', async () => {
    const version = await versionOf(t, tree);
    const bad: [query: string, field: string][] = [
      ['wait=1', 'since'],
      [`since=abc&wait=1`, 'since'],
      [`since=-1&wait=1`, 'since'],
      [`since=1.5&wait=1`, 'since'],
      [`since=1e3&wait=1`, 'since'],
      [`since=${version + 1}&wait=1`, 'since'],
      [`since=${version}&wait=0`, 'wait'],
      [`since=${version}&wait=${WAIT_MAX_SECONDS + 1}`, 'wait'],
      [`since=${version}&wait=-1`, 'wait'],
      [`since=${version}&wait=1.5`, 'wait'],
      [`since=${version}&wait=abc`, 'wait'],
      [`since=${version}&wait=`, 'wait'],
      [`since=${version}&wait=1&wait=2`, 'wait'],
      [`since=${version}&wait=100`, 'wait'],
    ];
    for (const [query, field] of bad) {
      const answer = await get(base, `/api/tree/${tree.token}/changes?${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.ms, query).toBeLessThan(500);
      const refusal = json(answer) as { error: string; errors: Record<string, string[]> };
      expect(refusal.error, query).toBe('bad_request');
      expect(Object.keys(refusal.errors), query).toEqual([field]);
      expect(answer.headers['cache-control'], query).toBe(CACHE_NEVER);
      expect(answer.headers['set-cookie'], query).toBeUndefined();
    }
    expect(heldPolls(t)).toBe(0);
    expect(await versionOf(t, tree)).toBe(version);
    // An unknown tree is still a 404.
    const unknown = await get(base, `/api/tree/${'z'.repeat(22)}/changes?since=0&wait=1`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers['cache-control']).toBe(CACHE_NEVER);
  });
});

describe('the long-polls a process holds', () => {
  it('are bounded (LONG_POLLS_MAX): past it 503 with Retry-After, and a reader who leaves frees its place', async () => {
    const t = await createTestApp({ port: 0, longPollsMax: 2 });
    try {
      const tree = await createTree(t.deps.db, t.clock.now(), 'Crowded');
      const base = await t.start();
      const address = `/api/tree/${tree.token}/changes?since=${await versionOf(t, tree)}&wait=10`;
      const leaving = new AbortController();
      const first = get(base, address, {}, leaving.signal).catch((error: unknown) => error);
      const second = get(base, address);
      await until(() => heldPolls(t) === 2);
      const refused = await get(base, address);
      expect(refused.status).toBe(503);
      expect(refused.headers['retry-after']).toBe(String(FULL_RETRY_SECONDS));
      expect(refused.headers['cache-control']).toBe(CACHE_NEVER);
      expect(json(refused)).toMatchObject({ error: 'busy', message: expect.stringContaining('as many live trees') });

      leaving.abort();
      expect(await first).toBeInstanceOf(Error);
      await until(() => heldPolls(t) === 1);
      const third = get(base, address);
      await until(() => heldPolls(t) === 2);
      await commit(t, tree);
      expect((await second).status).toBe(200);
      expect((await third).status).toBe(200);
    } finally {
      await t.cleanup();
    }
  });

  it('are let go at once when the server stops, with what the log holds', async () => {
    const t = await createTestApp({ port: 0 });
    const tree = await createTree(t.deps.db, t.clock.now(), 'Stopping');
    const base = await t.start();
    const since = await versionOf(t, tree);
    const polled = get(base, `/api/tree/${tree.token}/changes?since=${since}&wait=${WAIT_MAX_SECONDS}`);
    await until(() => heldPolls(t) === 1);
    const stopped = performance.now();
    const stopping = t.stop();
    const answer = await polled;
    expect(performance.now() - stopped).toBeLessThan(1000);
    expect(answer.status).toBe(200);
    expect(json(answer)).toMatchObject({ since, version: since, count: 0 });
    expect(answer.headers['cache-control']).toBe(CACHE_NEVER);
    expect(answer.headers.connection).toBe('close');
    await stopping;
    expect(performance.now() - stopped).toBeLessThan(2000);
    fs.rmSync(t.dir, { recursive: true, force: true });
  });
});

describe('answers fixed by version', () => {
  let t: TestApp;
  let base: string;
  let tree: TreeRow;
  const region = (v?: number) => `/api/tree/${tree.token}/region?row0=9&row1=10&col0=0&col1=1${v ? `&v=${v}` : ''}`;

  beforeAll(async () => {
    t = await createTestApp({ port: 0 });
    tree = await createTree(t.deps.db, t.clock.now(), 'Versioned');
    base = await t.start();
  });
  afterAll(() => t.cleanup());

  it('the snapshot: immutable at the version its address names, short-lived otherwise', async () => {
    const now = await get(base, `/api/tree/${tree.token}`);
    const { version } = json(now) as { version: number };
    expect(now.headers['cache-control']).toBe(CACHE_CURRENT);
    const at = await get(base, `/api/tree/${tree.token}?v=${version}`);
    expect(at.headers['cache-control']).toBe(CACHE_IMMUTABLE);
    expect(at.body.equals(now.body)).toBe(true);
    expect(at.headers.etag).toBe(now.headers.etag);

    await commit(t, tree);
    // The kept snapshot is still that version's: its address answers it, for good.
    const later = await get(base, `/api/tree/${tree.token}?v=${version}`);
    expect(later.headers['cache-control']).toBe(CACHE_IMMUTABLE);
    expect(later.body.equals(now.body)).toBe(true);
    // A version the kept snapshot is not: the snapshot there is, which says its own version, short-lived.
    const newer = await get(base, `/api/tree/${tree.token}?v=${await versionOf(t, tree)}`);
    expect(newer.status).toBe(200);
    expect((json(newer) as { version: number }).version).toBe(version);
    expect(newer.headers['cache-control']).toBe(CACHE_CURRENT);

    const bad = await get(base, `/api/tree/${tree.token}?v=latest`);
    expect(bad.status).toBe(400);
    expect(json(bad)).toMatchObject({ error: 'bad_request', errors: { v: [expect.any(String)] } });
  });

  it('the growth history: immutable at its version', async () => {
    const now = await get(base, `/api/tree/${tree.token}/history`);
    const { version } = json(now) as { version: number };
    expect(now.headers['cache-control']).toBe(CACHE_CURRENT);
    const at = await get(base, `/api/tree/${tree.token}/history?v=${version}`);
    expect(at.headers['cache-control']).toBe(CACHE_IMMUTABLE);
    expect(at.body.equals(now.body)).toBe(true);
    const other = await get(base, `/api/tree/${tree.token}/history?v=${version + 1000}`);
    expect(other.headers['cache-control']).toBe(CACHE_CURRENT);
  });

  it('a region: immutable at the tree’s version, and an artist’s rename moves the version', async () => {
    const author = await t.addUser(Role.Artist);
    await publishedPieceAt(t.deps.db, tree.id, 9, 0, author.user.id, 'c'.repeat(32));
    const version = await versionOf(t, tree);
    const at = await get(base, region(version));
    expect(at.headers['cache-control']).toBe(CACHE_IMMUTABLE);
    expect(json(at)).toMatchObject({
      version,
      artist: [`${author.user.firstname} ${author.user.lastname}`, '', '', ''],
    });
    expect((await get(base, region())).headers['cache-control']).toBe(CACHE_CURRENT);

    // Saving the account without a new name changes no version; a new name does, since regions show it.
    const account = { token: author.user.token, email: author.user.email, show_email: true, password: '' };
    const save = (firstname: string) =>
      t.caller(author.user).user.updateAccount({
        ...account,
        firstname,
        lastname: author.user.lastname,
        confirm_password: '',
        current_password: '',
      });
    await save(author.user.firstname);
    expect(await versionOf(t, tree)).toBe(version);
    await save('Renamed');
    const renamed = await versionOf(t, tree);
    expect(renamed).toBeGreaterThan(version);
    expect(await readChanges(t.deps.db, tree.id, version)).toMatchObject({ resync: false, count: 1 });
    const after = json(await get(base, region(renamed))) as TreeRegionWire;
    expect(after.artist[0]).toBe(`Renamed ${author.user.lastname}`);
    // The old version's address no longer names the tree's version: it answers the current one, short-lived.
    const old = await get(base, region(version));
    expect((json(old) as TreeRegionWire).version).toBe(renamed);
    expect(old.headers['cache-control']).toBe(CACHE_CURRENT);
  });

  it('media: content-addressed, immutable, and no cookie even for a signed-in viewer due an extension', async () => {
    const name = `${'d'.repeat(32)}-thumb.webp`;
    await t.deps.media.put(name, Buffer.from('RIFF'));
    const member = await t.addUser(Role.Observer);
    t.clock.advance(2 * 60 * 60 * 1000);
    const media = await get(base, `/media/${name}`, { cookie: member.cookie });
    expect(media.status).toBe(200);
    expect(media.headers['cache-control']).toBe(CACHE_IMMUTABLE);
    expect(media.headers['set-cookie']).toBeUndefined();
  });
});
