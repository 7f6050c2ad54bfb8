/**
 * Control characters in an author's text (C0 but tab and line breaks, U+FFFE, U+FFFF) would make the whole Atom feed
 * ill-formed: the real save refuses them with a field error, and the feed drops them from text stored before that rule.
 * Random strings go through the save; a strict XML parser reads the feed.
 */
import fc from 'fast-check';
import { SaxesParser } from 'saxes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { art, pictures } from '#drizzle/tables.ts';
import { Role } from '#shared/domain.ts';
import { hasNoControlCharacters } from '#shared/validation/rules.ts';
import { createTree } from '#server/services/tree/tree.ts';
import { createTestApp, type TestApp } from '#tests/helpers/server/test-app.ts';
import { artForm, browserFor, postForm, publishedPieceAt, validFields } from '../helpers/art-fixtures.ts';
import { oneRow } from '#tests/helpers/server/rows.ts';

let t: TestApp;
let piece: { cellToken: string; artToken: string };
let cookie: string;
let pictureToken: string;

/** Parses the document with saxes (XML 1.0 well-formedness, character ranges included); throws on the first fault. */
function parseXml(xml: string): { titles: string[] } {
  const parser = new SaxesParser();
  const titles: string[] = [];
  let inTitle = false;
  let titleText = '';
  parser.on('error', (error) => {
    throw error;
  });
  parser.on('opentag', (tag) => {
    inTitle = tag.name === 'title';
    titleText = '';
  });
  parser.on('text', (text) => {
    if (inTitle) titleText += text;
  });
  parser.on('closetag', (tag) => {
    if (tag.name === 'title') titles.push(titleText);
    inTitle = false;
  });
  parser.write(xml).close();
  return { titles };
}

const feed = async () => (await t.server.inject({ url: '/feed.xml' })).body;
const hasForbidden = (s: string) => !hasNoControlCharacters(s);

beforeAll(async () => {
  t = await createTestApp();
  const tree = await createTree(t.deps.db, t.clock.now(), 'Feed');
  const author = await t.addUser(Role.Artist);
  cookie = author.cookie;
  piece = await publishedPieceAt(t.deps.db, tree.id, 33, 2, author.user.id, 'f'.repeat(32));
  const row = await oneRow(t.deps.db.select().from(art).where(eq(art.token, piece.artToken)));
  pictureToken = (
    await oneRow(t.deps.db.select({ token: pictures.token }).from(pictures).where(eq(pictures.artId, row.id)))
  ).token;
});
afterAll(() => t.cleanup());

describe('an author’s text in the Atom feed', () => {
  it('is refused at the save when it holds control characters, and the feed stays well-formed whatever is sent', async () => {
    const browser = await browserFor(t, cookie);
    const anyText = fc.string({ unit: 'binary', minLength: 1, maxLength: 40 });
    const control = fc.constantFrom(
      '\u0000',
      '\u0001',
      '\u0008',
      '\u000b',
      '\u000c',
      '\u001b',
      '\u001f',
      '\ufffe',
      '\uffff',
    );
    const withControl = fc.tuple(anyText, control, anyText).map(([a, c, b]) => `${a}${c}${b}`);
    await fc.assert(
      fc.asyncProperty(fc.oneof(anyText, withControl), fc.oneof(anyText, withControl), async (title, description) => {
        const before = await oneRow(t.deps.db.select().from(art).where(eq(art.token, piece.artToken)));
        const res = await postForm(
          t,
          browser,
          `/api/cell/${piece.cellToken}`,
          artForm(validFields({ title, description }), [], [pictureToken]),
        );
        const after = await oneRow(t.deps.db.select().from(art).where(eq(art.token, piece.artToken)));
        if (hasForbidden(title) || hasForbidden(description)) {
          expect(res.status).toBe(400);
          expect(res.body.r.error).toBe('validation_failed');
          const fields = Object.keys(res.body.r.errors);
          if (hasForbidden(title)) expect(fields).toContain('title');
          if (hasForbidden(description)) expect(fields).toContain('description');
          expect(after).toEqual(before);
        }
        parseXml(await feed());
      }),
      { numRuns: 60 },
    );
  }, 60_000);

  it('drops control characters that text stored before the rule still holds', async () => {
    await t.deps.db
      .update(art)
      .set({ title: 'Old\u0001 title\u001f\uffff', description: 'Bell\u0007 and escape\u001b' })
      .where(eq(art.token, piece.artToken));
    const { titles } = parseXml(await feed());
    expect(titles).toContain('Old title');
  });
});
