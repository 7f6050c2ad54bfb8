/**
 * Several real server processes (`npm start`'s) on one data folder, as behind a proxy, with an SMTP server on loopback:
 * each e-mail delivered once (also when its sender is killed halfway), changes reaching the others' streams and caches,
 * a safe simultaneous start on a new folder, and a rolling restart that loses and repeats nothing.
 */
import http from 'node:http';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { count, eq, ne } from 'drizzle-orm';
import { contactMessages, jobLeases, mailOutbox, trees } from '#drizzle/schema.ts';
import { CellStatus } from '#shared/domain.ts';
import { closeDatabase, type Db, openDatabase, write } from '#server/db.ts';
import { enqueueMail } from '#server/services/mail/mail.ts';
import { LIMITS } from '#server/services/rate-limit.ts';
import { getDefaultTree } from '#server/services/tree/tree.ts';
import { tempDir } from '#tests/helpers/server/test-app.ts';
import { openStream } from '../helpers/event-stream.ts';
import { cellAt, SEED_ROW } from '../helpers/server/reservation-fixtures.ts';
import { artForm, png, validFields } from '../helpers/art-fixtures.ts';
import {
  encodeForm,
  signedInUsers,
  startRealServer,
  stopRealServer,
  TEST_CSRF,
  writeHeaders,
  type RealServer,
} from '../helpers/server/real-server.ts';
import { startSmtpSink, type ReceivedMail, type SmtpSink } from '../helpers/server/smtp-sink.ts';

const LEASE_SECONDS = 2;

let servers: RealServer[] = [];
let smtp: SmtpSink | null = null;
const databases: Db[] = [];

afterEach(async () => {
  await Promise.all(
    servers
      .filter((s) => s.process.exitCode === null && s.process.signalCode === null)
      .map((s) => stopRealServer(s, 'SIGKILL')),
  );
  servers = [];
  await smtp?.stop();
  smtp = null;
  for (const db of databases.splice(0)) closeDatabase(db);
});

/** `n` servers started at once on one data folder, sending e-mail to the sink, with short job claims. */
async function startProcesses(dataDir: string, n: number, env: Record<string, string> = {}): Promise<RealServer[]> {
  const started = await Promise.all(
    Array.from({ length: n }, () =>
      startRealServer(dataDir, {
        SMTP_URL: `smtp://127.0.0.1:${smtp!.port}`,
        JOB_LEASE_SECONDS: String(LEASE_SECONDS),
        TRUST_PROXY: 'true',
        ...env,
      }),
    ),
  );
  servers.push(...started);
  return started;
}

function database(dataDir: string): Db {
  const db = openDatabase(path.join(dataDir, 'gallery.db'));
  databases.push(db);
  return db;
}

async function queueMessages(db: Db, n: number, label: string): Promise<void> {
  await write(db, async (tx) => {
    for (let i = 0; i < n; i++)
      await enqueueMail(tx, Date.now(), {
        to: `${label}${i}@mail.test`,
        subject: `${label} ${i}`,
        text: `Message ${i}`,
        kind: 'test',
      });
  });
}

