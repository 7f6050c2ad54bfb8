/**
 * Art over real HTTP: the whole path from a reserved square to a published piece with connections, likes
 * and views, and how views of a piece are counted. The refused saves are in art-save-refusals.test.ts.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { art, cells, removalRequests, reservations, users } from '#drizzle/tables.ts';
import { ArtStatus, CellStatus, Role } from '#shared/domain.ts';
import {
  artForm,
  browserFor,
  cellAt,
  gif,
  jpegWithGps,
  postForm,
  publishedPieceAt,
  storedState,
  validFields,
} from '../helpers/art-fixtures.ts';
import { SEED_ROW, useArtApp } from '#tests/helpers/server/art-app.ts';
import { storedFiles } from '#tests/helpers/server/media-files.ts';
import { oneRow } from '#tests/helpers/server/rows.ts';

const app = useArtApp();

describe('from a reserved square to a published piece', () => {
  it('uploads, submits, connects, and shows details with likes and views', async () => {
    const db = app.t.deps.db;
    const { media } = app.t.deps;
    const browser = await browserFor(app.t, app.author.cookie);
    // A published neighbour to connect to (diagonal, one row up).
    const neighbourOwner = await app.t.addUser(Role.Artist);
    const neighbour = await publishedPieceAt(db, app.treeId, SEED_ROW - 1, 3, neighbourOwner.user.id, 'f'.repeat(32));

    // Two images, saved as a draft first.
    const jpeg = await jpegWithGps();
    expect((await sharp(jpeg).metadata()).exif).toBeDefined();
    const draft = await postForm(
      app.t,
      browser,
      `/api/cell/${app.reservedToken}`,
      artForm(validFields(), [app.pngFile(), { bytes: jpeg, name: 'photo.jpg', type: 'image/jpeg' }]),
    );
    expect(draft.status).toBe(200);
    const saved = draft.body.r;
    expect(saved.art.status).toBe(ArtStatus.Draft);
    expect(saved.art.pictures).toHaveLength(2);
    for (const picture of saved.art.pictures) {
      expect(picture.thumb).toMatch(/^\/media\/[0-9a-f]{32}-thumb\.webp$/);
      expect(picture.image).toMatch(/^\/media\/[0-9a-f]{32}-large\.webp$/);
      for (const url of [picture.thumb, picture.image]) {
        const file = await media.get(path.basename(url));
        expect(file).not.toBeNull();
        const meta = await sharp(file!).metadata();
        expect(meta.format).toBe('webp');
        expect(meta.exif).toBeUndefined();
      }
    }
    const served = await app.t.server.inject({ url: saved.art.pictures[1].image });
    expect(served.statusCode).toBe(200);
    expect(String(served.headers['cache-control'])).toContain('immutable');

    // Submit for review, keeping both pictures by token: no new file.
    const filesBefore = await storedFiles(media);
    const kept = saved.art.pictures.map((p: { token: string }) => p.token);
    const submitted = await postForm(
      app.t,
      browser,
      `/api/cell/${app.reservedToken}`,
      artForm(validFields({ submit: '1', title: 'Blue Hour II' }), [], kept),
    );
    expect(submitted.status).toBe(200);
    expect(submitted.body.r.art).toMatchObject({ status: ArtStatus.Submitted, title: 'Blue Hour II' });
    expect(submitted.body.r.art.pictures.map((p: { token: string }) => p.token)).toEqual(kept);
    expect(await storedFiles(media)).toEqual(filesBefore);
    expect(
      (await oneRow(db.select({ role: users.role }).from(users).where(eq(users.id, app.author.user.id)))).role,
    ).toBe(Role.Artist);
    const cellId = (await cellAt(db, app.treeId, SEED_ROW, 2)).id;
    expect(
      (await oneRow(db.select({ state: reservations.state }).from(reservations).where(eq(reservations.cellId, cellId))))
        .state,
    ).toBe('submitted');

    // Connections: the published neighbour is offered; choosing it needs a description.
    const offered = await browser.get(`/api/cell/${app.reservedToken}/connections`);
    expect(offered.body.r).toEqual([
      expect.objectContaining({ token: neighbour.cellToken, status: 0, description: '' }),
    ]);
    const connected = await browser.post(`/api/cell/${app.reservedToken}/connections`, {
      connections: [{ token: neighbour.cellToken, status: 1, description: 'Both watch the same river.' }],
    });
    expect(connected.status).toBe(200);
    expect(connected.body.r[0]).toMatchObject({ status: 1, description: 'Both watch the same river.' });

    // Waiting for review: the author sees it, others get a 404.
    const visitor = await browserFor(app.t, (await app.t.addUser(Role.Observer)).cookie);
    expect((await browser.get(`/api/cell/${app.reservedToken}/art`)).body.r.status).toBe(ArtStatus.Submitted);
    expect((await visitor.get(`/api/cell/${app.reservedToken}/art`)).status).toBe(404);

    // Published directly (the review tests publish through review).
    const artRow = await oneRow(db.select().from(art).where(eq(art.cellId, cellId)));
    await db.update(art).set({ status: ArtStatus.Published }).where(eq(art.id, artRow.id));
    await db.update(cells).set({ status: CellStatus.Published }).where(eq(cells.id, cellId));

    const details = (await visitor.get(`/api/cell/${app.reservedToken}/art`)).body.r;
    expect(details).toMatchObject({
      title: 'Blue Hour II',
      year: 2024,
      ai_use: 'none',
      status: ArtStatus.Published,
      author: { token: app.author.user.token, firstname: app.author.user.firstname },
      activity: { likes: 0, reviews: 0 },
      may_edit: false,
    });
    expect(details.pictures).toHaveLength(2);
    expect(details.connections).toEqual([
      expect.objectContaining({ token: neighbour.cellToken, description: 'Both watch the same river.' }),
    ]);
    // The connection shows on the other piece's details too.
    const other = (await visitor.get(`/api/cell/${neighbour.cellToken}/connections/active`)).body.r;
    expect(other).toEqual([
      expect.objectContaining({ token: app.reservedToken, description: 'Both watch the same river.' }),
    ]);

    // Likes: once, liking again changes nothing; not one's own; not for guests.
    const artToken = details.token;
    expect((await visitor.request('PUT', `/api/art/${artToken}/like`)).body.r).toEqual({ liked: 1, likes: 1 });
    expect((await visitor.request('PUT', `/api/art/${artToken}/like`)).body.r).toEqual({ liked: 1, likes: 1 });
    expect((await visitor.get(`/api/art/${artToken}/like`)).body.r).toEqual({ liked: 1, likes: 1 });
    const own = await browser.request('PUT', `/api/art/${artToken}/like`);
    expect(own.status).toBe(403);
    expect(own.body.r.error).toBe('own_art');
    const guest = await browserFor(app.t);
    expect((await guest.request('PUT', `/api/art/${artToken}/like`)).status).toBe(401);

    // Views: once per viewer, however often they look.
    for (let i = 0; i < 3; i++) await visitor.request('PUT', `/api/art/${artToken}/review`);
    expect((await visitor.request('PUT', `/api/art/${artToken}/review`)).body.r).toEqual({ reviews: 1 });
    await guest.request('PUT', `/api/art/${artToken}/review`);
    expect((await guest.request('PUT', `/api/art/${artToken}/review`)).body.r).toEqual({ reviews: 2 });
    expect((await guest.get(`/api/cell/${app.reservedToken}/art`)).body.r.activity).toEqual({ likes: 1, reviews: 2 });

    // Unlike.
    expect((await visitor.request('DELETE', `/api/art/${artToken}/like`)).body.r).toEqual({ liked: 0, likes: 0 });

    // Published: texts stay editable by the author, the main image does not.
    const texts = await postForm(
      app.t,
      browser,
      `/api/cell/${app.reservedToken}`,
      artForm(validFields({ title: 'Blue Hour III' }), [], kept),
    );
    expect(texts.status).toBe(200);
    expect(texts.body.r.art).toMatchObject({
      title: 'Blue Hour III',
      status: ArtStatus.Published,
      main_image_locked: true,
    });
    const before = await storedState(db, media);
    const swap = await postForm(
      app.t,
      browser,
      `/api/cell/${app.reservedToken}`,
      artForm(validFields(), [app.pngFile(await gif())]),
    );
    expect(swap.status).toBe(403);
    expect(swap.body.r.error).toBe('main_image_locked');
    expect(await storedState(db, media)).toEqual(before);
    // Nor its other images, which staff reviewed too (decision 042): none added, replaced or removed.
    const newImage = { ...app.pngFile(await gif()), field: 'files[1]' };
    const attempts: [string, FormData][] = [
      ['a third image added', artForm(validFields(), [{ ...newImage, field: 'files[2]' }], kept)],
      ['the second image replaced', artForm(validFields(), [newImage], [kept[0]!])],
      ['the second image removed', artForm(validFields(), [], [kept[0]!])],
    ];
    for (const [what, form] of attempts) {
      const refused = await postForm(app.t, browser, `/api/cell/${app.reservedToken}`, form);
      expect({ what, status: refused.status, error: refused.body.r.error }).toEqual({
        what,
        status: 403,
        error: 'pictures_locked',
      });
      expect(Object.keys(refused.body.r.errors)).toEqual([expect.stringMatching(/^files\.[12]$/)]);
      expect(await storedState(db, media)).toEqual(before);
    }
    // Their descriptions are text, and stay the author's.
    const described = artForm(validFields(), [], kept);
    described.append('descriptions[1]', 'The same river, at dawn.');
    const redescribed = await postForm(app.t, browser, `/api/cell/${app.reservedToken}`, described);
    expect(redescribed.status).toBe(200);
    expect(redescribed.body.r.art.pictures[1]).toMatchObject({
      token: kept[1],
      description: 'The same river, at dawn.',
    });
    // An admin may change it.
    const admin = await browserFor(app.t, (await app.t.addUser(Role.Admin)).cookie);
    const adminSwap = await postForm(
      app.t,
      admin,
      `/api/cell/${app.reservedToken}`,
      artForm(validFields(), [{ bytes: await gif(), name: 'new.gif', type: 'image/gif' }], [null, kept[1]]),
    );
    expect(adminSwap.status).toBe(200);
    expect(adminSwap.body.r.art.pictures).toHaveLength(2);
    expect(adminSwap.body.r.art.pictures[1].token).toBe(kept[1]);
  });

  it("stores the author's removal request for staff, once, and refuses it to anyone else", async () => {
    const browser = await browserFor(app.t, app.author.cookie);
    const first = await browser.post(`/api/cell/${app.reservedToken}/removal`, { reason: 'I painted over it.' });
    expect(first.status).toBe(200);
    expect(first.body.r).toMatchObject({ state: 'open' });
    const again = await browser.post(`/api/cell/${app.reservedToken}/removal`, { reason: 'Again.' });
    expect(again.body.r.token).toBe(first.body.r.token);
    const stored = await app.t.deps.db.select().from(removalRequests);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ reason: 'I painted over it.', requesterId: app.author.user.id, state: 'open' });
    expect((await browser.get(`/api/cell/${app.reservedToken}/art`)).body.r.removal_request).toMatchObject({
      token: first.body.r.token,
    });

    const stranger = await browserFor(app.t, (await app.t.addUser(Role.Observer)).cookie);
    const refused = await stranger.post(`/api/cell/${app.reservedToken}/removal`, { reason: 'I do not like it.' });
    expect(refused.status).toBe(403);
    expect((await stranger.get(`/api/cell/${app.reservedToken}/art`)).body.r.removal_request).toBeNull();
    expect(await app.t.deps.db.select().from(removalRequests)).toHaveLength(1);
  });

  it('answers a shared details link with Open Graph tags of a published piece only', async () => {
    const page = await app.t.server.inject({ url: `/observe/cell/${app.reservedToken}/details` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(
      `<meta property="og:title" content="Blue Hour (2024) by ${app.author.user.firstname} ${app.author.user.lastname}">`,
    );
    expect(page.body).toMatch(/<meta property="og:image" content="http[^"]+\/media\/[0-9a-f]{32}-large\.webp">/);
    expect(page.body).toContain('<meta name="csrf-token"');
    const pending = await app.t.server.inject({
      url: `/observe/cell/${(await cellAt(app.t.deps.db, app.treeId, 20, 3)).token}/details`,
    });
    expect(pending.statusCode).toBe(200);
    expect(pending.body).not.toContain('og:title');
    expect((await app.t.server.inject({ url: '/observe/cell/not-a-token/details' })).body).not.toContain('og:title');
  });
});

describe('views of a piece', () => {
  it('count a guest once a day by their address, whatever User-Agent they send; an IPv6 guest by their /64', async () => {
    const piece = await publishedPieceAt(
      app.t.deps.db,
      app.treeId,
      SEED_ROW - 12,
      4,
      app.author.user.id,
      'v'.repeat(32),
    );
    const csrf = 'v'.repeat(32);
    const view = async (remoteAddress: string, userAgent: string) =>
      (
        await app.t.server.inject({
          method: 'PUT',
          url: `/api/art/${piece.artToken}/review`,
          remoteAddress,
          headers: {
            cookie: `csrf=${csrf}`,
            'x-requested-with': 'XMLHttpRequest',
            'x-csrf-token': csrf,
            'user-agent': userAgent,
          },
        })
      ).json().r.reviews as number;
    for (let i = 0; i < 50; i++) await view('198.51.100.7', `Agent/${i}`);
    expect(await view('198.51.100.7', 'Agent/50')).toBe(1);
    expect(await view('::ffff:198.51.100.7', 'Another')).toBe(1);
    expect(await view('198.51.100.8', 'Agent/0')).toBe(2);
    expect(await view('2001:db8:1:2::1', 'Six')).toBe(3);
    expect(await view('2001:db8:1:2:ffff::9', 'Six again')).toBe(3);
    expect(await view('2001:db8:1:3::1', 'Six')).toBe(4);
    // The next day counts again.
    app.t.clock.advance(24 * 60 * 60_000);
    expect(await view('198.51.100.7', 'Agent/0')).toBe(5);
  });
});
