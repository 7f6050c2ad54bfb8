/**
 * A full disk (decision 026) on a tmpfs mounted for the test, or else SQLite made full (`max_page_count`) with the
 * upload threshold above the free space: 507 insufficient_storage and nothing half-written, uploads refused before
 * decoding, /api/health saying "up, cannot write", and all working again once space is freed.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { users } from '#drizzle/schema.ts';
import { createTree } from '#server/services/tree/tree.ts';
import { imageWork } from '#server/services/media/images.ts';
import { BrowserLike } from '#tests/helpers/server/browser-like.ts';
import { createTestApp, tempDir, type TestApp } from '#tests/helpers/server/test-app.ts';
import { artForm, png, postForm, validFields } from '../helpers/art-fixtures.ts';
import { cellAt, SEED_ROW } from '../helpers/server/reservation-fixtures.ts';

const MIN_FREE_BYTES = 2 * 1024 * 1024;

let t: TestApp;
let dataDir: string;
let mounted = false;
let treeId: number;
const filler = () => path.join(dataDir, 'filler.bin');

/** A 16 MB tmpfs at `dir`, when this machine lets the test mount one. */
function mountSmallDisk(dir: string): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16m', 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Takes every free byte: on the tmpfs, a file written until the disk refuses; else SQLite capped at its size. */
function fillTheDisk(): void {
  if (mounted) {
    const fd = fs.openSync(filler(), 'w');
    const block = Buffer.alloc(64 * 1024, 7);
    try {
      for (;;) fs.writeSync(fd, block);
    } catch (error) {
      expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC');
    } finally {
      fs.closeSync(fd);
    }
  } else {
    const pages = t.deps.db.$client.pragma('page_count', { simple: true }) as number;
    t.deps.db.$client.pragma(`max_page_count = ${pages}`);
    t.deps.config.minFreeBytes = Number.MAX_SAFE_INTEGER;
  }
}

function freeTheDisk(): void {
  if (mounted) fs.rmSync(filler());
  else {
    t.deps.db.$client.pragma('max_page_count = 1073741823');
    t.deps.config.minFreeBytes = 0;
  }
}

beforeAll(async () => {
  dataDir = tempDir('gallery-full-disk-');
  mounted = mountSmallDisk(dataDir);
  t = await createTestApp({
    dataDir,
    databaseFile: path.join(dataDir, 'gallery.db'),
    media: { kind: 'folder', dir: path.join(dataDir, 'media') },
    outboxDir: path.join(dataDir, 'outbox'),
    // Without a small disk, low space is simulated by moving the threshold (fillTheDisk).
    minFreeBytes: mounted ? MIN_FREE_BYTES : 0,
  });
  treeId = (await createTree(t.deps.db, t.clock.now(), 'A tree on a small disk')).id;
}, 60_000);

afterAll(async () => {
  await t.cleanup();
  if (mounted) execFileSync('umount', [dataDir]);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const register = (email: string) =>
  new BrowserLike(t.server).post('/api/register', {
    firstname: 'Ada',
    lastname: 'Lovelace',
    email,
    password: 'good&password1',
  });
const userCount = (email: string) => t.deps.db.select().from(users).where(eq(users.email, email)).all().length;

describe('a full disk', () => {
  it('a registration that cannot be stored answers 507 insufficient_storage, writes nothing, and works once space is back', async () => {
    expect((await register('before@full.test')).status).toBe(200);
    fillTheDisk();
    try {
      // Enough registrations to need new pages whatever the write-ahead log had kept.
      let refused: { email: string; answer: Awaited<ReturnType<typeof register>> } | null = null;
      for (let i = 0; i < 40 && !refused; i++) {
        const email = `full${i}@full.test`;
        const answer = await register(email);
        if (answer.status !== 200) refused = { email, answer };
      }
      expect(refused).not.toBeNull();
      expect(refused!.answer.status).toBe(507);
      expect(refused!.answer.body.r.error).toBe('insufficient_storage');
      expect(refused!.answer.body.r.message).toMatch(/out of storage space, so nothing was saved/);
      expect(userCount(refused!.email)).toBe(0);

      const health = (await t.server.inject({ method: 'GET', url: '/api/health' })).json();
      expect(health.r).toMatchObject({ ok: false, db: 'ok', storage: 'full' });
    } finally {
      freeTheDisk();
    }
    expect(t.deps.db.$client.pragma('integrity_check', { simple: true })).toBe('ok');
    expect((await register('after@full.test')).status).toBe(200);
    expect(userCount('after@full.test')).toBe(1);
  });

  it('an upload is refused (507) before any picture is decoded while space is low, and accepted once there is room', async () => {
    const artist = await t.addUser();
    const browser = new BrowserLike(t.server);
    browser.setCookie('session', artist.cookie.slice('session='.length));
    await browser.open();
    const square = (await cellAt(t.deps.db, treeId, SEED_ROW, 2))!;
    const form = async () =>
      artForm(validFields({ title: 'Saved when there is room' }), [
        { bytes: await png(320, 240), name: 'a.png', type: 'image/png' },
      ]);

    fillTheDisk();
    const decoded = imageWork.started;
    try {
      const refused = await postForm(t, browser, `/api/cell/${square.token}`, await form());
      expect(refused.status).toBe(507);
      expect(refused.body.r.error).toBe('insufficient_storage');
      expect(imageWork.started).toBe(decoded);
      const health = (await t.server.inject({ method: 'GET', url: '/api/health' })).json();
      expect(['low', 'full']).toContain(health.r.storage);
    } finally {
      freeTheDisk();
    }
    expect(fs.readdirSync(path.join(dataDir, 'media')).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    const saved = await postForm(t, browser, `/api/cell/${square.token}`, await form());
    expect(saved.status).toBe(200);
    expect((await t.server.inject({ method: 'GET', url: '/api/health' })).json().r).toMatchObject({
      ok: true,
      storage: 'ok',
    });
  });
});