async function until<T>(
  what: string | (() => string),
  check: () => T | undefined | false,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`);
    await sleep(100);
  }
}

const idsOf = (mails: readonly ReceivedMail[]) => mails.map((m) => m.messageId);

/** The process id inside a claim's owner name (host:pid:random). */
const pidOf = (owner: string) => Number(owner.split(':').at(-2));

describe('several processes on one data folder', () => {
  it(
    'three started at once on a new folder all come up with one tree; 200 queued e-mails arrive once each',
    { timeout: 120_000 },
    async () => {
      smtp = await startSmtpSink();
      const dataDir = tempDir('gallery-processes-');
      await startProcesses(dataDir, 3);
      const db = database(dataDir);
      expect(db.select({ n: count() }).from(trees).get()!.n).toBe(1);

      await queueMessages(db, 200, 'three');
      await until(
        '200 deliveries',
        () =>
          smtp!.received.length >= 200 &&
          db.select({ n: count() }).from(mailOutbox).where(eq(mailOutbox.state, 'sent')).get()!.n === 200,
      );
      await sleep(1000); // a duplicate, if there were one, would have time to arrive
      expect(smtp.received).toHaveLength(200);
      expect(new Set(idsOf(smtp.received)).size).toBe(200);
      for (const server of servers) expect(server.stderr()).toBe('');
    },
  );

  it(
    'two processes, the one delivering killed (SIGKILL) halfway: the other takes over, and each e-mail arrives once',
    { timeout: 120_000 },
    async () => {
      let servers2: RealServer[] = [];
      let db: Db | null = null;
      let killed = 0;
      smtp = await startSmtpSink({
        accept: () => {
          if (killed || smtp!.received.length < 100) return true;
          // The 101st message: its sender dies before the server answers it, so it counts as not delivered.
          const owner = db!.select().from(jobLeases).where(eq(jobLeases.name, 'mail-outbox')).get()!.owner!;
          killed = pidOf(owner);
          servers2.find((s) => s.process.pid === killed)!.process.kill('SIGKILL');
          return false;
        },
      });
      const dataDir = tempDir('gallery-processes-kill-');
      servers2 = await startProcesses(dataDir, 2);
      db = database(dataDir);
      await queueMessages(db, 200, 'killed');
      await until(
        '200 deliveries',
        () => db.select({ n: count() }).from(mailOutbox).where(eq(mailOutbox.state, 'sent')).get()!.n === 200,
        90_000,
      );
      await sleep(1000);
      expect(killed).toBeGreaterThan(0);
      expect(servers2.find((s) => s.process.pid === killed)!.process.signalCode).toBe('SIGKILL');
      expect(smtp.received).toHaveLength(200);
      expect(new Set(idsOf(smtp.received)).size).toBe(200);
    },
  );

  it(
    'a change through one process reaches the event stream, the snapshot and the rate limits of the other',
    { timeout: 120_000 },
    async () => {
      smtp = await startSmtpSink();
      const dataDir = tempDir('gallery-processes-live-');
      const [a, b] = (await startProcesses(dataDir, 2)) as [RealServer, RealServer];
      const db = database(dataDir);
      const tree = (await getDefaultTree(db))!;
      const [artist] = await signedInUsers(db, 1);
      const square = (await cellAt(db, tree.id, SEED_ROW, 3))!;

      const before = await fetch(`${b.url}/api/tree/${tree.token}`);
      const etagBefore = before.headers.get('etag');
      await before.arrayBuffer();
      const stream = await openStream(b.url, `/api/tree/${tree.token}/events`);
      const reserved = await fetch(`${a.url}/api/cell/${square.token}/reserve`, {
        method: 'POST',
        headers: writeHeaders(artist!.cookie),
      });
      expect(reserved.status).toBe(200);
      const event = await stream.next((e) => e.event === 'changes', 5000);
      expect(event.data).toContain(square.token);
      stream.close();

      // B's kept snapshot may stay at its version (the change log brings a reader up to date): B's log has the change.
      const since = Number(/v(\d+)/.exec(etagBefore!)![1]);
      const changes = await (await fetch(`${b.url}/api/tree/${tree.token}/changes?since=${since}`)).text();
      expect(changes).toContain(square.token);
      const cell = await (await fetch(`${b.url}/api/cell/${square.token}`)).json();
      expect(cell.r.status).toBe(CellStatus.Reserved);

      // One address's searches through both processes count against one limit.
      const secondsLeft = 60 - (Date.now() % 60_000) / 1000;
      if (secondsLeft < 20) await sleep(secondsLeft * 1000 + 100);
      const search = (server: RealServer) =>
        fetch(`${server.url}/api/cells/search?search=abc`, { headers: { 'x-forwarded-for': '10.9.8.7' } }).then(
          (r) => r.status,
        );
      const half = LIMITS.searchPerIp.max / 2;
      for (let i = 0; i < half; i++) expect(await search(a)).toBe(200);
      await sleep(1500);
      for (let i = 0; i < half; i++) expect(await search(b)).toBe(200);
      await sleep(1500);
      expect(await search(a)).toBe(429);
    },
  );

  it(
    'rolling restart: start B, stop A while reads, writes, uploads and e-mails are in flight; every request is answered, nothing lost or sent twice',
    { timeout: 120_000 },
    async () => {
      smtp = await startSmtpSink();
      const dataDir = tempDir('gallery-processes-rolling-');
      const [a] = (await startProcesses(dataDir, 1)) as [RealServer];
      const db = database(dataDir);
      const tree = (await getDefaultTree(db))!;
      const [b] = (await startProcesses(dataDir, 1)) as [RealServer];

      // The proxy in front: sends each request on its own connection to the first process that accepts it.
      let upstreams = [a, b];
      const outcomes: string[] = [];
      const acknowledged: string[] = [];
      let sent = 0;
      let sentElsewhere = 0;
      // As a proxy with passive health checks: a refused connection, or a 503 from a process that is stopping
      // (nothing ran), marks that process down, and the request goes on to the next one.
      const proxy = async (
        method: string,
        route: string,
        headers: Record<string, string>,
        body?: Buffer | string,
      ): Promise<number> => {
        for (const upstream of upstreams) {
          const answer = await send(upstream.url, method, route, headers, body).catch(
            (error: NodeJS.ErrnoException) => error.code ?? String(error),
          );
          if (answer === 'ECONNREFUSED' || answer === 503) {
            sentElsewhere++;
            upstreams = upstreams.filter((u) => u !== upstream);
            continue;
          }
          if (typeof answer === 'string') outcomes.push(`error ${answer}`);
          return typeof answer === 'number' ? answer : 0;
        }
        outcomes.push('no upstream');
        return 0;
      };
      const readCell = (await cellAt(db, tree.id, SEED_ROW, 0))!;
      let running = true;
      const readers = Array.from({ length: 3 }, async () => {
        while (running) outcomes.push(String(await proxy('GET', `/api/cell/${readCell.token}`, {})));
      });
      const writers = Array.from({ length: 2 }, async (_, w) => {
        while (running) {
          const n = sent++;
          const subject = `Rolling restart ${n}`;
          const status = await proxy(
            'POST',
            '/api/misc/contact',
            {
              ...writeHeaders(`csrf=${TEST_CSRF}`),
              'content-type': 'application/json',
              'x-forwarded-for': `10.7.${w}.${n % 250}`,
            },
            JSON.stringify({
              subject,
              reason: 'Question',
              email: `writer${n}@mail.test`,
              message: 'Does a rolling restart lose anything?',
            }),
          );
          outcomes.push(String(status));
          if (status === 200) acknowledged.push(subject);
          await sleep(25);
        }
      });
      const uploaders = await signedInUsers(db, 4, 'rolling');
      const picture = await png(640, 480);
      const upload = async (user: (typeof uploaders)[number], i: number) => {
        const square = (await cellAt(db, tree.id, SEED_ROW + (i >> 1), 1 + (i & 1)))!;
        const { body, contentType } = await encodeForm(
          artForm(validFields({ title: `Rolling upload ${i}` }), [
            { bytes: picture, name: 'a.png', type: 'image/png' },
          ]),
        );
        const status = await proxy(
          'POST',
          `/api/cell/${square.token}`,
          { ...writeHeaders(user.cookie), 'content-type': contentType },
          body,
        );
        outcomes.push(String(status));
        return status;
      };

      await sleep(1500);
      // Uploads on their way as A is told to stop, and more just after.
      const uploads = uploaders.slice(0, 2).map(upload);
      await sleep(20);
      const stopped = stopRealServer(a, 'SIGTERM');
      uploads.push(...uploaders.slice(2).map((user, i) => upload(user, i + 2)));
      upstreams = [a, b];
      expect(await stopped).toBe(0);
      expect(upstreams).toEqual([b]);
      await sleep(1500);
      running = false;
      await Promise.all([...readers, ...writers]);
      const uploaded = await Promise.all(uploads);
      expect(uploaded).toEqual([200, 200, 200, 200]);
      for (let i = 0; i < uploaders.length; i++) {
        const square = (await cellAt(db, tree.id, SEED_ROW + (i >> 1), 1 + (i & 1)))!;
        const piece = (await (
          await fetch(`${b.url}/api/cell/${square.token}/art/edit`, { headers: { cookie: uploaders[i]!.cookie } })
        ).json()) as { r: { art: { title: string; pictures: { image: string }[] } } };
        expect(piece.r.art.title).toBe(`Rolling upload ${i}`);
        expect((await fetch(`${b.url}${piece.r.art.pictures[0]!.image}`)).status).toBe(200);
      }

      expect(outcomes.filter((o) => o !== '200')).toEqual([]);
      // A was stopped under load: some requests reached it while it refused them, and went on to B.
      expect(sentElsewhere).toBeGreaterThan(0);
      expect(acknowledged.length).toBeGreaterThan(10);
      const stored = new Set(
        db
          .select({ subject: contactMessages.subject })
          .from(contactMessages)
          .all()
          .map((m) => m.subject),
      );
      for (const subject of acknowledged) expect(stored.has(subject)).toBe(true);
      await until(
        () =>
          `every e-mail (${JSON.stringify(db.select({ id: mailOutbox.id, state: mailOutbox.state, attempts: mailOutbox.attempts, lastError: mailOutbox.lastError, claimedBy: mailOutbox.claimedBy }).from(mailOutbox).where(ne(mailOutbox.state, 'sent')).all())})`,
        () =>
          db.select({ n: count() }).from(mailOutbox).where(eq(mailOutbox.state, 'sent')).get()!.n ===
          db.select({ n: count() }).from(mailOutbox).get()!.n,
      );
      await sleep(1000);
      const queued = db.select({ n: count() }).from(mailOutbox).get()!.n;
      expect(queued).toBeGreaterThanOrEqual(acknowledged.length);
      expect(smtp.received).toHaveLength(queued);
      expect(new Set(idsOf(smtp.received)).size).toBe(queued);
      expect(a.stderr()).toBe('');
    },
  );
});

/** One request on its own connection; answers the status, or rejects with the connection's error. */
function send(
  base: string,
  method: string,
  route: string,
  headers: Record<string, string>,
  body?: Buffer | string,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      new URL(route, base),
      { method, headers: { ...headers, connection: 'close' }, agent: false },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
