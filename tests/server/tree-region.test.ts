/**
 * What the tree page asks beside the snapshot: region details of a large tree (GET /api/tree/{token}/region) and
 * the viewer's own squares (cell.mine, for find-my-slots and the reserved-by-me look).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { art, cells, pictures, reservations } from '#drizzle/tables.ts';
import { ArtStatus, CellStatus, Role } from '#shared/domain.ts';
import { regionCells, type TreeRegionWire } from '#shared/tree/region.ts';
import { LIMITS } from '#server/services/rate-limit.ts';
import { createTree } from '#server/services/tree/tree.ts';
import { recordCellChanges } from '#server/services/tree/tree-changes.ts';
import { newToken } from '#server/tokens.ts';
import { createTestApp, type TestApp } from '#tests/helpers/server/test-app.ts';
import { oneRow } from '#tests/helpers/server/rows.ts';

let t: TestApp;
let treeToken: string;
let treeId: number;
let artist: Awaited<ReturnType<TestApp['addUser']>>['user'];

async function cellAt(row: number, column: number) {
  return await oneRow(
    t.deps.db
      .select()
      .from(cells)
      .where(and(eq(cells.treeId, treeId), eq(cells.row, row), eq(cells.column, column))),
  );
}

async function putArt(row: number, column: number, status: number, title: string): Promise<void> {
  const { db } = t.deps;
  const now = t.clock.now();
  const cell = await cellAt(row, column);
  const { id } = (
    await db
      .insert(art)
      .values({
        token: newToken(),
        cellId: cell.id,
        authorId: artist.id,
        status,
        title,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: art.id })
  )[0]!;
  await db.insert(pictures).values({
    token: newToken(),
    artId: id,
    position: 0,
    mediaKey: 'abcdef0123456789',
    width: 1,
    height: 1,
    createdAt: now,
  });
  await db
    .update(cells)
    .set({ artId: id, status: status === ArtStatus.Published ? CellStatus.Published : CellStatus.Reserved })
    .where(eq(cells.id, cell.id));
}

beforeAll(async () => {
  t = await createTestApp();
  const tree = await createTree(t.deps.db, t.clock.now(), 'Regions');
  treeToken = tree.token;
  treeId = tree.id;
  artist = (await t.addUser(Role.Artist)).user;
  await putArt(10, 1, ArtStatus.Published, 'Copper Field');
  await putArt(10, 2, ArtStatus.Draft, 'Unfinished');
});
afterAll(() => t.cleanup());

describe('GET /api/tree/{treeToken}/region', () => {
  it('answers the tokens of every cell in the rectangle, and titles and thumbnails of published pieces only', async () => {
    const res = await t.server.inject({ url: `/api/tree/${treeToken}/region?row0=9&row1=11&col0=0&col1=3` });
    expect(res.statusCode).toBe(200);
    const wire = res.json().r as TreeRegionWire;
    const found = regionCells(wire);
    expect(found).toHaveLength(12);
    expect(found.every((cell) => cell.row >= 9 && cell.row <= 11 && cell.column >= 0 && cell.column <= 3)).toBe(true);
    const copper = found.find((cell) => cell.row === 10 && cell.column === 1)!;
    expect(copper).toMatchObject({
      token: (await cellAt(10, 1)).token,
      title: 'Copper Field',
      artist: `${artist.firstname} ${artist.lastname}`,
    });
    expect(copper.thumb).toMatch(/^\/media\//);
    const draft = found.find((cell) => cell.row === 10 && cell.column === 2)!;
    expect(draft).toMatchObject({ token: (await cellAt(10, 2)).token, title: null, artist: null, thumb: null });
  });

  it('answers 304 for the same version and region, and a new body once the tree changed', async () => {
    const url = `/api/tree/${treeToken}/region?row0=0&row1=31&col0=0&col1=31`;
    const first = await t.server.inject({ url, headers: { 'accept-encoding': 'gzip' } });
    expect(first.headers['content-encoding']).toBe('gzip');
    const again = await t.server.inject({ url, headers: { 'if-none-match': first.headers.etag as string } });
    expect(again.statusCode).toBe(304);
    await t.deps.db
      .update(cells)
      .set({ status: CellStatus.Available })
      .where(eq(cells.id, (await cellAt(12, 0)).id));
    await recordCellChanges(t.deps.db, treeId, [(await cellAt(12, 0)).id], t.clock.now());
    const changed = await t.server.inject({ url, headers: { 'if-none-match': first.headers.etag as string } });
    expect(changed.statusCode).toBe(200);
  });

  it('refuses a region that is too large, inverted, or not numbers', async () => {
    for (const query of [
      'row0=0&row1=64&col0=0&col1=3',
      'row0=5&row1=4&col0=0&col1=3',
      'row0=a&row1=4&col0=0&col1=3',
      'row0=0&row1=4&col0=0',
    ]) {
      const res = await t.server.inject({ url: `/api/tree/${treeToken}/region?${query}` });
      expect(res.statusCode, query).toBe(400);
      expect(res.json().r.error).toBe('bad_request');
    }
    const unknown = await t.server.inject({ url: `/api/tree/${'z'.repeat(22)}/region?row0=0&row1=1&col0=0&col1=1` });
    expect(unknown.statusCode).toBe(404);
  });

  it(`allows one address ${LIMITS.treeRegionPerIp.max} regions a minute, then answers rate_limited until the window turns`, async () => {
    const url = `/api/tree/${treeToken}/region?row0=0&row1=31&col0=0&col1=31`;
    const ask = (remoteAddress: string) => t.server.inject({ url, remoteAddress });
    t.clock.advance(LIMITS.treeRegionPerIp.windowMs);
    for (let i = 0; i < LIMITS.treeRegionPerIp.max; i++) expect((await ask('10.9.8.7')).statusCode).toBe(200);
    const refused = await ask('10.9.8.7');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().r.error).toBe('rate_limited');
    // Another visitor is not affected, and the window opens again a minute later.
    expect((await ask('10.9.8.6')).statusCode).toBe(200);
    t.clock.advance(LIMITS.treeRegionPerIp.windowMs);
    expect((await ask('10.9.8.7')).statusCode).toBe(200);
  });
});

describe('cell.mine', () => {
  it("answers the viewer's reserved square first, then their pieces, and nothing of anyone else's", async () => {
    const reservedCell = await cellAt(10, 2);
    await t.deps.db.insert(reservations).values({
      token: newToken(),
      userId: artist.id,
      cellId: reservedCell.id,
      expiresAt: t.clock.now() + 1e9,
      createdAt: 0,
      updatedAt: 0,
    });
    const mine = await t.caller(artist).cell.mine();
    expect(mine.map((cell) => [cell.row, cell.column, cell.status])).toEqual([
      [10, 2, CellStatus.Reserved],
      [10, 1, CellStatus.Published],
    ]);
    expect(mine[0]!.treeToken).toBe(treeToken);
    const someoneElse = (await t.addUser(Role.Observer)).user;
    expect(await t.caller(someoneElse).cell.mine()).toEqual([]);
    await expect(t.caller().cell.mine()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });
});
