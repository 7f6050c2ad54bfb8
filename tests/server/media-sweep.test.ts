/**
 * The orphan sweep (decision 044) on both adapters, the media folder and object storage (a real S3-compatible server,
 * Swift with s3api, one for the file): a file no row names is kept while younger than MEDIA_ORPHAN_GRACE_MS and
 * removed once older; a file a save has just put again is young, however long ago it was first written; a file a
 * picture or an avatar names is never removed, however old. Ages are read from the store's own dates (object stores
 * keep whole seconds), with the sweep's clock set against them.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '#drizzle/tables.ts';
import { Role } from '#shared/domain.ts';
import { MEDIA_ORPHAN_GRACE_MS, sweepOrphanMedia } from '#server/services/media/art-media.ts';
import { createTree } from '#server/services/tree/tree.ts';
import { createTestApp, type TestApp } from '#tests/helpers/server/test-app.ts';
import { publishedPieceAt } from '../helpers/art-fixtures.ts';
import { storedFiles } from '../helpers/server/media-files.ts';
import { mediaAdapters } from '../helpers/server/s3-media.ts';

const ADAPTERS = mediaAdapters();

const hex = () => randomBytes(16).toString('hex');

describe.each(ADAPTERS)('the orphan sweep: $kind', (adapter) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(await adapter.config());
  }, 60_000);
  afterAll(() => t.cleanup());

  /** The sweep with its clock at `now`. */
  const sweepAt = (now: number) => sweepOrphanMedia({ ...t.deps, clock: { now: () => now } });
  const dateOf = async (name: string) => (await t.deps.media.lookUp(name))!.modifiedAt;

  it('keeps a young orphan and a file put again, removes an old orphan, and never a named file', async () => {
    const { media, db } = t.deps;
    const treeId = (await createTree(db, t.clock.now(), 'Sweep')).id;
    const owner = await t.addUser(Role.Artist);
    const pictureKey = hex();
    await publishedPieceAt(db, treeId, 33, 0, owner.user.id, pictureKey);
    const avatar = `${hex()}-avatar.jpg`;
    await db.update(users).set({ image: avatar }).where(eq(users.id, owner.user.id));

    const named = [`${pictureKey}-large.webp`, `${pictureKey}-thumb.webp`, avatar];
    const oldOrphans = [`${hex()}-large.webp`, `${hex()}-avatar.jpg`];
    const usedAgain = `${hex()}-thumb.webp`;
    const youngOrphan = `${hex()}-large.webp`;
    const notOurs = 'notes.txt';
    for (const name of [...named, ...oldOrphans, usedAgain, notOurs]) await media.put(name, randomBytes(64));
    // Object stores keep whole seconds: what follows is written in a later one than what came before.
    await sleep(adapter.kind === 's3' ? 1100 : 20);
    await media.put(youngOrphan, randomBytes(64));
    // A save of the same picture again: its file is young now (MediaStorage.put renews the date).
    await media.put(usedAgain, randomBytes(64));

    const firstYoung = Math.min(await dateOf(youngOrphan), await dateOf(usedAgain));
    const lastOld = Math.max(...(await Promise.all([...named, ...oldOrphans].map(dateOf))));
    expect(firstYoung).toBeGreaterThan(lastOld);
    // The young files just short of the grace period; the old ones at least that old.
    const removed = await sweepAt(firstYoung + MEDIA_ORPHAN_GRACE_MS - 1);
    expect(removed.sort()).toEqual([...oldOrphans].sort());
    expect(await storedFiles(media)).toEqual([...named, usedAgain, youngOrphan, notOurs].sort());

    // Long after, every orphan has gone; what a row names stays, and so does what is not named as media.
    expect((await sweepAt(Date.now() + 10 * MEDIA_ORPHAN_GRACE_MS)).sort()).toEqual([usedAgain, youngOrphan].sort());
    expect(await storedFiles(media)).toEqual([...named, notOurs].sort());
  }, 30_000);
});
