/**
 * Several hosts, one PostgreSQL database (decision 037) and one bucket (decision 044): two app processes (`npm
 * start`'s), each with a data folder of its own, sharing nothing but DATABASE_URL and the pictures' bucket on a real
 * S3-compatible server (Swift with s3api, tests/helpers/object-store-server.ts), behind nginx as deploy/nginx.conf
 * sets it up. Started at the same moment on a new database they apply its migrations once and plant the tree once
 * (the claim that decides which host seeds is the same for the demo, which engines-gallery.test.ts seeds on
 * PostgreSQL); a member signed in on one is signed in on the other; a square reserved through one is reserved on the
 * other, and a visitor watching the live tree on the other is told at once; a race for one square across both has one
 * winner; a picture uploaded through one is served by the other, streamed from the bucket at the same address; each
 * e-mail is sent once though the host sending them is killed halfway; and a rolling restart behind nginx fails no
 * request.
 */
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { and, count, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cells, jobLeases, mailOutbox, trees, useTablesOf } from '#drizzle/tables.ts';
import { write, type Db } from '#server/db.ts';
import { closeAppDatabase, openAppDatabase } from '#server/open-database.ts';
import { enqueueMail } from '#server/services/mail/mail.ts';
import { CellStatus } from '#shared/domain.ts';
import { artForm, png, validFields } from '#tests/helpers/art-fixtures.ts';
import { openStream } from '#tests/helpers/event-stream.ts';
import {
  startObjectStoreServer,
  stopObjectStoreServer,
  type ObjectStoreServer,
} from '#tests/helpers/object-store-server.ts';
import { nginxBinary, startNginx, type Nginx } from '#tests/helpers/server/nginx.ts';
import { freePorts, reservePorts } from '#tests/helpers/server-processes.ts';
import { postgresDatabase, type TestDatabase } from '#tests/helpers/server/postgres.ts';
import {
  encodeForm,
  signedInUsers,
  startRealServer,
  stopRealServer,
  TEST_CSRF,
  writeHeaders,
  type RealServer,
} from '#tests/helpers/server/real-server.ts';
import { SEED_ROW } from '#tests/helpers/server/reservation-fixtures.ts';
import { rollingRestartUnderLoad } from '#tests/helpers/server/rolling-restart.ts';
import { s3Environment } from '#tests/helpers/server/s3-media.ts';
import { startSmtpSink, type SmtpSink } from '#tests/helpers/server/smtp-sink.ts';
import { tempDir } from '#tests/helpers/server/test-app.ts';

/** E-mails queued for the host killed halfway through sending them. */
const MAILS = 40;

/** Short job claims, so that a host killed while sending is taken over within seconds. */
const LEASE_SECONDS = 2;

/** Everything the tests started, removed at the end. */
const started = {
  hosts: [] as RealServer[],
  folders: [] as string[],
  databases: [] as TestDatabase[],
  handles: [] as Db[],
  objectStores: [] as ObjectStoreServer[],
};

afterAll(async () => {
  await Promise.all(
    started.hosts
      .filter((host) => host.process.exitCode === null && host.process.signalCode === null)
      .map((host) => stopRealServer(host, 'SIGKILL')),
  );
  for (const handle of started.handles) await closeAppDatabase(handle);
  useTablesOf('sqlite');
  for (const database of started.databases) await database.drop();
  for (const objectStore of started.objectStores) await stopObjectStoreServer(objectStore);
  for (const dir of started.folders) fs.rmSync(dir, { recursive: true, force: true });
});

/** A host's own data folder: its pictures go to the shared bucket, never here. */
function hostFolder(name: string): string {
  const dir = tempDir(`host-${name}-`);
  started.folders.push(dir);
  return dir;
}

/** The environment of a new bucket on a new object store server, which both hosts keep their pictures in. */
async function newBucket(): Promise<Record<string, string>> {
  const objectStore = await startObjectStoreServer();
  started.objectStores.push(objectStore);
  return s3Environment(objectStore, await objectStore.createBucket());
}

/** A new database, and a handle of the test's own on it. */
async function newDatabase(): Promise<{ database: TestDatabase; db: Db }> {
  const database = await postgresDatabase();
  started.databases.push(database);
  const db = await openAppDatabase({ databaseFile: '', databaseUrl: database.url });
  started.handles.push(db);
  return { database, db };
}

async function startHost(dir: string, env: Record<string, string>): Promise<RealServer> {
  const host = await startRealServer(dir, env);
  started.hosts.push(host);
  return host;
}

