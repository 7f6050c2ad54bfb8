/**
 * The art media pipeline (decisions 009, 044): magic bytes decide the type, a save that fails after writing its files
 * deletes nothing (its files wait for the sweep), and the hourly sweep removes only files that no row names and that
 * no save has written for a day. The sweep on both adapters: media-sweep.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { eq } from 'drizzle-orm';
import { users } from '#drizzle/tables.ts';
import { ART_MESSAGES } from '#shared/validation/art.ts';
import { Role } from '#shared/domain.ts';
import {
  MEDIA_ORPHAN_GRACE_MS,
  prepareArtImage,
  sniffImageType,
  sweepOrphanMedia,
} from '#server/services/media/art-media.ts';
import { reserveCell } from '#server/services/reservations/reservations.ts';
import { createTree } from '#server/services/tree/tree.ts';
import { createTestApp, type TestApp } from '#tests/helpers/server/test-app.ts';
import {
  artForm,
  browserFor,
  cellAt,
  gif,
  jpegWithGps,
  png,
  postForm,
  publishedPieceAt,
  storedState,
  validFields,
} from '../helpers/art-fixtures.ts';

const SEED_ROW = 33;
let t: TestApp;
let treeId: number;

beforeAll(async () => {
  t = await createTestApp();
  treeId = (await createTree(t.deps.db, t.clock.now(), 'Media')).id;
});
afterAll(() => t.cleanup());

describe('image types come from the bytes', () => {
  it('knows JPEG, PNG and GIF by their first bytes, and nothing else', async () => {
    expect(sniffImageType(await png())).toBe('png');
    expect(sniffImageType(await jpegWithGps())).toBe('jpeg');
    expect(sniffImageType(await gif())).toBe('gif');
    expect(
      sniffImageType(
        await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } })
          .webp()
          .toBuffer(),
      ),
    ).toBeNull();
    expect(sniffImageType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
  });

  it('refuses a WebP even named .png, and strips EXIF from what it accepts', async () => {
    const webp = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } })
      .webp()
      .toBuffer();
    expect(await prepareArtImage(webp)).toEqual({ error: ART_MESSAGES.imageType });
    const prepared = await prepareArtImage(await jpegWithGps());
    if ('error' in prepared) throw new Error(prepared.error);
    expect((await sharp(prepared.large).metadata()).exif).toBeUndefined();
    expect((await sharp(prepared.thumb).metadata()).exif).toBeUndefined();
  });
});

describe('a failed save deletes nothing', () => {
  it('leaves the files it wrote, named by no row, to the sweep, and stores no row', async () => {
    const holder = await t.addUser(Role.Observer);
    await reserveCell(t.deps, holder.user, (await cellAt(t.deps.db, treeId, SEED_ROW, 0)).token);
    const browser = await browserFor(t, holder.cookie);
    const before = await storedState(t.deps.db, t.deps.media);
    // A second, available square: the save writes its image, then the one-square rule refuses the reservation.
    const other = (await cellAt(t.deps.db, treeId, SEED_ROW, 1)).token;
    const answer = await postForm(
      t,
      browser,
      `/api/cell/${other}`,
      artForm(validFields(), [{ bytes: await png(33, 33, '#123456'), name: 'a.png', type: 'image/png' }]),
    );
    expect(answer.status).toBe(409);
    expect(answer.body.r.error).toBe('already_reserved');
    const { files: filesBefore, ...rowsBefore } = before;
    const { files: filesAfter, ...rowsAfter } = await storedState(t.deps.db, t.deps.media);
    expect(rowsAfter).toEqual(rowsBefore);
    const written = filesAfter.filter((name) => !filesBefore.includes(name));
    expect(filesAfter).toEqual(expect.arrayContaining(filesBefore));
    expect(written.map((name) => name.slice(32))).toEqual(['-large.webp', '-thumb.webp']);
    // No row ever names them: once no save has used them for a day, the sweep takes them.
    const dayLater = { ...t.deps, clock: { now: () => Date.now() + MEDIA_ORPHAN_GRACE_MS } };
    expect(await sweepOrphanMedia(dayLater)).toEqual(expect.arrayContaining(written));
    expect(await storedState(t.deps.db, t.deps.media)).toEqual({ ...rowsBefore, files: filesBefore });
  });
});

describe('the orphan sweep', () => {
  it('deletes files no save has written for a day that no picture or avatar names, stale temporaries, and nothing else', async () => {
    const where = t.deps.media.describe();
    if (where.kind !== 'folder') throw new Error('The test app keeps its pictures in a folder');
    const { dir } = where;
    const owner = await t.addUser(Role.Artist);
    const namedKey = 'a'.repeat(32);
    await publishedPieceAt(t.deps.db, treeId, 10, 2, owner.user.id, namedKey);
    const old = (t.clock.now() - MEDIA_ORPHAN_GRACE_MS - 60_000) / 1000;
    const write = (name: string, mtime: number) => {
      fs.writeFileSync(path.join(dir, name), 'x');
      fs.utimesSync(path.join(dir, name), mtime, mtime);
    };
    write(`${namedKey}-thumb.webp`, old);
    write(`${'b'.repeat(32)}-large.webp`, old); // orphan, old: goes
    write(`${'c'.repeat(32)}-thumb.webp`, t.clock.now() / 1000); // orphan, but maybe a save in flight: stays
    // An orphan nearly a day old (a failed save yesterday, whose picture may yet be saved again): stays.
    write(`${'8'.repeat(32)}-large.webp`, (t.clock.now() - MEDIA_ORPHAN_GRACE_MS + 60_000) / 1000);
    const avatar = `${'f'.repeat(32)}-avatar.jpg`;
    await t.deps.db.update(users).set({ image: avatar }).where(eq(users.id, owner.user.id));
    write(avatar, old); // a user's avatar: stays
    write(`${'9'.repeat(32)}-avatar.jpg`, old); // an avatar nobody has (a save killed before its commit): goes
    write('notes.txt', old); // not named like a picture: not ours to judge
    write(`.${'d'.repeat(32)}-large.webp.0123456789ab.tmp`, old); // a write killed mid-way: goes
    write(`.${'e'.repeat(32)}-large.webp.0123456789ab.tmp`, t.clock.now() / 1000); // a write in progress: stays
    const removed = await sweepOrphanMedia(t.deps);
    expect(removed.sort()).toEqual(
      [
        `${'9'.repeat(32)}-avatar.jpg`,
        `${'b'.repeat(32)}-large.webp`,
        `.${'d'.repeat(32)}-large.webp.0123456789ab.tmp`,
      ].sort(),
    );
    expect(fs.existsSync(path.join(dir, avatar))).toBe(true);
    expect(fs.existsSync(path.join(dir, `.${'e'.repeat(32)}-large.webp.0123456789ab.tmp`))).toBe(true);
    expect(fs.existsSync(path.join(dir, `${namedKey}-thumb.webp`))).toBe(true);
    expect(fs.existsSync(path.join(dir, `${'c'.repeat(32)}-thumb.webp`))).toBe(true);
    expect(fs.existsSync(path.join(dir, 'notes.txt'))).toBe(true);
    expect(fs.existsSync(path.join(dir, `${'8'.repeat(32)}-large.webp`))).toBe(true);
  });
});
