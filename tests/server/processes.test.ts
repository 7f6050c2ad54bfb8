/**
 * Several real server processes (`npm start`'s) on one data folder, as behind a proxy, with an SMTP server on loopback:
 * each e-mail delivered once (also when its sender is killed halfway), changes reaching the others' streams and caches,
 * and a safe simultaneous start on a new folder. The rolling restart of processes on one data folder is proved behind
 * the real proxy, nginx (nginx-front-door.test.ts), and on hosts sharing PostgreSQL (several-hosts.test.ts).
 */
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { jobLeases, mailOutbox, trees } from '#drizzle/schema.ts';
import { CellStatus } from '#shared/domain.ts';
import { closeDatabase, type Db, openDatabase, write } from '#server/db.ts';
import { enqueueMail } from '#server/services/mail/mail.ts';
import { LIMITS } from '#server/services/rate-limit.ts';
import { getDefaultTree } from '#server/services/tree/tree.ts';
import { tempDir } from '#tests/helpers/server/test-app.ts';
import { openStream } from '../helpers/event-stream.ts';
import { cellAt, SEED_ROW } from '../helpers/server/reservation-fixtures.ts';
import {
  signedInUsers,
  startRealServer,
  stopRealServer,
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
});
