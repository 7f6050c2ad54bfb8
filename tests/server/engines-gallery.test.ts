/**
 * The gallery's main road on both engines (decision 037): the same app, once on a SQLite file and once on a real
 * PostgreSQL database (DATABASE_URL): a square reserved once however many ask at the same moment, a piece saved with
 * its picture and submitted, published by staff, then found where visitors look (the square's page, the tree's
 * snapshot and live changes, search), liked, and its artist told by e-mail; and a new PostgreSQL database seeded
 * with the demo, as `npm start` seeds a new SQLite file.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cells, trees, useTablesOf } from '#drizzle/tables.ts';
import { isPostgres } from '#server/open-database.ts';
import { seedDemo } from '#server/seed/demo.ts';
import { saveArt } from '#server/services/art/index.ts';
import { reserveCell } from '#server/services/reservations/index.ts';
import { publishArt } from '#server/services/review/index.ts';
import { likeArt } from '#server/services/social/index.ts';
import { createTree } from '#server/services/tree/index.ts';
import { Role } from '#shared/domain.ts';
import type { TreeSnapshotWire } from '#shared/tree/snapshot.ts';
import { png, validFields } from '#tests/helpers/art-fixtures.ts';
import { ENGINES } from '#tests/helpers/server/engines.ts';
import { postgresDatabase, type TestDatabase } from '#tests/helpers/server/postgres.ts';
import { mailsOf } from '#tests/helpers/server/review-fixtures.ts';
import { SEED_ROW } from '#tests/helpers/server/reservation-fixtures.ts';
import { createTestApp, type TestApp } from '#tests/helpers/server/test-app.ts';

describe.each(ENGINES)('the gallery on %s', (engine) => {
  let t: TestApp;
  let database: TestDatabase | null = null;

  beforeAll(async () => {
    if (engine === 'postgres') database = await postgresDatabase();
    t = await createTestApp(database ? { databaseUrl: database.url } : {});
  });

  afterAll(async () => {
    await t?.cleanup();
    useTablesOf('sqlite');
    await database?.drop();
  });

  it('takes a piece from a reserved square to the live tree, search, a like and the artist’s mail', async () => {
    const { db } = t.deps;
    expect(isPostgres(db)).toBe(engine === 'postgres');
    const tree = await createTree(db, t.clock.now(), 'Both engines');
    const [staff, fan, ...artists] = await Promise.all(
      [Role.Admin, Role.Observer, Role.Observer, Role.Observer, Role.Observer, Role.Observer].map((role) =>
        t.addUser(role),
      ),
    );
    const [square] = await db
      .select()
      .from(cells)
      .where(and(eq(cells.treeId, tree.id), eq(cells.row, SEED_ROW), eq(cells.column, 0)));

    // Four members ask for the same square at the same moment: one gets it, the others are told it is taken.
    const asked = await Promise.allSettled(artists.map((artist) => reserveCell(t.deps, artist.user, square!.token)));
    const won = asked.flatMap((outcome, i) => (outcome.status === 'fulfilled' ? [artists[i]!] : []));
    expect(won).toHaveLength(1);
    for (const outcome of asked)
      if (outcome.status === 'rejected') expect(outcome.reason).toMatchObject({ code: 'cell_taken' });
    const artist = won[0]!;

    const saved = await saveArt(t.deps, artist.user, square!.token, {
      fields: validFields({ title: 'Heron at dusk', keywords: ['heron', 'river'] }),
      slots: [{ file: await png(64, 48, '#884422') }],
      submit: true,
    });
    const artToken = saved.art!.token;
    const versionOf = async () =>
      (await db.select({ version: trees.version }).from(trees).where(eq(trees.id, tree.id)))[0]!.version;
    const before = await versionOf();
    const published = await publishArt(t.deps, staff!.user, artToken);
    expect(published.cellToken).toBe(square!.token);

    const page = await t.server.inject({ url: `/api/cell/${square!.token}` });
    expect(page.statusCode).toBe(200);
    expect(JSON.stringify(page.json())).toContain('Heron at dusk');

    expect(await versionOf()).toBeGreaterThan(before);
    const snapshot = await t.server.inject({ url: `/api/tree/${tree.token}` });
    expect(snapshot.statusCode).toBe(200);
    expect((snapshot.json() as { r: TreeSnapshotWire }).r.count).toBeGreaterThan(0);
    const changes = await t.server.inject({ url: `/api/tree/${tree.token}/changes?since=${before}` });
    expect(changes.statusCode).toBe(200);
    expect(JSON.stringify(changes.json())).toContain(square!.token);

    const found = await t.server.inject({ url: '/api/cells/search?search=hero' });
    expect(found.statusCode).toBe(200);
    expect(JSON.stringify(found.json())).toContain(artToken);
    const nothing = await t.server.inject({ url: '/api/cells/search?search=kingfisher' });
    expect(JSON.stringify(nothing.json())).not.toContain(artToken);

    expect(await likeArt(t.deps, fan!.user, artToken)).toMatchObject({ liked: 1, likes: 1 });
    expect(await likeArt(t.deps, fan!.user, artToken)).toMatchObject({ liked: 1, likes: 1 });

    const mails = await mailsOf(t);
    expect(mails.some((mail) => mail.to === artist.user.email && /Heron at dusk/.test(mail.text))).toBe(true);
  });
});

describe('a new PostgreSQL database', () => {
  it('is seeded with the demo as on SQLite: its tree, people and pieces, in one transaction', async () => {
    const database = await postgresDatabase();
    const t = await createTestApp({ databaseUrl: database.url });
    try {
      const seeded = await seedDemo(t.deps, { pieces: 8, artists: 4, seed: 7, pictureSize: 128 });
      expect(seeded.published).toBe(8);
      expect(seeded.artists).toBe(4);
      const [tree] = await t.deps.db.select().from(trees).where(eq(trees.token, seeded.treeToken));
      const snapshot = await t.server.inject({ url: `/api/tree/${tree!.token}` });
      expect(snapshot.statusCode).toBe(200);
      const found = await t.server.inject({ url: '/api/cells/search?search=light' });
      expect(found.statusCode).toBe(200);
    } finally {
      await t.cleanup();
      useTablesOf('sqlite');
      await database.drop();
    }
  }, 60_000);
});
