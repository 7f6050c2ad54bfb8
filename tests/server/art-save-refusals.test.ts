/**
 * Saving art over real HTTP refused: every bad input of the multipart save answers its message and stores
 * nothing (neither row nor file), edit access is refused by the server, and a refused save on an available square
 * leaves nothing behind.
 */
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { reservations } from '#drizzle/tables.ts';
import { ArtStatus, CellStatus, Role } from '#shared/domain.ts';
import { MESSAGES } from '#shared/validation/rules.ts';
import { ART_MESSAGES } from '#shared/validation/art.ts';
import { artForm, browserFor, cellAt, png, postForm, storedState, validFields } from '../helpers/art-fixtures.ts';
import { SEED_ROW, useArtApp } from '#tests/helpers/server/art-app.ts';
import { firstRow } from '#tests/helpers/server/rows.ts';
import { wholePng } from '#tests/helpers/server/hostile-files.ts';
import { TEST_ENGINE } from '#tests/helpers/server/test-app.ts';

const app = useArtApp();

describe('saving art refuses every bad input and stores nothing', () => {
  const cases: { name: string; form: () => Promise<FormData>; status: number; field: string; message: string }[] = [
    {
      name: 'a file over 16 MB',
      form: async () => {
        const huge = Buffer.alloc(16 * 1024 * 1024 + 10, 0);
        app.pngBytes.copy(huge);
        return artForm(validFields(), [app.pngFile(huge, 'huge.png')]);
      },
      status: 413,
      field: 'files.0',
      message: ART_MESSAGES.imageTooBig,
    },
    {
      name: 'a fourth image',
      form: async () =>
        artForm(validFields(), [
          app.pngFile(),
          app.pngFile(await png(30, 30, '#111111')),
          app.pngFile(await png(31, 30)),
          app.pngFile(await png(32, 30)),
        ]),
      status: 400,
      field: 'files',
      message: ART_MESSAGES.tooManyImages,
    },
    {
      name: 'a text file renamed .png',
      form: async () =>
        artForm(validFields(), [app.pngFile(Buffer.from('just some words, not a picture\n'), 'notes.png')]),
      status: 400,
      field: 'files.0',
      message: ART_MESSAGES.imageType,
    },
    {
      name: 'a PNG header with a broken body',
      form: async () => {
        const broken = Buffer.concat([app.pngBytes.subarray(0, 41), Buffer.alloc(400, 0x5a)]);
        return artForm(validFields(), [app.pngFile(broken, 'broken.png')]);
      },
      status: 400,
      field: 'files.0',
      message: ART_MESSAGES.imageUnreadable,
    },
    {
      name: 'a 20000×20000 image',
      form: async () => artForm(validFields(), [app.pngFile(wholePng(20000, 20000), 'bomb.png')]),
      status: 400,
      field: 'files.0',
      message: ART_MESSAGES.imageTooManyPixels,
    },
    {
      name: 'a title over 255',
      form: async () => artForm(validFields({ title: 'x'.repeat(256) }), [app.pngFile()]),
      status: 400,
      field: 'title',
      message: MESSAGES.maxLength(255),
    },
    {
      name: '11 keywords',
      form: async () =>
        artForm(validFields({ keywords: Array.from({ length: 11 }, (_, i) => `word${i}`) }), [app.pngFile()]),
      status: 400,
      field: 'keywords',
      message: ART_MESSAGES.tooManyKeywords,
    },
    {
      name: 'a 49-character keyword',
      form: async () => artForm(validFields({ keywords: ['k'.repeat(49)] }), [app.pngFile()]),
      status: 400,
      field: 'keywords',
      message: ART_MESSAGES.keywordTooLong,
    },
    {
      name: 'a sixth medium',
      form: async () =>
        artForm(validFields({ medium: ['Oil', 'Acrylic', 'Ink/Pen', 'Wax', 'Wood', 'Paper'] }), [app.pngFile()]),
      status: 400,
      field: 'medium',
      message: ART_MESSAGES.tooManyMedium,
    },
    {
      name: 'a 9-character dimension',
      form: async () => artForm(validFields({ width: '123456789' }), [app.pngFile()]),
      status: 400,
      field: 'width',
      message: MESSAGES.maxLength(8),
    },
    {
      name: 'units other than in or cm',
      form: async () => artForm(validFields({ units: 'mm' }), [app.pngFile()]),
      status: 400,
      field: 'units',
      message: ART_MESSAGES.units,
    },
    {
      name: 'a year after this one',
      form: async () => artForm(validFields({ year: '2027' }), [app.pngFile()]),
      status: 400,
      field: 'year',
      message: ART_MESSAGES.year,
    },
    {
      name: 'a year over 100 years back',
      form: async () => artForm(validFields({ year: '1925' }), [app.pngFile()]),
      status: 400,
      field: 'year',
      message: ART_MESSAGES.year,
    },
    {
      name: 'a missing ai_use',
      form: async () => artForm(validFields({ ai_use: '' }), [app.pngFile()]),
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
      const browser = await browserFor(app.t, app.author.cookie);
      const before = await storedState(app.t.deps.db, app.t.deps.media);
      const answer = await postForm(app.t, browser, `/api/cell/${app.reservedToken}`, await c.form());
      expect(answer.status).toBe(c.status);
      expect(answer.body.r.errors?.[c.field]).toEqual([c.message]);
      expect(await storedState(app.t.deps.db, app.t.deps.media)).toEqual(before);
    });
  }

  it('refuses a selected connection without a description, and stores nothing', async () => {
    const browser = await browserFor(app.t, app.author.cookie);
    const neighbour = (await cellAt(app.t.deps.db, app.treeId, SEED_ROW - 1, 2)).token;
    const before = await storedState(app.t.deps.db, app.t.deps.media);
    const answer = await browser.post(`/api/cell/${app.reservedToken}/connections`, {
      connections: [{ token: neighbour, status: 1, description: '  ' }],
    });
    expect(answer.status).toBe(400);
    expect(answer.body.r.errors['connections.0.description']).toEqual([ART_MESSAGES.connectionDescription]);
    expect(await storedState(app.t.deps.db, app.t.deps.media)).toEqual(before);
  });
});

