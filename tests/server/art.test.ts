/**
 * Art over real HTTP (issue 7): the multipart save with its every bad input (each answers its message and stores
 * nothing, neither row nor file), edit access refused by the server, and the whole path from a reserved square to a
 * published piece with connections, likes and views.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { art, cells, removalRequests, reservations, users } from '#drizzle/schema.ts';
import { ArtStatus, CellStatus, Role } from '#shared/domain.ts';
import { MESSAGES } from '#shared/validation/rules.ts';
import { ART_MESSAGES } from '#shared/validation/art.ts';
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
  type FormFile,
} from '../helpers/art-fixtures.ts';

const SEED_ROW = 33;

let t: TestApp;
let treeId: number;
let author: ReturnType<TestApp['addUser']>;
let reservedToken: string;
let pngBytes: Buffer;

beforeAll(async () => {
  t = await createTestApp();
  treeId = createTree(t.deps.db, t.clock.now(), 'Art').id;
  author = t.addUser(Role.Observer);
  reservedToken = cellAt(t.deps.db, treeId, SEED_ROW, 2).token;
  reserveCell(t.deps, author.user, reservedToken);
  pngBytes = await png();
}, 60_000);
afterAll(() => t.cleanup());

const pngFile = (bytes: Buffer = pngBytes, name = 'main.png'): FormFile => ({ bytes, name, type: 'image/png' });

describe('saving art refuses every bad input and stores nothing', () => {
  const cases: { name: string; form: () => Promise<FormData>; status: number; field: string; message: string }[] = [
    {
      name: 'a file over 16 MB',
      form: async () => {
        const huge = Buffer.alloc(16 * 1024 * 1024 + 10, 0);
        pngBytes.copy(huge);
        return artForm(validFields(), [pngFile(huge, 'huge.png')]);
      },
      status: 413,
      field: 'files.0',
      message: ART_MESSAGES.imageTooBig,
    },
    {
      name: 'a fourth image',
      form: async () =>
        artForm(validFields(), [
          pngFile(),
          pngFile(await png(30, 30, '#111111')),
          pngFile(await png(31, 30)),
          pngFile(await png(32, 30)),
        ]),
      status: 400,
      field: 'files',
      message: ART_MESSAGES.tooManyImages,
    },
    {
      name: 'a text file renamed .png',
      form: async () => artForm(validFields(), [pngFile(Buffer.from('just some words, not a picture\n'), 'notes.png')]),
      status: 400,
      field: 'files.0',
      message: ART_MESSAGES.imageType,
    },
    {
      name: 'a PNG header with a broken body',
      form: async () => {
        const broken = Buffer.concat([pngBytes.subarray(0, 41), Buffer.alloc(400, 0x5a)]);
        return artForm(validFields(), [pngFile(broken, 'broken.png')]);
      },
      status: 400,
      field: 'files.0',
      message: ART_MESSAGES.imageUnreadable,
    },
    {
      name: 'a 20000×20000 image',
      form: async () => {
        const bomb = await sharp({
          create: { width: 20000, height: 20000, channels: 3, background: '#808080' },
          limitInputPixels: false,
        })
          .png({ compressionLevel: 9 })
          .toBuffer();
        return artForm(validFields(), [pngFile(bomb, 'bomb.png')]);
      },
      status: 400,
      field: 'files.0',
      message: ART_MESSAGES.imageTooManyPixels,
    },
    {
      name: 'a title over 255',
      form: async () => artForm(validFields({ title: 'x'.repeat(256) }), [pngFile()]),
      status: 400,
      field: 'title',
      message: MESSAGES.maxLength(255),
    },
    {
      name: '11 keywords',
      form: async () =>
        artForm(validFields({ keywords: Array.from({ length: 11 }, (_, i) => `word${i}`) }), [pngFile()]),
      status: 400,
      field: 'keywords',
      message: ART_MESSAGES.tooManyKeywords,
    },
    {
      name: 'a 49-character keyword',
      form: async () => artForm(validFields({ keywords: ['k'.repeat(49)] }), [pngFile()]),
      status: 400,
      field: 'keywords',
      message: ART_MESSAGES.keywordTooLong,
    },
    {
      name: 'a sixth medium',
      form: async () =>
        artForm(validFields({ medium: ['Oil', 'Acrylic', 'Ink/Pen', 'Wax', 'Wood', 'Paper'] }), [pngFile()]),
      status: 400,
      field: 'medium',
      message: ART_MESSAGES.tooManyMedium,
    },
    {
      name: 'a 9-character dimension',
      form: async () => artForm(validFields({ width: '123456789' }), [pngFile()]),
      status: 400,
      field: 'width',
      message: MESSAGES.maxLength(8),
    },
    {
      name: 'units other than in or cm',
      form: async () => artForm(validFields({ units: 'mm' }), [pngFile()]),
      status: 400,
      field: 'units',
      message: ART_MESSAGES.units,
    },
    {
      name: 'a year after this one',
      form: async () => artForm(validFields({ year: '2027' }), [pngFile()]),
      status: 400,
      field: 'year',
      message: ART_MESSAGES.year,
    },
    {
      name: 'a year over 100 years back',
      form: async () => artForm(validFields({ year: '1925' }), [pngFile()]),
      status: 400,
      field: 'year',
      message: ART_MESSAGES.year,
    },
    {
      name: 'a missing ai_use',
      form: async () => artForm(validFields({ ai_use: '' }), [pngFile()]),
      status: 400,
      field: 'ai_use',
      message: MESSAGES.blank('AI use'),
    },
    {
      name: 'no main image',
      form: async () => artForm(validFields()),
      status: 400,
      field: 'files.0',
      message: ART_MESSAGES.imageBlank,
    },
  ];

  for (const c of cases) {
    it(`refuses ${c.name}`, async () => {
      const browser = await browserFor(t, author.cookie);
      const before = storedState(t.deps.db, t.deps.config.mediaDir);
      const answer = await postForm(t, browser, `/api/cell/${reservedToken}`, await c.form());
      expect(answer.status).toBe(c.status);
      expect(answer.body.r.errors?.[c.field]).toEqual([c.message]);
      expect(storedState(t.deps.db, t.deps.config.mediaDir)).toEqual(before);
    });
  }

  it('refuses a selected connection without a description, and stores nothing', async () => {
    const browser = await browserFor(t, author.cookie);
    const neighbour = cellAt(t.deps.db, treeId, SEED_ROW - 1, 2).token;
    const before = storedState(t.deps.db, t.deps.config.mediaDir);
    const answer = await browser.post(`/api/cell/${reservedToken}/connections`, {
      connections: [{ token: neighbour, status: 1, description: '  ' }],
    });
    expect(answer.status).toBe(400);
    expect(answer.body.r.errors['connections.0.description']).toEqual([ART_MESSAGES.connectionDescription]);
    expect(storedState(t.deps.db, t.deps.config.mediaDir)).toEqual(before);
  });
});

// Who may edit a piece: docs/product.md, Who may do what (`mayEditArt`).
describe('edit access is the server’s to refuse', () => {
  it("refuses editing someone else's piece", async () => {
    const stranger = t.addUser(Role.Artist);
    const browser = await browserFor(t, stranger.cookie);
    const before = storedState(t.deps.db, t.deps.config.mediaDir);
    const answer = await postForm(t, browser, `/api/cell/${reservedToken}`, artForm(validFields(), [pngFile()]));
    expect(answer.status).toBe(403);
    expect(answer.body.r.error).toBe('forbidden');
    expect(storedState(t.deps.db, t.deps.config.mediaDir)).toEqual(before);
    expect((await browser.get(`/api/cell/${reservedToken}/art/edit`)).body.r).toMatchObject({
      may_edit: false,
      art: null,
    });
  });

  it('refuses art in a square one has not reserved (a pending square)', async () => {
    const someone = t.addUser(Role.Observer);
    const browser = await browserFor(t, someone.cookie);
    const pending = cellAt(t.deps.db, treeId, 20, 1).token;
    const before = storedState(t.deps.db, t.deps.config.mediaDir);
    const answer = await postForm(t, browser, `/api/cell/${pending}`, artForm(validFields(), [pngFile()]));
    expect(answer.status).toBe(403);
    expect(storedState(t.deps.db, t.deps.config.mediaDir)).toEqual(before);
  });

  it('refuses guests', async () => {
    const browser = await browserFor(t);
    const answer = await postForm(t, browser, `/api/cell/${reservedToken}`, artForm(validFields(), [pngFile()]));
    expect(answer.status).toBe(401);
  });

  it('takes an available square with no piece through a reservation (any signed-in user)', async () => {
    const someone = t.addUser(Role.Observer);
    const browser = await browserFor(t, someone.cookie);
    const free = cellAt(t.deps.db, treeId, SEED_ROW + 1, 4).token;
    const answer = await postForm(
      t,
      browser,
      `/api/cell/${free}`,
      artForm(validFields(), [pngFile(await png(20, 20, '#abcdef'))]),
    );
    expect(answer.status).toBe(200);
    expect(answer.body.r.art.status).toBe(ArtStatus.Draft);
    const held = t.deps.db.select().from(reservations).where(eq(reservations.userId, someone.user.id)).get();
    expect(held?.state).toBe('active');
    expect(cellAt(t.deps.db, treeId, SEED_ROW + 1, 4).status).toBe(CellStatus.Reserved);
  });
});

describe('a save on an available square is all or nothing', () => {
  it('leaves no reservation, draft or file when the fields are refused', async () => {
    const someone = t.addUser(Role.Observer);
    const browser = await browserFor(t, someone.cookie);
    const free = cellAt(t.deps.db, treeId, SEED_ROW + 1, 0).token;
    const before = storedState(t.deps.db, t.deps.config.mediaDir);
    const answer = await postForm(
      t,
      browser,
      `/api/cell/${free}`,
      artForm(validFields({ title: '' }), [pngFile(await png(21, 20, '#123456'))]),
    );
    expect(answer.status).toBe(400);
    expect(answer.body.r.errors.title).toEqual([MESSAGES.blank('Title')]);
    expect(storedState(t.deps.db, t.deps.config.mediaDir)).toEqual(before);
    expect(cellAt(t.deps.db, treeId, SEED_ROW + 1, 0).status).toBe(CellStatus.Available);
  });

  it('takes the reservation back when writing the rows fails after it', async () => {
    const someone = t.addUser(Role.Observer);
    const browser = await browserFor(t, someone.cookie);
    const free = cellAt(t.deps.db, treeId, SEED_ROW + 1, 1).token;
    const before = storedState(t.deps.db, t.deps.config.mediaDir);
    // A real failure of the database after the reservation's rows are written: the picture row is refused.
    const sqlite = t.deps.db.$client;
    sqlite.exec(
      "CREATE TRIGGER refuse_pictures BEFORE INSERT ON pictures BEGIN SELECT RAISE(ABORT, 'pictures refused'); END",
    );
    try {
      const answer = await postForm(
        t,
        browser,
        `/api/cell/${free}`,
        artForm(validFields(), [pngFile(await png(22, 20, '#654321'))]),
      );
      expect(answer.status).toBe(500);
    } finally {
      sqlite.exec('DROP TRIGGER refuse_pictures');
    }
    expect(storedState(t.deps.db, t.deps.config.mediaDir)).toEqual(before);
    expect(cellAt(t.deps.db, treeId, SEED_ROW + 1, 1).status).toBe(CellStatus.Available);
    // The square is still free for the next try, which now succeeds.
    const retry = await postForm(
      t,
      browser,
      `/api/cell/${free}`,
      artForm(validFields(), [pngFile(await png(22, 20, '#654321'))]),
    );
    expect(retry.status).toBe(200);
  });
});

describe('from a reserved square to a published piece', () => {
  it('uploads, submits, connects, and shows details with likes and views', async () => {
    const db = t.deps.db;
    const mediaDir = t.deps.config.mediaDir;
    const browser = await browserFor(t, author.cookie);
    // A published neighbour to connect to (diagonal, one row up).
    const neighbourOwner = t.addUser(Role.Artist);
    const neighbour = publishedPieceAt(db, treeId, SEED_ROW - 1, 3, neighbourOwner.user.id, 'f'.repeat(32));

    // Two images, saved as a draft first.
    const jpeg = await jpegWithGps();
    expect((await sharp(jpeg).metadata()).exif).toBeDefined();
    const draft = await postForm(
      t,
      browser,
      `/api/cell/${reservedToken}`,
      artForm(validFields(), [pngFile(), { bytes: jpeg, name: 'photo.jpg', type: 'image/jpeg' }]),
    );
    expect(draft.status).toBe(200);
    const saved = draft.body.r;
    expect(saved.art.status).toBe(ArtStatus.Draft);
    expect(saved.art.pictures).toHaveLength(2);
    for (const picture of saved.art.pictures) {
      expect(picture.thumb).toMatch(/^\/media\/[0-9a-f]{32}-thumb\.webp$/);
      expect(picture.image).toMatch(/^\/media\/[0-9a-f]{32}-large\.webp$/);
      for (const url of [picture.thumb, picture.image]) {
        const file = path.join(mediaDir, path.basename(url));
        expect(fs.existsSync(file)).toBe(true);
        const meta = await sharp(file).metadata();
        expect(meta.format).toBe('webp');
        expect(meta.exif).toBeUndefined();
      }
    }
    const served = await t.server.inject({ url: saved.art.pictures[1].image });
    expect(served.statusCode).toBe(200);
    expect(String(served.headers['cache-control'])).toContain('immutable');

    // Submit for review, keeping both pictures by token: no new file.
    const filesBefore = fs.readdirSync(mediaDir).sort();
    const kept = saved.art.pictures.map((p: { token: string }) => p.token);
    const submitted = await postForm(
      t,
      browser,
      `/api/cell/${reservedToken}`,
      artForm(validFields({ submit: '1', title: 'Blue Hour II' }), [], kept),
    );
    expect(submitted.status).toBe(200);
    expect(submitted.body.r.art).toMatchObject({ status: ArtStatus.Submitted, title: 'Blue Hour II' });
    expect(submitted.body.r.art.pictures.map((p: { token: string }) => p.token)).toEqual(kept);
    expect(fs.readdirSync(mediaDir).sort()).toEqual(filesBefore);
    expect(db.select({ role: users.role }).from(users).where(eq(users.id, author.user.id)).get()!.role).toBe(
      Role.Artist,
    );
    const cellId = cellAt(db, treeId, SEED_ROW, 2).id;
    expect(
      db.select({ state: reservations.state }).from(reservations).where(eq(reservations.cellId, cellId)).get()!.state,
    ).toBe('submitted');

    // Connections: the published neighbour is offered; choosing it needs a description.
    const offered = await browser.get(`/api/cell/${reservedToken}/connections`);
    expect(offered.body.r).toEqual([
      expect.objectContaining({ token: neighbour.cellToken, status: 0, description: '' }),
    ]);
    const connected = await browser.post(`/api/cell/${reservedToken}/connections`, {
      connections: [{ token: neighbour.cellToken, status: 1, description: 'Both watch the same river.' }],
    });
    expect(connected.status).toBe(200);
    expect(connected.body.r[0]).toMatchObject({ status: 1, description: 'Both watch the same river.' });

    // Waiting for review: the author sees it, others get a 404.
    const visitor = await browserFor(t, t.addUser(Role.Observer).cookie);
    expect((await browser.get(`/api/cell/${reservedToken}/art`)).body.r.status).toBe(ArtStatus.Submitted);
    expect((await visitor.get(`/api/cell/${reservedToken}/art`)).status).toBe(404);

    // Published (issue 8 will do this through review).
    const artRow = db.select().from(art).where(eq(art.cellId, cellId)).get()!;
    db.update(art).set({ status: ArtStatus.Published }).where(eq(art.id, artRow.id)).run();
    db.update(cells).set({ status: CellStatus.Published }).where(eq(cells.id, cellId)).run();

    const details = (await visitor.get(`/api/cell/${reservedToken}/art`)).body.r;
    expect(details).toMatchObject({
      title: 'Blue Hour II',
      year: 2024,
      ai_use: 'none',
      status: ArtStatus.Published,
      author: { token: author.user.token, firstname: author.user.firstname },
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
      expect.objectContaining({ token: reservedToken, description: 'Both watch the same river.' }),
    ]);

    // Likes: once, liking again changes nothing; not one's own; not for guests.
    const artToken = details.token;
    expect((await visitor.request('PUT', `/api/art/${artToken}/like`)).body.r).toEqual({ liked: 1, likes: 1 });
    expect((await visitor.request('PUT', `/api/art/${artToken}/like`)).body.r).toEqual({ liked: 1, likes: 1 });
    expect((await visitor.get(`/api/art/${artToken}/like`)).body.r).toEqual({ liked: 1, likes: 1 });
    const own = await browser.request('PUT', `/api/art/${artToken}/like`);
    expect(own.status).toBe(403);
    expect(own.body.r.error).toBe('own_art');
    const guest = await browserFor(t);
    expect((await guest.request('PUT', `/api/art/${artToken}/like`)).status).toBe(401);

    // Views: once per viewer, however often they look.
    for (let i = 0; i < 3; i++) await visitor.request('PUT', `/api/art/${artToken}/review`);
    expect((await visitor.request('PUT', `/api/art/${artToken}/review`)).body.r).toEqual({ reviews: 1 });
    await guest.request('PUT', `/api/art/${artToken}/review`);
    expect((await guest.request('PUT', `/api/art/${artToken}/review`)).body.r).toEqual({ reviews: 2 });
    expect((await guest.get(`/api/cell/${reservedToken}/art`)).body.r.activity).toEqual({ likes: 1, reviews: 2 });

    // Unlike.
    expect((await visitor.request('DELETE', `/api/art/${artToken}/like`)).body.r).toEqual({ liked: 0, likes: 0 });

    // Published: texts stay editable by the author, the main image does not.
    const texts = await postForm(
      t,
      browser,
      `/api/cell/${reservedToken}`,
      artForm(validFields({ title: 'Blue Hour III' }), [], kept),
    );
    expect(texts.status).toBe(200);
    expect(texts.body.r.art).toMatchObject({
      title: 'Blue Hour III',
      status: ArtStatus.Published,
      main_image_locked: true,
    });
    const before = storedState(db, mediaDir);
    const swap = await postForm(
      t,
      browser,
      `/api/cell/${reservedToken}`,
      artForm(validFields(), [pngFile(await gif())]),
    );
    expect(swap.status).toBe(403);
    expect(swap.body.r.error).toBe('main_image_locked');
    expect(storedState(db, mediaDir)).toEqual(before);
    // An admin may change it.
    const admin = await browserFor(t, t.addUser(Role.Admin).cookie);
    const adminSwap = await postForm(
      t,
      admin,
      `/api/cell/${reservedToken}`,
      artForm(validFields(), [{ bytes: await gif(), name: 'new.gif', type: 'image/gif' }], [null, kept[1]]),
    );
    expect(adminSwap.status).toBe(200);
    expect(adminSwap.body.r.art.pictures).toHaveLength(2);
    expect(adminSwap.body.r.art.pictures[1].token).toBe(kept[1]);
  });

  it("stores the author's removal request for staff, once, and refuses it to anyone else", async () => {
    const browser = await browserFor(t, author.cookie);
    const first = await browser.post(`/api/cell/${reservedToken}/removal`, { reason: 'I painted over it.' });
    expect(first.status).toBe(200);
    expect(first.body.r).toMatchObject({ state: 'open' });
    const again = await browser.post(`/api/cell/${reservedToken}/removal`, { reason: 'Again.' });
    expect(again.body.r.token).toBe(first.body.r.token);
    const stored = t.deps.db.select().from(removalRequests).all();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ reason: 'I painted over it.', requesterId: author.user.id, state: 'open' });
    expect((await browser.get(`/api/cell/${reservedToken}/art`)).body.r.removal_request).toMatchObject({
      token: first.body.r.token,
    });

    const stranger = await browserFor(t, t.addUser(Role.Observer).cookie);
    const refused = await stranger.post(`/api/cell/${reservedToken}/removal`, { reason: 'I do not like it.' });
    expect(refused.status).toBe(403);
    expect((await stranger.get(`/api/cell/${reservedToken}/art`)).body.r.removal_request).toBeNull();
    expect(t.deps.db.select().from(removalRequests).all()).toHaveLength(1);
  });

  it('answers a shared details link with Open Graph tags of a published piece only', async () => {
    const page = await t.server.inject({ url: `/observe/cell/${reservedToken}/details` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(
      `<meta property="og:title" content="Blue Hour (2024) by ${author.user.firstname} ${author.user.lastname}">`,
    );
    expect(page.body).toMatch(/<meta property="og:image" content="http[^"]+\/media\/[0-9a-f]{32}-large\.webp">/);
    expect(page.body).toContain('<meta name="csrf-token"');
    const pending = await t.server.inject({ url: `/observe/cell/${cellAt(t.deps.db, treeId, 20, 3).token}/details` });
    expect(pending.statusCode).toBe(200);
    expect(pending.body).not.toContain('og:title');
    expect((await t.server.inject({ url: '/observe/cell/not-a-token/details' })).body).not.toContain('og:title');
  });
});

describe('views of a piece', () => {
  it('count a guest once a day by their address, whatever User-Agent they send; an IPv6 guest by their /64', async () => {
    const piece = publishedPieceAt(t.deps.db, treeId, SEED_ROW - 12, 4, author.user.id, 'v'.repeat(32));
    const csrf = 'v'.repeat(32);
    const view = async (remoteAddress: string, userAgent: string) =>
      (
        await t.server.inject({
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
    t.clock.advance(24 * 60 * 60_000);
    expect(await view('198.51.100.7', 'Agent/0')).toBe(5);
  });
});
