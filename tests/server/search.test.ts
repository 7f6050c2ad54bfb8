/**
 * Search over published pieces (the search popup; server/services/art/search.ts; docs/product.md, Limits): what it
 * finds, in what order, what it never shows, and that no input can break the FTS query.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRPCError } from '@trpc/server';
import { and, eq } from 'drizzle-orm';
import { art, cells, pictures } from '#drizzle/tables.ts';
import { ArtStatus, CellStatus, Role } from '#shared/domain.ts';
import { createTree } from '#server/services/tree/tree.ts';
import { reindexArt, searchCells, ftsQueryOf } from '#server/services/search/search.ts';
import { newToken } from '#server/tokens.ts';
import { createTestApp, type TestApp } from '#tests/helpers/server/test-app.ts';
import { write } from '#server/db.ts';
import { oneRow } from '#tests/helpers/server/rows.ts';

let t: TestApp;
let treeId: number;
let nextColumn = 0;
let nextRow = 3;

interface PieceInput {
  title: string;
  keywords?: string[];
  description?: string;
  category?: string;
  status?: number;
  authorId: number;
  aiUse?: 'none' | 'assisted' | 'generated';
}

/** Puts a piece on the next trunk cell and indexes it, as the publishing service would. */
async function addPiece(input: PieceInput): Promise<{ artId: number; cellToken: string }> {
  const { db } = t.deps;
  const now = t.clock.now();
  const column = nextColumn++ % 5;
  if (column === 4) nextRow++;
  const cell = await oneRow(
    db
      .select()
      .from(cells)
      .where(and(eq(cells.treeId, treeId), eq(cells.row, nextRow), eq(cells.column, column))),
  );
  const status = input.status ?? ArtStatus.Published;
  return await write(db, async (tx) => {
    const { id: artId } = (
      await tx
        .insert(art)
        .values({
          token: newToken(),
          cellId: cell.id,
          authorId: input.authorId,
          status,
          title: input.title,
          keywords: input.keywords ?? [],
          description: input.description ?? '',
          category: input.category ?? 'Painting',
          aiUse: input.aiUse ?? 'none',
          publishedAt: status === ArtStatus.Published ? now : null,
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: art.id })
    )[0]!;
    await tx.insert(pictures).values({
      token: newToken(),
      artId,
      position: 0,
      mediaKey: `k${artId}`.padEnd(16, '0'),
      width: 10,
      height: 10,
      createdAt: now,
    });
    const cellStatus = status === ArtStatus.Published ? CellStatus.Published : CellStatus.Reserved;
    await tx.update(cells).set({ artId, status: cellStatus }).where(eq(cells.id, cell.id));
    await reindexArt(tx, artId);
    return { artId, cellToken: cell.token };
  });
}

const titles = async (term: string) => (await searchCells(t.deps.db, term)).map((hit) => hit.title);

let painter: { id: number; firstname: string; lastname: string };
let weaver: { id: number; firstname: string; lastname: string };

beforeAll(async () => {
  t = await createTestApp();
  treeId = (await createTree(t.deps.db, t.clock.now(), 'Search')).id;
  painter = (await t.addUser(Role.Artist)).user;
  weaver = (await t.addUser(Role.Artist)).user;
  await addPiece({
    title: 'Luminous Harbour',
    keywords: ['sea', 'boats'],
    description: 'Evening light over the water.',
    authorId: painter.id,
  });
  await addPiece({
    title: 'Quiet Orchard',
    keywords: ['apples', 'autumn'],
    description: 'Rows of trees, one luminous afternoon.',
    category: 'Drawing',
    authorId: painter.id,
  });
  await addPiece({
    title: 'Woven Tides',
    keywords: ['indigo', 'cotton'],
    description: 'Blue thread.',
    category: 'Textile',
    authorId: weaver.id,
    aiUse: 'assisted',
  });
  await addPiece({ title: 'Secret Draft Lantern', authorId: painter.id, status: ArtStatus.Draft });
  await addPiece({ title: 'Submitted Lantern', authorId: painter.id, status: ArtStatus.Submitted });
  await addPiece({ title: 'Removed Lantern', authorId: painter.id, status: ArtStatus.Removed });
});
afterAll(() => t.cleanup());

