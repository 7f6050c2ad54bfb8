/**
 * Pictures described by their artist (alt text): descriptions[i] with the multipart save, kept with the picture,
 * answered with it, used by the Open Graph tags and the feed; a bad one is refused with its field and nothing stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { pictures } from '#drizzle/tables.ts';
import { ART_LIMITS } from '#shared/constants.ts';
import { Role } from '#shared/domain.ts';
import { MESSAGES } from '#shared/validation/rules.ts';
import { renderFeed } from '#server/http/feed.ts';
import { artOpenGraphTags } from '#server/http/art-open-graph.ts';
import { reserveCell } from '#server/services/reservations/reservations.ts';
import { createTree } from '#server/services/tree/tree.ts';
import { createTestApp, type TestApp } from '#tests/helpers/server/test-app.ts';
import {
  artForm,
  browserFor,
  cellAt,
  png,
  postForm,
  storedState,
  validFields,
  type FormFile,
} from '../helpers/art-fixtures.ts';

let t: TestApp;
let treeId: number;
let author: Awaited<ReturnType<TestApp['addUser']>>;
let cellToken: string;
let main: FormFile;
let second: FormFile;

beforeAll(async () => {
  t = await createTestApp();
  treeId = (await createTree(t.deps.db, t.clock.now(), 'Described')).id;
  author = await t.addUser(Role.Artist);
  cellToken = (await cellAt(t.deps.db, treeId, 33, 1)).token;
  await reserveCell(t.deps, author.user, cellToken);
  main = { bytes: await png(60, 40, '#224466'), name: 'main.png', type: 'image/png' };
  second = { bytes: await png(40, 60, '#aa6622'), name: 'second.png', type: 'image/png' };
}, 60_000);
afterAll(() => t.cleanup());

/** The art form with descriptions[i] added for the given slots. */
function describedForm(descriptions: (string | null)[], files: FormFile[], kept: (string | null)[] = []): FormData {
  const form = artForm(validFields({ title: 'Harbour Lights' }), files, kept);
  descriptions.forEach((description, i) => description !== null && form.append(`descriptions[${i}]`, description));
  return form;
}

const save = async (form: FormData) => postForm(t, await browserFor(t, author.cookie), `/api/cell/${cellToken}`, form);
const stored = async () =>
  await t.deps.db
    .select({ token: pictures.token, description: pictures.description })
    .from(pictures)
    .orderBy(pictures.position);

describe('describing pictures', () => {
  it('keeps each picture with its description and answers it on the details', async () => {
    const res = await save(
      describedForm(['  Lights of a harbour at night, doubled in black water.  ', ''], [main, second]),
    );
    expect(res.status).toBe(200);
    const details = await t
      .caller()
      .art.details({ cellToken })
      .catch(() => null);
    const forEdit = await t.caller(author.user).art.forEdit({ cellToken });
    const answered = forEdit.art!.pictures.map((picture) => picture.description);
    expect(answered).toEqual(['Lights of a harbour at night, doubled in black water.', '']);
    // A draft is not public: the details are the author's alone.
    expect(details).toBeNull();
  });

  it("changes a kept picture's description without a new upload, and a new picture starts without one", async () => {
    const [first] = await stored();
    const res = await save(describedForm(['Harbour lights, the long exposure.'], [], [first!.token]));
    expect(res.status).toBe(200);
    expect(await stored()).toEqual([{ token: first!.token, description: 'Harbour lights, the long exposure.' }]);
  });

  it('refuses a description too long or holding control characters, with its field, and stores nothing', async () => {
    const before = await storedState(t.deps.db, t.deps.media);
    const [first] = await stored();
    const tooLong = 'a'.repeat(ART_LIMITS.pictureDescription + 1);
    const long = await save(describedForm([tooLong], [], [first!.token]));
    expect(long.status).toBe(400);
    expect(long.body.r.errors).toEqual({ 'descriptions.0': [MESSAGES.maxLength(ART_LIMITS.pictureDescription)] });
    const control = await save(describedForm([null, 'Two\u0007bells'], [second], [first!.token]));
    expect(control.status).toBe(400);
    expect(control.body.r.errors).toEqual({ 'descriptions.1': [MESSAGES.controlCharacters] });
    expect(await storedState(t.deps.db, t.deps.media)).toEqual(before);
  });
});

describe('where descriptions are read', () => {
  it('gives the Open Graph image its alt text and the feed its picture description', async () => {
    const admin = (await t.addUser(Role.Admin)).user;
    const submitted = artForm(validFields({ title: 'Harbour Lights' }), [], [(await stored())[0]!.token]);
    submitted.append('descriptions[0]', 'Harbour lights, the long exposure.');
    submitted.append('submit', '1');
    expect((await save(submitted)).status).toBe(200);
    const artToken = (await t.caller(author.user).art.forEdit({ cellToken })).art!.token;
    await t.caller(admin).admin.publish({ artToken });

    const tags = await artOpenGraphTags(t.deps, cellToken);
    expect(tags).toContain('<meta property="og:image:alt" content="Harbour lights, the long exposure.">');
    // The entry's HTML content is itself escaped inside the feed's XML.
    expect(await renderFeed(t.deps.db, t.deps.media.urlOf, t.deps.config.siteUrl, t.clock.now())).toContain(
      'alt=&quot;Harbour lights, the long exposure.&quot;',
    );
    expect((await t.caller().art.details({ cellToken })).pictures[0]!.description).toBe(
      'Harbour lights, the long exposure.',
    );
    expect(await t.deps.db.select().from(pictures).where(eq(pictures.description, ''))).toEqual([]);
  });
});
