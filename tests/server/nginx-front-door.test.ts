/**
 * The site behind nginx as deploy/nginx.conf sets it up (run by tests/helpers/server/nginx.ts): two real app processes
 * (`npm start`'s) on one data folder behind it. The edge sets the addresses the app believes and sends plain HTTP to
 * HTTPS; the bodies it takes fit the app's; it keeps what the app's Cache-Control allows and nothing else; 50 viewers
 * holding one long-poll address cost the app one request per change; and a rolling restart under reads, writes, uploads and a live event stream fails no request and loses no
 * event. nginx must be installed (`apt-get install nginx-light`; .ci/run does it): without it these tests fail.
 */
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ART_LIMITS } from '#shared/constants.ts';
import { closeDatabase, openDatabase, type Db } from '#server/db.ts';
import { getDefaultTree } from '#server/services/tree/tree.ts';
import { tempDir } from '#tests/helpers/server/test-app.ts';
import { NGINX_CONF, nginxBinary, startNginx, type AccessLogLine, type Nginx } from '../helpers/server/nginx.ts';
import { freePorts, reservePorts } from '../helpers/server-processes.ts';
import {
  signedInUsers,
  startRealServer,
  stopRealServer,
  TEST_CSRF,
  writeHeaders,
  type RealServer,
} from '../helpers/server/real-server.ts';
import { cellAt, SEED_ROW } from '../helpers/server/reservation-fixtures.ts';
import { rollingRestartUnderLoad, tally } from '../helpers/server/rolling-restart.ts';

let dataDir: string;
let db: Db;
let nginx: Nginx;
let appPorts: number[];
let siteUrl: string;
const apps: RealServer[] = [];

/** An app process on its port, as the README's "Behind nginx" section runs it; resolves once it is healthy. */
async function startApp(i: number): Promise<RealServer> {
  const app = await startRealServer(dataDir, {
    PORT: String(appPorts[i]),
    TRUST_PROXY: 'true',
    SITE_URL: siteUrl,
    // One line per request: the origin's own count of what reached it.
    LOG_LEVEL: 'info',
  });
  const health = await fetch(`${app.url}/api/health`);
  expect(health.status).toBe(200);
  apps[i] = app;
  return app;
}

/** What the app processes logged as each request came in (their request logs), both processes' lines. */
function originLines(): { req: { url: string; host: string; remoteAddress: string } }[] {
  return apps
    .flatMap((app) => app.stdout().split('\n'))
    .filter((line) => line.startsWith('{') && line.includes('"incoming request"'))
    .map((line) => JSON.parse(line) as { req: { url: string; host: string; remoteAddress: string } });
}

/** How many requests for `url` (path and query) reached the app processes. */
const originRequests = (url: string) => originLines().filter((line) => line.req.url === url).length;

beforeAll(async () => {
  // Fails here, with how to install it, when nginx is missing.
  nginxBinary();
  dataDir = tempDir('gallery-front-door-');
  const [app1, app2] = await freePorts(2);
  // nginx's ports are held until it starts, after the apps (which must know its address).
  const [site, redirect] = await reservePorts(2);
  appPorts = [app1!, app2!];
  siteUrl = `http://127.0.0.1:${site}`;
  // Both at once on the new folder: one seeds (an empty tree), the other waits for it.
  await Promise.all([startApp(0), startApp(1)]);
  nginx = await startNginx({ apps: appPorts, site: site!, redirect: redirect! });
  db = openDatabase(path.join(dataDir, 'gallery.db'));
}, 120_000);