// Who may edit a piece: docs/product.md, Who may do what (`mayEditArt`).
describe('edit access is the server’s to refuse', () => {
  it("refuses editing someone else's piece", async () => {
    const stranger = await app.t.addUser(Role.Artist);
    const browser = await browserFor(app.t, stranger.cookie);
    const before = await storedState(app.t.deps.db, app.t.deps.media);
    const answer = await postForm(
      app.t,
      browser,
      `/api/cell/${app.reservedToken}`,
      artForm(validFields(), [app.pngFile()]),
    );
    expect(answer.status).toBe(403);
    expect(answer.body.r.error).toBe('forbidden');
    expect(await storedState(app.t.deps.db, app.t.deps.media)).toEqual(before);
    expect((await browser.get(`/api/cell/${app.reservedToken}/art/edit`)).body.r).toMatchObject({
      may_edit: false,
      art: null,
    });
  });

  it('refuses art in a square one has not reserved (a pending square)', async () => {
    const someone = await app.t.addUser(Role.Observer);
    const browser = await browserFor(app.t, someone.cookie);
    const pending = (await cellAt(app.t.deps.db, app.treeId, 20, 1)).token;
    const before = await storedState(app.t.deps.db, app.t.deps.media);
    const answer = await postForm(app.t, browser, `/api/cell/${pending}`, artForm(validFields(), [app.pngFile()]));
    expect(answer.status).toBe(403);
    expect(await storedState(app.t.deps.db, app.t.deps.media)).toEqual(before);
  });

  it('refuses guests', async () => {
    const browser = await browserFor(app.t);
    const answer = await postForm(
      app.t,
      browser,
      `/api/cell/${app.reservedToken}`,
      artForm(validFields(), [app.pngFile()]),
    );
    expect(answer.status).toBe(401);
  });

  it('takes an available square with no piece through a reservation (any signed-in user)', async () => {
    const someone = await app.t.addUser(Role.Observer);
    const browser = await browserFor(app.t, someone.cookie);
    const free = (await cellAt(app.t.deps.db, app.treeId, SEED_ROW + 1, 4)).token;
    const answer = await postForm(
      app.t,
      browser,
      `/api/cell/${free}`,
      artForm(validFields(), [app.pngFile(await png(20, 20, '#abcdef'))]),
    );
    expect(answer.status).toBe(200);
    expect(answer.body.r.art.status).toBe(ArtStatus.Draft);
    const held = await firstRow(
      app.t.deps.db.select().from(reservations).where(eq(reservations.userId, someone.user.id)),
    );
    expect(held?.state).toBe('active');
    expect((await cellAt(app.t.deps.db, app.treeId, SEED_ROW + 1, 4)).status).toBe(CellStatus.Reserved);
  });
});

