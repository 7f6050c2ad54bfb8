/**
 * A gallery whose pictures are in object storage (MEDIA_STORAGE=s3, decision 044), against a real S3-compatible server
 * (Swift with s3api, one for the file): an art upload, and an avatar saved with the profile form and its ZIP code,
 * land in the bucket and not on this disk; /media/ streams them with the caching the folder's files have; with a
 * public address, pages, the tree's snapshot and the initial parameters link it, /media/ sends browsers there and the
 * CSP allows it; `npm run backup` copies the database and says the bucket is the operator's to back up; settings
 * that cannot work are told in one line, and a store that does not answer is told by the log and /api/health, never
 * with the secret.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '#shared/domain.ts';
import type { TreeSnapshotWire } from '#shared/tree/snapshot.ts';
import { BACKUP_DATABASE, BACKUP_MEDIA_NOTE, referencedMediaNames, sqliteQuery } from '#server/backup.ts';
import { ConfigError, loadConfig } from '#server/config.ts';
import { artOpenGraphTags } from '#server/http/art-open-graph.ts';
import { MEDIA_ORPHAN_GRACE_MS, sweepOrphanMedia } from '#server/services/media/art-media.ts';
import { reserveCell } from '#server/services/reservations/index.ts';
import { createTree } from '#server/services/tree/tree.ts';
import { recordCellChanges } from '#server/services/tree/tree-changes.ts';
import { reindexArt } from '#server/services/search/search.ts';
import { TreeEventFeed } from '#server/http/tree-events.ts';
import { write } from '#server/db.ts';
import { cells, trees } from '#drizzle/tables.ts';
import { createTestApp, tempDir, type TestApp } from '#tests/helpers/server/test-app.ts';
import { artForm, browserFor, cellAt, png, postForm, publishedPieceAt, validFields } from '../helpers/art-fixtures.ts';
import { expectSuccess } from '../helpers/server/envelope.ts';
import { storedFiles } from '../helpers/server/media-files.ts';
import { profileForm, validProfile } from '../helpers/server/profile-fixtures.ts';
import { runScript } from '../helpers/server/real-server.ts';
import { s3Environment, s3Media } from '../helpers/server/s3-media.ts';
import {
  startObjectStoreServer,
  stopObjectStoreServer,
  type ObjectStoreServer,
} from '../helpers/object-store-server.ts';

const CACHE_IMMUTABLE = 'public, max-age=31536000, immutable';
const PUBLIC_BASE = 'https://media.gallery.test/pictures';
const SEED_ROW = 33;

let store: ObjectStoreServer;
beforeAll(async () => {
  store = await startObjectStoreServer();
}, 60_000);
afterAll(async () => {
  await stopObjectStoreServer(store);
});

/** A square reserved for a new member, and their browser: what an upload needs. */
async function uploaderIn(t: TestApp, treeId: number, column: number) {
  const member = await t.addUser(Role.Observer);
  const cellToken = (await cellAt(t.deps.db, treeId, SEED_ROW, column)).token;
  await reserveCell(t.deps, member.user, cellToken);
  return { cellToken, browser: await browserFor(t, member.cookie) };
}

async function upload(t: TestApp, treeId: number, column: number, color: string) {
  const { browser, cellToken } = await uploaderIn(t, treeId, column);
  const answer = await postForm(
    t,
    browser,
    `/api/cell/${cellToken}`,
    artForm(validFields(), [{ bytes: await png(40, 30, color), name: 'a.png', type: 'image/png' }]),
  );
  return expectSuccess(answer).art.pictures[0] as { thumb: string; image: string };
}

