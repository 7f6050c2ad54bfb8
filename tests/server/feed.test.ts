/**
 * GET /feed.xml: an Atom feed of the 50 pieces published last, newest first, with title, artist, details
 * link, thumbnail and times; user text escaped; nothing unpublished in it; every page links to it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { art } from '#drizzle/tables.ts';
import { ArtStatus, Role } from '#shared/domain.ts';
import { createTree } from '#server/services/tree/tree.ts';
import { createTestApp, type TestApp } from '#tests/helpers/server/test-app.ts';
import { publishedPieceAt } from '../helpers/art-fixtures.ts';
import { submitPieceAt } from '../helpers/server/review-fixtures.ts';

let t: TestApp;
let artist: Awaited<ReturnType<TestApp['addUser']>>;
const older: string[] = [];
let escaped: string;
let fresh: Awaited<ReturnType<typeof submitPieceAt>>;
let waiting: Awaited<ReturnType<typeof submitPieceAt>>;

const entriesOf = (xml: string) => xml.split('<entry>').slice(1);

beforeAll(async () => {
  t = await createTestApp();
  const treeId = (await createTree(t.deps.db, t.clock.now(), 'Feed')).id;
  artist = await t.addUser(Role.Artist);
  // 52 pieces published a minute apart on trunk squares, the newest last; then one published by staff just now.
  const base = t.clock.now() - 60 * 60_000;
  for (let i = 0; i < 52; i++) {
    const piece = await publishedPieceAt(
      t.deps.db,
      treeId,
      3 + Math.floor(i / 5),
      i % 5,
      artist.user.id,
      `feedkey${i}`,
    );
    await t.deps.db
      .update(art)
      .set({ publishedAt: base + i * 60_000, updatedAt: base + i * 60_000 })
      .where(eq(art.token, piece.artToken));
    older.push(piece.artToken);
  }
  escaped = older[51]!;
  await t.deps.db
    .update(art)
    .set({ title: 'Fish & <Chips> "quoted"', description: '</summary><script>x</script>' })
    .where(eq(art.token, escaped));
  fresh = await submitPieceAt(t, treeId, 33, 0, artist.user, 'Feed Fresh');
  waiting = await submitPieceAt(t, treeId, 33, 2, (await t.addUser(Role.Observer)).user, 'Still Waiting');
  await t.caller((await t.addUser(Role.Admin)).user).admin.publish({ artToken: fresh.artToken });
}, 60_000);
afterAll(() => t.cleanup());

describe('the Atom feed', () => {
  it('lists the 50 pieces published last, newest first, with what a feed reader shows', async () => {
    const res = await t.server.inject({ url: '/feed.xml' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/atom\+xml/);
    const xml = res.body;
    expect(xml.startsWith('<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">')).toBe(
      true,
    );
    const entries = entriesOf(xml);
    expect(entries).toHaveLength(50);

    const site = t.deps.config.siteUrl;
    const newest = entries[0]!;
    expect(newest).toContain(`<id>urn:gallery-tree:art:${fresh.artToken}</id>`);
    expect(newest).toContain('<title type="text">Feed Fresh</title>');
    expect(newest).toContain(
      `<link rel="alternate" type="text/html" href="${site}/observe/cell/${fresh.cellToken}/details"/>`,
    );
    expect(newest).toMatch(
      new RegExp(`<link rel="enclosure" type="image/webp" href="${site}/media/[^"]+-thumb\\.webp"/>`),
    );
    expect(newest).toContain(
      `<author><name>${artist.user.firstname} ${artist.user.lastname}</name><uri>${site}/profile/${artist.user.token}</uri></author>`,
    );
    expect(newest).toContain(`<published>${new Date(t.clock.now()).toISOString()}</published>`);
    expect(xml).toContain(`<updated>${new Date(t.clock.now()).toISOString()}</updated>\n  <entry>`);

    // The next 49 are the newest of the older pieces, newest first; the three oldest fell off.
    const ids = entries.slice(1).map((entry) => /<id>urn:gallery-tree:art:([^<]+)<\/id>/.exec(entry)![1]);
    expect(ids).toEqual(older.slice(3).reverse());
    expect(xml).not.toContain(waiting.artToken);
  });

  it('escapes what artists typed', async () => {
    const xml = (await t.server.inject({ url: '/feed.xml' })).body;
    const entry = entriesOf(xml).find((e) => e.includes(escaped))!;
    expect(entry).toContain('<title type="text">Fish &amp; &lt;Chips&gt; &quot;quoted&quot;</title>');
    expect(entry).toContain('<summary type="text">&lt;/summary&gt;&lt;script&gt;x&lt;/script&gt;</summary>');
    expect(xml).not.toContain('<script>');
  });

  it('drops a piece once it is removed', async () => {
    await t.deps.db.update(art).set({ status: ArtStatus.Removed }).where(eq(art.token, fresh.artToken));
    const xml = (await t.server.inject({ url: '/feed.xml' })).body;
    expect(xml).not.toContain(fresh.artToken);
    expect(entriesOf(xml)).toHaveLength(50);
    expect(xml).toContain(older[2]!);
  });

  it('is linked from every page', async () => {
    for (const url of ['/', '/observe']) {
      const html = (await t.server.inject({ url })).body;
      expect(html).toContain(
        '<link rel="alternate" type="application/atom+xml" title="Gallery Tree: new pieces" href="/feed.xml">',
      );
    }
  });
});