describe('two hosts on one PostgreSQL database, behind nginx', () => {
  let db: Db;
  let nginx: Nginx;
  let smtp: SmtpSink;
  const hosts: RealServer[] = [];
  const folders: string[] = [];
  let env: (i: number) => Record<string, string>;
  /** What the SMTP server does with the next message: keep it, or (returning false) leave it unanswered. */
  let accept: () => boolean = () => true;

  /** Host i (again), on its own folder and port. */
  async function startApp(i: number): Promise<RealServer> {
    hosts[i] = await startHost(folders[i]!, env(i));
    return hosts[i];
  }

  beforeAll(async () => {
    // Fails here, with how to install it, when nginx is missing.
    nginxBinary();
    // The object store starts (a few seconds of Swift's) while the database is made.
    const [bucket, { database, db: handle }] = await Promise.all([newBucket(), newDatabase()]);
    db = handle;
    smtp = await startSmtpSink({ accept: () => accept() });
    folders.push(hostFolder('a'), hostFolder('b'));
    const [portA, portB] = await freePorts(2);
    // nginx's ports are held until it starts, after the apps (which must know its address).
    const [site, redirect] = await reservePorts(2);
    env = (i) => ({
      ...bucket,
      DATABASE_URL: database.url,
      PORT: String([portA, portB][i]),
      TRUST_PROXY: 'true',
      SITE_URL: `http://127.0.0.1:${site}`,
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      JOB_LEASE_SECONDS: String(LEASE_SECONDS),
    });
    // Both at once on the new database: one plants the tree, the other waits for it.
    await Promise.all([startApp(0), startApp(1)]);
    nginx = await startNginx({ apps: [portA!, portB!], site: site!, redirect: redirect! });
  }, 120_000);

  afterAll(async () => {
    await nginx?.stop();
    await smtp?.stop();
  });

  const [a, b] = [() => hosts[0]!, () => hosts[1]!];

  async function reserve(host: { url: string }, cookie: string, cellToken: string) {
    return fetch(`${host.url}/api/cell/${cellToken}/reserve`, {
      method: 'POST',
      headers: { cookie, 'x-requested-with': 'XMLHttpRequest', 'x-csrf-token': TEST_CSRF },
    });
  }

  async function seedSquare(column: number) {
    const [tree] = await db.select().from(trees);
    const [square] = await db
      .select()
      .from(cells)
      .where(and(eq(cells.treeId, tree!.id), eq(cells.row, SEED_ROW), eq(cells.column, column)));
    return { tree: tree!, square: square! };
  }

  it('plant one tree between them, and serve the same one', async () => {
    expect(await db.select({ id: trees.id }).from(trees)).toHaveLength(1);
    const [fromA, fromB] = await Promise.all(
      [a(), b()].map(async (host) => ((await (await fetch(`${host.url}/api/initial-params`)).json()) as any).r.params),
    );
    expect(fromA.tree_token).toBe(fromB.tree_token);
  });

  it('share sessions, reservations and the live tree', async () => {
    const [member] = await signedInUsers(db, 1, 'hosts');
    const me = await fetch(`${b().url}/api/user/current`, { headers: { cookie: member!.cookie } });
    expect(me.status).toBe(200);
    expect(JSON.stringify(await me.json())).toContain(member!.email);

    const { tree, square } = await seedSquare(0);
    const stream = await openStream(a().url, `/api/tree/${tree.token}/events?since=${tree.version}`);
    try {
      const reserved = await reserve(b(), member!.cookie, square.token);
      expect(reserved.status).toBe(200);
      const told = await stream.next((event) => event.event === 'changes', 5000);
      expect(told.data).toContain(square.token);
      const onA = (await (await fetch(`${a().url}/api/cell/${square.token}`)).json()) as any;
      expect(JSON.stringify(onA)).toContain(`"status":${CellStatus.Reserved}`);
    } finally {
      stream.close();
    }
  });

  it('give one square to one member when eight race for it across both hosts', async () => {
    const members = await signedInUsers(db, 8, 'racer');
    const { square } = await seedSquare(1);
    const answers = await Promise.all(
      members.map((member, i) => reserve(i % 2 === 0 ? a() : b(), member.cookie, square.token)),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 409)).toHaveLength(7);
  });

  it('serve a picture uploaded through one host from the other, out of the shared bucket', async () => {
    const [artist] = await signedInUsers(db, 1, 'artist');
    const { square } = await seedSquare(2);
    expect((await reserve(a(), artist!.cookie, square.token)).status).toBe(200);
    const { body, contentType } = await encodeForm(
      artForm(validFields({ title: 'Across hosts' }), [
        { bytes: await png(320, 240, '#2a7f62'), name: 'art.png', type: 'image/png' },
      ]),
    );
    const saved = await fetch(`${a().url}/api/cell/${square.token}`, {
      method: 'POST',
      headers: { ...writeHeaders(artist!.cookie), 'content-type': contentType },
      body: new Uint8Array(body),
    });
    expect(saved.status).toBe(200);
    const [picture] = ((await saved.json()) as any).r.art.pictures as { image: string }[];
    // No public address: the server's own, which either host streams from the bucket.
    expect(picture!.image).toMatch(/^\/media\/[0-9a-f]{32}-large\.webp$/);

    // The square's data from the other host names the picture at the same address.
    const onB = await fetch(`${b().url}/api/cell/${square.token}`, { headers: { cookie: artist!.cookie } });
    expect(onB.status).toBe(200);
    expect(JSON.stringify(await onB.json())).toContain(picture!.image);

    const served = async (host: RealServer) => {
      const res = await fetch(`${host.url}${picture!.image}`);
      return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
    };
    const [fromA, fromB] = await Promise.all([served(a()), served(b())]);
    expect(fromA.status).toBe(200);
    expect(fromB.status).toBe(200);
    expect(fromB.type).toBe('image/webp');
    expect(fromB.bytes.length).toBeGreaterThan(0);
    expect(fromB.bytes.equals(fromA.bytes)).toBe(true);
    // Neither host wrote it to a folder of its own: both streamed it from the bucket.
    for (const folder of folders)
      expect(fs.existsSync(path.join(folder, 'media', path.basename(picture!.image)))).toBe(false);
  });

  it(
    'send each e-mail once when the host sending them is killed (SIGKILL) halfway: the other takes over',
    { timeout: 120_000 },
    async () => {
      // Who holds the outbox's claim ("host:pid:random"), followed as it changes.
      let sender = 0;
      let following = true;
      const follow = (async () => {
        while (following) {
          const [claim] = await db
            .select({ owner: jobLeases.owner })
            .from(jobLeases)
            .where(and(eq(jobLeases.name, 'mail-outbox'), isNotNull(jobLeases.owner)));
          if (claim?.owner) sender = Number(claim.owner.split(':').at(-2));
          await sleep(50);
        }
      })();
      const before = smtp.received.length;
      let killed = 0;
      accept = () => {
        if (killed || smtp.received.length - before < MAILS / 2 || !sender) return true;
        // The message after half: its sender dies before the SMTP server answers it, so it counts as not delivered.
        killed = sender;
        hosts.find((host) => host.process.pid === killed)!.process.kill('SIGKILL');
        return false;
      };
      try {
        await write(db, async (tx) => {
          for (let i = 0; i < MAILS; i++)
            await enqueueMail(tx, Date.now(), {
              to: `hosts${i}@mail.test`,
              subject: `Hosts ${i}`,
              text: `Message ${i}`,
              kind: 'test',
            });
        });
        const deadline = Date.now() + 90_000;
        const sent = async () =>
          (await db.select({ n: count() }).from(mailOutbox).where(eq(mailOutbox.state, 'sent')))[0]!.n;
        while ((await sent()) < MAILS && Date.now() < deadline) await sleep(200);
        await sleep(1000); // a duplicate, if there were one, would have time to arrive
      } finally {
        following = false;
        await follow;
        accept = () => true;
      }
      expect(killed).toBeGreaterThan(0);
      const victim = hosts.findIndex((host) => host.process.pid === killed);
      expect(hosts[victim]!.process.signalCode).toBe('SIGKILL');
      const mails = smtp.received.slice(before);
      expect(mails).toHaveLength(MAILS);
      expect(new Set(mails.map((mail) => mail.messageId)).size).toBe(MAILS);
      // Back to two hosts for what follows.
      await startApp(victim);
    },
  );

  it(
    'restart one after the other behind nginx under reads, writes, uploads and a live stream: no request fails',
    { timeout: 180_000 },
    async () => {
      await rollingRestartUnderLoad({
        nginx,
        db,
        apps: hosts,
        startApp,
        label: 'two hosts on one PostgreSQL database and one bucket, a data folder each',
      });
    },
  );
});