afterAll(async () => {
  await nginx?.stop();
  await Promise.all(
    apps
      .filter((app) => app.process.exitCode === null && app.process.signalCode === null)
      .map((app) => stopRealServer(app)),
  );
  if (db) closeDatabase(db);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('the front door: deploy/nginx.conf', () => {
  it('sets the addresses the app believes itself, whatever the visitor sends, and sends plain HTTP to HTTPS', async () => {
    const probe = `/api/cell/FrontDoorProbe${Date.now()}`;
    const answer = await fetch(`${nginx.url}${probe}`, {
      headers: {
        'x-forwarded-for': '203.0.113.9',
        'x-forwarded-host': 'elsewhere.example',
        'x-forwarded-proto': 'https',
      },
    });
    // Not 421: the app did not take the visitor's X-Forwarded-Host for the host asked for.
    expect(answer.status).toBe(404);
    // The line comes through a pipe: it may arrive a moment after the answer.
    await expect
      .poll(() => originLines().find((line) => line.req.url === probe)?.req)
      .toMatchObject({ remoteAddress: '127.0.0.1', host: '127.0.0.1' });

    const redirect = await fetch(`${nginx.redirectUrl}/observe?focus=1`, { redirect: 'manual' });
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get('location')).toBe('https://127.0.0.1/observe?focus=1');
  });

  it('takes the largest upload the app takes, and lets the app refuse a JSON body over its own limit', async () => {
    const conf = fs.readFileSync(NGINX_CONF, 'utf8');
    const megabytes = (setting: string) => Number(/(\d+)m$/.exec(setting)![1]) * 1024 * 1024;
    const [general, uploads] = [...conf.matchAll(/^\s*client_max_body_size\s+(\S+);/gm)].map((m) => megabytes(m[1]!));
    // A piece: its pictures and up to 60 text fields of 20 KiB (server/rest/art-routes.ts), with room for the parts.
    expect(uploads).toBeGreaterThanOrEqual(ART_LIMITS.maxImages * ART_LIMITS.maxImageBytes + 60 * 20 * 1024);
    // The app's JSON limit is 1 MiB (bodyLimit in server/app.ts): past it, its own answer says so.
    expect(general).toBeGreaterThan(1024 * 1024);
    const overJson = await fetch(`${nginx.url}/api/misc/contact`, {
      method: 'POST',
      headers: { ...writeHeaders(`csrf=${TEST_CSRF}`), 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'x'.repeat(1024 * 1024 + 1) }),
    });
    expect(overJson.status).toBe(413);
    expect(overJson.headers.get('content-type')).toContain('application/json');
    // Past nginx's own limit (not an upload path): nginx refuses it before the app sees it.
    const overEdge = await fetch(`${nginx.url}/api/misc/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: 'x'.repeat(general! + 1),
    });
    expect(overEdge.status).toBe(413);
    expect(overEdge.headers.get('content-type')).toContain('text/html');
  });

  it('keeps what the app says may be kept, never "nothing new", and no tree answer carries a cookie', async () => {
    const tree = (await getDefaultTree(db))!;
    const [viewer] = await signedInUsers(db, 1, 'cookie');
    /** The cache statuses of the `count` requests for `uri`, once nginx has logged them all. */
    const cacheOf = async (uri: string, count: number) => {
      const of = (lines: AccessLogLine[]) => lines.filter((line) => line.uri === uri);
      return of(await nginx.accessLog((lines) => of(lines).length >= count)).map((line) => line.cache);
    };
    const get = async (uri: string) => {
      const res = await fetch(`${nginx.url}${uri}`, { headers: { cookie: viewer!.cookie } });
      await res.arrayBuffer();
      expect(res.headers.get('set-cookie')).toBeNull();
      return res;
    };

    // The snapshot at its version is the same bytes for good: the second reader gets nginx's copy.
    const versioned = `/api/tree/${tree.token}?v=${tree.version}`;
    expect((await get(versioned)).headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await get(versioned)).status).toBe(200);
    expect(await cacheOf(versioned, 2)).toEqual(['MISS', 'HIT']);
    expect(originRequests(versioned)).toBe(1);

    // "Nothing new" is true of its moment only (no-store): each poll goes to the app.
    const quiet = `/api/tree/${tree.token}/changes?since=${tree.version}&wait=1`;
    for (let i = 0; i < 2; i++) {
      const res = await get(quiet);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
    expect(await cacheOf(quiet, 2)).toEqual(['MISS', 'MISS']);
    expect(originRequests(quiet)).toBe(2);
  });

  it('collapses a long-poll: 1,100 viewers holding one address all get the change, the app sees it asked once', async () => {
    const tree = (await getDefaultTree(db))!;
    const address = `/api/tree/${tree.token}/changes?since=${tree.version}&wait=20`;
    const [reserver] = await signedInUsers(db, 1, 'collapse');
    const square = (await cellAt(db, tree.id, SEED_ROW, 0))!.token;

    // Plain HTTP clients, each on its own connection, all asking the same address: more than 1,024, since nginx
    // counts the lookups of a cache entry in 10 bits and, with proxy_cache_min_uses at its default, sends the
    // 1,024th waiter to the app on its own.
    const polls = Array.from({ length: VIEWERS }, () => getOnOwnConnection(`${nginx.url}${address}`));
    const deadline = Date.now() + 10_000;
    while (originRequests(address) === 0 && Date.now() < deadline) await sleep(50);
    // Every client's request reaches nginx within this (loopback), and waits behind the first.
    await sleep(1500);
    expect(originRequests(address)).toBe(1);

    const changedAt = Date.now();
    const reserved = await fetch(`${nginx.url}/api/cell/${square}/reserve`, {
      method: 'POST',
      headers: { ...writeHeaders(reserver!.cookie), 'content-type': 'application/json' },
      body: '{}',
    });
    expect(reserved.status).toBe(200);
    const answers = await Promise.all(polls);
    const slowest = Math.max(...answers.map((a) => a.at)) - changedAt;

    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    const bodies = new Set(answers.map((a) => a.body));
    expect(bodies.size).toBe(1);
    const changes = (JSON.parse([...bodies][0]!) as { r: { since: number; version: number; cell: string[] } }).r;
    expect(changes.since).toBe(tree.version);
    expect(changes.version).toBeGreaterThan(tree.version);
    expect(changes.cell).toContain(square);
    const origin = originRequests(address);
    const ofAddress = (lines: AccessLogLine[]) => lines.filter((line) => line.uri === address);
    const lines = ofAddress(await nginx.accessLog((all) => ofAddress(all).length >= VIEWERS));
    expect(lines).toHaveLength(VIEWERS);
    const cacheStatuses = tally(lines.map((line) => line.cache));
    console.log(
      `front door: ${VIEWERS} long-polls of one address through nginx, one change: the app saw ${origin} request(s) for it; ` +
        `nginx answered ${JSON.stringify(cacheStatuses)}; the last viewer had the change ${slowest} ms after the write answered`,
    );
    expect(origin).toBe(1);
  });

  it(
    'rolling restart under reads, writes, uploads and a live stream: no request fails, the stream misses no version',
    { timeout: 180_000 },
    async () => {
      await rollingRestartUnderLoad({ nginx, db, apps, startApp, label: 'front door on one data folder (SQLite)' });
    },
  );
});

/** A GET on a connection of its own (as 50 separate viewers would): its status, body and when it was answered. */
/** More viewers of one address than nginx's 10-bit count of a cache entry's lookups holds. */
const VIEWERS = 1_100;

function getOnOwnConnection(url: string): Promise<{ status: number; body: string; at: number }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false, headers: { 'accept-encoding': 'identity' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body, at: Date.now() }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}