describe('searchCells', () => {
  it('finds a piece by a word of its title', async () => {
    expect(await titles('harbour')).toEqual(['Luminous Harbour']);
  });

  it('matches each word as a prefix, and needs every word', async () => {
    expect(await titles('harb')).toEqual(['Luminous Harbour']);
    expect(await titles('lumi harb')).toEqual(['Luminous Harbour']);
    expect(await titles('lumi orch')).toEqual(['Quiet Orchard']);
  });

  it('finds by keyword, by artist name and by category', async () => {
    expect(await titles('indigo')).toEqual(['Woven Tides']);
    expect(await titles(weaver.lastname)).toEqual(['Woven Tides']);
    expect((await titles(`${painter.firstname} ${painter.lastname}`)).sort()).toEqual([
      'Luminous Harbour',
      'Quiet Orchard',
    ]);
    expect(await titles('textile')).toEqual(['Woven Tides']);
    expect(await titles('drawing')).toEqual(['Quiet Orchard']);
  });

  it('follows an artist who renames their account', async () => {
    const renamer = (await t.addUser(Role.Artist)).user;
    await addPiece({ title: 'Saffron Weir', authorId: renamer.id });
    await t.caller(renamer).user.updateAccount({
      token: renamer.token,
      firstname: 'Quillon',
      lastname: 'Marchetti',
      email: renamer.email,
      show_email: false,
      password: '',
      confirm_password: '',
    });
    expect((await searchCells(t.deps.db, 'Quillon', 10)).map((hit) => hit.title)).toEqual(['Saffron Weir']);
    expect((await searchCells(t.deps.db, renamer.firstname, 10)).map((hit) => hit.title)).not.toContain('Saffron Weir');
  });

  it('ranks a title match above a description match', async () => {
    // "luminous" is in one title and in another piece's description.
    expect(await titles('luminous')).toEqual(['Luminous Harbour', 'Quiet Orchard']);
  });

  it('answers the columns of the results popup', async () => {
    const [hit] = await searchCells(t.deps.db, 'tides');
    expect(hit).toMatchObject({
      title: 'Woven Tides',
      category: 'Textile',
      artist: `${weaver.firstname} ${weaver.lastname}`,
      aiUse: 'assisted',
      addedAt: t.clock.now(),
    });
    expect(hit!.cellToken).toMatch(/^[\w-]{22}$/);
    expect(hit!.thumb).toMatch(/^\/media\/.+/);
  });

  it('never finds a piece that is not published', async () => {
    expect(await titles('lantern')).toEqual([]);
    expect(await titles('secret draft')).toEqual([]);
  });

  it('drops a piece from the results once it is unpublished, and finds it again when it is back', async () => {
    const { artId } = await addPiece({ title: 'Fleeting Comet', authorId: weaver.id });
    expect(await titles('comet')).toEqual(['Fleeting Comet']);
    await t.deps.db.update(art).set({ status: ArtStatus.Removed }).where(eq(art.id, artId));
    await reindexArt(t.deps.db, artId);
    expect(await titles('comet')).toEqual([]);
    await t.deps.db.update(art).set({ status: ArtStatus.Published }).where(eq(art.id, artId));
    await reindexArt(t.deps.db, artId);
    expect(await titles('comet')).toEqual(['Fleeting Comet']);
  });

  it('never passes FTS syntax through: hostile input is plain words or nothing', async () => {
    const hostile = [
      '"',
      '""',
      'NEAR(',
      'NEAR(harbour orchard, 2)',
      '*',
      '* *',
      'harbour"',
      '"harbour',
      'title:harbour',
      'harbour OR quiet',
      'AND OR NOT',
      "'; drop table art_search; --",
      ')(',
      '^luminous',
      '-harbour',
      '+',
      '{title}: x',
      'a"b"c',
      '\u0000zz',
    ];
    for (const term of hostile) await expect(searchCells(t.deps.db, term), term).resolves.toBeInstanceOf(Array);
    expect(ftsQueryOf('NEAR(harbour, 2)')).toBe('"near"* "harbour"* "2"*');
    expect(ftsQueryOf('*"')).toBeNull();
    // "OR" is a word here, not an operator: nothing has both "harbour" and "or…" in it.
    expect(await titles('harbour OR quiet')).toEqual([]);
    expect(await titles('title:harbour')).toEqual([]);
  });
});

describe('cell.search (tRPC) and GET /api/cells/search', () => {
  it('answers the ranked hits to anyone', async () => {
    const hits = await t.caller().cell.search({ search: '  luminous ' });
    expect(hits.map((hit) => hit.title)).toEqual(['Luminous Harbour', 'Quiet Orchard']);
  });

  it('refuses a term of 2 characters (after trimming)', async () => {
    const error = await t
      .caller()
      .cell.search({ search: ' ab ' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TRPCError);
    expect((error as TRPCError).code).toBe('BAD_REQUEST');
    const res = await t.server.inject({ url: '/api/cells/search?search=ab' });
    expect(res.statusCode).toBe(400);
    expect(res.json().r).toMatchObject({
      error: 'validation_failed',
      errors: { search: ['Minimal length is 3 symbols.'] },
    });
  });

  it('answers the matching cells, each with its art, over REST, and hostile terms are not errors', async () => {
    const res = await t.server.inject({ url: `/api/cells/search?search=${encodeURIComponent('harb')}` });
    expect(res.statusCode).toBe(200);
    expect(res.json().r.map((cell: { art: { title: string } }) => cell.art.title)).toEqual(['Luminous Harbour']);
    for (const term of ['"""', 'NEAR(a b)', '***', 'x" OR "y']) {
      const hostile = await t.server.inject({ url: `/api/cells/search?search=${encodeURIComponent(term)}` });
      expect(hostile.statusCode, term).toBe(200);
      expect(hostile.json().r).toEqual([]);
    }
    const missing = await t.server.inject({ url: '/api/cells/search' });
    expect(missing.statusCode).toBe(400);
  });

  it('is rate-limited per IP', async () => {
    const caller = t.caller();
    t.clock.advance(60_000);
    let refused: unknown = null;
    for (let i = 0; i < 130 && !refused; i++) {
      refused = await caller.cell.search({ search: 'harbour' }).then(
        () => null,
        (e: unknown) => e,
      );
    }
    expect(refused).toBeInstanceOf(TRPCError);
    expect((refused as TRPCError).code).toBe('TOO_MANY_REQUESTS');
  });
});