describe('a save on an available square is all or nothing', () => {
  it('leaves no reservation, draft or file when the fields are refused', async () => {
    const someone = await app.t.addUser(Role.Observer);
    const browser = await browserFor(app.t, someone.cookie);
    const free = (await cellAt(app.t.deps.db, app.treeId, SEED_ROW + 1, 0)).token;
    const before = await storedState(app.t.deps.db, app.t.deps.media);
    const answer = await postForm(
      app.t,
      browser,
      `/api/cell/${free}`,
      artForm(validFields({ title: '' }), [app.pngFile(await png(21, 20, '#123456'))]),
    );
    expect(answer.status).toBe(400);
    expect(answer.body.r.errors.title).toEqual([MESSAGES.blank('Title')]);
    expect(await storedState(app.t.deps.db, app.t.deps.media)).toEqual(before);
    expect((await cellAt(app.t.deps.db, app.treeId, SEED_ROW + 1, 0)).status).toBe(CellStatus.Available);
  });

  // The failure is made with a SQLite trigger through better-sqlite3: on PostgreSQL this one test does not run.
  it.skipIf(TEST_ENGINE === 'postgres')('takes the reservation back when writing the rows fails after it', async () => {
    const someone = await app.t.addUser(Role.Observer);
    const browser = await browserFor(app.t, someone.cookie);
    const free = (await cellAt(app.t.deps.db, app.treeId, SEED_ROW + 1, 1)).token;
    const before = await storedState(app.t.deps.db, app.t.deps.media);
    // A real failure of the database after the reservation's rows are written: the picture row is refused.
    const sqlite = app.t.deps.db.$client;
    sqlite.exec(
      "CREATE TRIGGER refuse_pictures BEFORE INSERT ON pictures BEGIN SELECT RAISE(ABORT, 'pictures refused'); END",
    );
    try {
      const answer = await postForm(
        app.t,
        browser,
        `/api/cell/${free}`,
        artForm(validFields(), [app.pngFile(await png(22, 20, '#654321'))]),
      );
      expect(answer.status).toBe(500);
    } finally {
      sqlite.exec('DROP TRIGGER refuse_pictures');
    }
    // Every row taken back. The files were written before the transaction, and a save deletes none (decision 044):
    // they stay, named by no row, for the orphan sweep.
    const { files: filesBefore, ...rowsBefore } = before;
    const { files: filesAfter, ...rowsAfter } = await storedState(app.t.deps.db, app.t.deps.media);
    expect(rowsAfter).toEqual(rowsBefore);
    expect(filesAfter).toEqual(expect.arrayContaining(filesBefore));
    expect(filesAfter.filter((name) => !filesBefore.includes(name)).map((name) => name.slice(32))).toEqual([
      '-large.webp',
      '-thumb.webp',
    ]);
    expect((await cellAt(app.t.deps.db, app.treeId, SEED_ROW + 1, 1)).status).toBe(CellStatus.Available);
    // The square is still free for the next try, which now succeeds.
    const retry = await postForm(
      app.t,
      browser,
      `/api/cell/${free}`,
      artForm(validFields(), [app.pngFile(await png(22, 20, '#654321'))]),
    );
    expect(retry.status).toBe(200);
  });
});