describe('pictures in a bucket, served by the server', () => {
  let t: TestApp;
  let treeId: number;
  let bucket: string;
  beforeAll(async () => {
    bucket = await store.createBucket();
    t = await createTestApp({ media: s3Media(store, bucket) });
    treeId = (await createTree(t.deps.db, t.clock.now(), 'In a bucket')).id;
  }, 60_000);
  afterAll(() => t.cleanup());

  it('keeps an upload in the bucket alone, and serves it with the caching of the folder’s files', async () => {
    const picture = await upload(t, treeId, 0, '#224466');
    const names = [picture.image, picture.thumb].map((url) => url.replace(/^\/media\//, ''));
    expect(picture.image).toMatch(/^\/media\/[0-9a-f]{32}-large\.webp$/);
    expect(await storedFiles(t.deps.media)).toEqual([...names].sort());
    expect(fs.existsSync(path.join(t.dir, 'media'))).toBe(false);

    const served = await t.server.inject({ url: picture.image });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals((await t.deps.media.get(names[0]!))!)).toBe(true);
    expect(served.headers).toMatchObject({
      'content-type': 'image/webp',
      'cache-control': CACHE_IMMUTABLE,
      'content-length': String(served.rawPayload.length),
    });
    const etag = served.headers.etag as string;
    expect(etag).toBeTruthy();
    const again = await t.server.inject({ url: picture.image, headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.headers['cache-control']).toBe(CACHE_IMMUTABLE);
    const head = await t.server.inject({ method: 'HEAD', url: picture.image });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(String(served.rawPayload.length));
    expect(head.rawPayload.length).toBe(0);

    for (const missing of [`/media/${'0'.repeat(32)}-thumb.webp`, '/media/Not..A..Name.webp']) {
      const answer = await t.server.inject({ url: missing });
      expect(answer.statusCode, missing).toBe(404);
      expect(answer.headers['cache-control'], missing).not.toBe(CACHE_IMMUTABLE);
    }
  });

  it('keeps an avatar saved with the profile form in the bucket, and the old one for the sweep', async () => {
    const { user, cookie } = await t.addUser(Role.Artist);
    const browser = await browserFor(t, cookie);
    const save = async (color: string) =>
      expectSuccess(
        await postForm(
          t,
          browser,
          `/api/user/${user.token}/profile`,
          profileForm(validProfile({ zipcode: '90210', city: 'Beverly Hills', state: 'CA' }), {
            bytes: await png(60, 60, color),
            name: 'me.png',
            type: 'image/png',
          }),
        ),
      ) as { image: string; zipcode: string };
    const first = await save('#aa3300');
    expect(first).toMatchObject({
      zipcode: '90210',
      image: expect.stringMatching(/^\/media\/[0-9a-f]{32}-avatar\.jpg$/),
    });
    const served = await t.server.inject({ url: first.image });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/jpeg');
    expect(await t.caller().user.profile({ token: user.token })).toMatchObject({
      zipcode: '90210',
      image: first.image,
    });

    const second = await save('#0033aa');
    const [firstName, secondName] = [first.image, second.image].map((url) => url.replace(/^\/media\//, ''));
    expect(await storedFiles(t.deps.media)).toEqual(expect.arrayContaining([firstName, secondName]));
    // A day and a little more: an object store may round its dates up to the next second.
    const dayLater = { ...t.deps, clock: { now: () => Date.now() + MEDIA_ORPHAN_GRACE_MS + 2000 } };
    expect(await sweepOrphanMedia(dayLater)).toContain(firstName);
    expect(await t.deps.media.exists(firstName!)).toBe(false);
    expect(await t.deps.media.exists(secondName!)).toBe(true);
  });

  it('says in /api/health that the storage answers', async () => {
    const health = await t.server.inject({ url: '/api/health' });
    expect(health.json().r).toMatchObject({ ok: true, storage: 'ok' });
  });

  it('backs up the database alone, and says the bucket is the operator’s to back up and whether it holds all', async () => {
    const environment = s3Environment(store, bucket);
    const dir = path.join(tempDir('gallery-backup-'), 'copy');
    const run = await runScript('backup.ts', [dir], t.dir, environment);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(fs.readdirSync(dir).sort()).toEqual([BACKUP_DATABASE, BACKUP_MEDIA_NOTE]);
    const copy = new Database(path.join(dir, BACKUP_DATABASE), { readonly: true });
    const named = await referencedMediaNames(sqliteQuery(copy));
    copy.close();
    expect(named.length).toBeGreaterThanOrEqual(3);
    expect(run.stdout).toContain(
      `media: not copied. The pictures are in object storage, bucket ${bucket} at ${store.endpoint}.`,
    );
    expect(run.stdout).toContain(`(${named.length} files named, ${named.length} in the bucket now)`);
    const note = fs.readFileSync(path.join(dir, BACKUP_MEDIA_NOTE), 'utf8');
    expect(note).toContain(`bucket ${bucket} at ${store.endpoint}`);
    expect(note).toContain("Back the bucket up with the store's own means, right after this copy");
    expect(run.stdout + note).not.toContain(store.secretAccessKey);

    // A named file gone from the bucket (not the backup's doing) is told, as a folder's missing file is.
    await t.deps.media.delete(named[0]!);
    const again = await runScript('backup.ts', [path.join(tempDir('gallery-backup-'), 'copy')], t.dir, environment);
    expect(again.code).toBe(0);
    expect(again.stderr.trim()).toBe(
      `Warning: 1 media files named by the database were already missing from bucket ${bucket}: ${named[0]}`,
    );
  }, 60_000);
});

/** A search result as GET /api/cells/search answers it, as far as this file reads it. */
interface FoundCell {
  token: string;
  art: { picture: { thumb: string } | null };
}

describe('pictures at a public address', () => {
  let t: TestApp;
  let treeId: number;
  let treeToken: string;
  beforeAll(async () => {
    t = await createTestApp({ media: s3Media(store, await store.createBucket(), { MEDIA_PUBLIC_URL: PUBLIC_BASE }) });
    ({ id: treeId, token: treeToken } = await createTree(t.deps.db, t.clock.now(), 'Public pictures'));
  }, 60_000);
  afterAll(() => t.cleanup());

  it('links them there: saves, the tree’s snapshot and the initial parameters; /media/ sends browsers there', async () => {
    const picture = await upload(t, treeId, 1, '#446622');
    expect(picture.thumb).toMatch(new RegExp(`^${PUBLIC_BASE}/[0-9a-f]{32}-thumb\\.webp$`));
    const name = picture.thumb.slice(PUBLIC_BASE.length + 1);
    expect(await t.deps.media.exists(name)).toBe(true);

    const owner = await t.addUser(Role.Artist);
    const key = 'c'.repeat(32);
    const { cellToken } = await publishedPieceAt(t.deps.db, treeId, SEED_ROW, 4, owner.user.id, key);
    // The snapshot is built on the worker thread, which makes the addresses from the storage's base.
    const snapshot = (await t.server.inject({ url: `/api/tree/${treeToken}` })).json().r as TreeSnapshotWire;
    expect(snapshot.detail!.thumb).toContain(`${PUBLIC_BASE}/${key}-thumb.webp`);
    const params = (await t.server.inject({ url: '/api/initial-params' })).json().r.params;
    expect(params.settings.image_path).toBe(`${PUBLIC_BASE}/`);
    // Where an address must be absolute, a public one is left as it is (a path gets the site's address).
    const feed = (await t.server.inject({ url: '/feed.xml' })).body;
    expect(feed).toContain(`<link rel="enclosure" type="image/webp" href="${PUBLIC_BASE}/${key}-thumb.webp"/>`);
    expect(await artOpenGraphTags(t.deps, cellToken)).toContain(
      `<meta property="og:image" content="${PUBLIC_BASE}/${key}-large.webp">`,
    );

    // Search and the live tree's changes (a long-poll the feed answers) link them there too.
    const [piece] = await t.deps.db
      .select({ artId: cells.artId, cellId: cells.id })
      .from(cells)
      .where(eq(cells.token, cellToken));
    await reindexArt(t.deps.db, piece!.artId!);
    const found = (await t.server.inject({ url: `/api/cells/search?search=neighbour` })).json().r as FoundCell[];
    expect(found.find((hit) => hit.token === cellToken)?.art.picture?.thumb).toBe(`${PUBLIC_BASE}/${key}-thumb.webp`);
    t.deps.treeEvents!.close();
    const events = new TreeEventFeed(t.deps.db, t.server.log, { watchMs: 3_600_000, urlOf: t.deps.media.urlOf });
    t.deps.treeEvents = events;
    const [{ version }] = (await t.deps.db
      .select({ version: trees.version })
      .from(trees)
      .where(eq(trees.id, treeId))) as [{ version: number }];
    const held = t.server.inject({ url: `/api/tree/${treeToken}/changes?since=${version}&wait=20` });
    await sleep(200);
    await write(t.deps.db, (tx) => recordCellChanges(tx, treeId, [piece!.cellId], t.clock.now()));
    await events.poll();
    expect((await held).body).toContain(`${PUBLIC_BASE}/${key}-thumb.webp`);

    const sent = await t.server.inject({ url: `/media/${name}` });
    expect(sent.statusCode).toBe(302);
    expect(sent.headers.location).toBe(picture.thumb);
    expect(sent.headers['cache-control']).toBe('public, max-age=86400');
  });

  it('lets pages load pictures and the tree fetch its thumbnails from there (CSP)', async () => {
    const csp = (await t.server.inject({ url: '/' })).headers['content-security-policy'] as string;
    const directive = (name: string) => csp.split(';').find((entry) => entry.startsWith(`${name} `));
    expect(directive('img-src')).toBe("img-src 'self' data: blob: https://media.gallery.test");
    expect(directive('connect-src')).toBe("connect-src 'self' data: https://media.gallery.test");
    expect(directive('script-src')).toBe("script-src 'self'");
  });
});

/**
 * `npm start` in a process of its own, as an operator runs it (Node with tsx as a loader: one process). The limit
 * only catches a hang: on a loaded machine the start alone took over 30 s once.
 */
function start(env: Record<string, string>) {
  const root = path.resolve(import.meta.dirname, '../..');
  return spawnSync(process.execPath, ['--import', 'tsx', 'scripts/start.ts', '--no-build'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'silent', PORT: '0', ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
}

describe('settings that cannot work', () => {
  it('names the variable missing, or set without MEDIA_STORAGE=s3; the defaults follow the endpoint', () => {
    const keys = { S3_ACCESS_KEY_ID: 'key', S3_SECRET_ACCESS_KEY: 'secret' };
    expect(() => loadConfig({ MEDIA_STORAGE: 's3', ...keys })).toThrow(ConfigError);
    expect(() => loadConfig({ MEDIA_STORAGE: 's3', ...keys })).toThrow(
      "Invalid environment variable S3_BUCKET: missing: MEDIA_STORAGE=s3 needs the bucket's name",
    );
    expect(() => loadConfig({ MEDIA_STORAGE: 's3', S3_BUCKET: 'gallery' })).toThrow(
      /^Invalid environment variable S3_ACCESS_KEY_ID: missing/,
    );
    expect(() => loadConfig({ S3_BUCKET: 'gallery' })).toThrow(
      /^Invalid environment variable S3_BUCKET: is set, but MEDIA_STORAGE is folder/,
    );
    expect(() => loadConfig({ MEDIA_STORAGE: 'bucket' })).toThrow(/^Invalid environment variable MEDIA_STORAGE/);
    expect(loadConfig({ MEDIA_STORAGE: 's3', S3_BUCKET: 'gallery', ...keys }).media).toMatchObject({
      kind: 's3',
      region: 'us-east-1',
      forcePathStyle: false,
    });
    expect(
      loadConfig({ MEDIA_STORAGE: 's3', S3_BUCKET: 'gallery', S3_ENDPOINT: 'http://minio.test:9000', ...keys }).media,
    ).toMatchObject({ forcePathStyle: true, endpoint: 'http://minio.test:9000' });
    expect(loadConfig({ DATA_DIR: '/srv/gallery' }).media).toEqual({ kind: 'folder', dir: '/srv/gallery/media' });
  });

  it('stops `npm start` with one line for a wrong secret, which it never prints', async () => {
    const bucket = await store.createBucket();
    const wrongSecret = `${store.secretAccessKey}-not-it`;
    const refused = start({
      DATA_DIR: tempDir(),
      ...s3Environment(store, bucket, { S3_SECRET_ACCESS_KEY: wrongSecret }),
    });
    expect(refused.status).toBe(1);
    expect(refused.stderr.trim().split('\n')).toEqual([
      `Cannot start: Object storage (bucket ${bucket} at ${store.endpoint}) refused: access refused (HTTP 403): wrong keys, or keys without access to the bucket. Check the S3_ variables (README, Environment variables).`,
    ]);
    expect(refused.stdout + refused.stderr).not.toContain(wrongSecret);
  }, 180_000);

  it('starts when the store does not answer, and says so in the log and /api/health, never with the secret', async () => {
    const lines: string[] = [];
    const t = await createTestApp(
      {
        logLevel: 'warn',
        media: s3Media(store, await store.createBucket(), { S3_ENDPOINT: 'http://127.0.0.1:9' }),
      },
      { logOutput: { write: (line: string) => lines.push(line) } },
    );
    try {
      const health = await t.server.inject({ url: '/api/health' });
      expect(health.statusCode).toBe(200);
      expect(health.json().r).toMatchObject({ ok: false, db: 'ok', storage: 'unreachable' });
      const log = lines.join('');
      expect(log).toContain('the media storage does not answer: starting all the same');
      expect(log).toContain('health check: the media storage does not answer');
      expect(log).toContain('did not answer');
      expect(log + health.body).not.toContain(store.secretAccessKey);
    } finally {
      await t.cleanup();
    }
  });
});
