/**
 * The tree's first sketch in the /observe page (server/services/tree/tree-sketch.ts): drawn for the engine's opening
 * view with each square as the snapshot carries it, redrawn when the tree changes, and never in the way: any other
 * page, a bad address or a tree it cannot draw gets the page without it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { art, cells, trees } from '#drizzle/tables.ts';
import { TREE_VIEW } from '#shared/constants.ts';
import { ArtStatus, CellStatus, Role } from '#shared/domain.ts';
import { CELL_PITCH, cellCentre, clampPoint } from '#shared/tree/camera.ts';
import { PALETTE } from '#shared/tree/cell-look.ts';
import type { TreeSettings } from '#shared/tree/geometry.ts';
import { openingScale, seedViewTarget, TRUNK_FIT_MARGIN, trunkWidth, worldBoundsOf } from '#shared/tree/layout.ts';
import { colorAsSent, decodeSnapshot, type TreeSnapshotWire } from '#shared/tree/snapshot.ts';
import { SKETCH_HEIGHT, SKETCH_WIDTH } from '#server/services/tree/tree-sketch.ts';
import { createTree, type TreeRow } from '#server/services/tree/tree.ts';
import { recordBulkChange } from '#server/services/tree/tree-changes.ts';
import { newToken } from '#server/tokens.ts';
import { createTestApp, tempDir, type TestApp } from '#tests/helpers/server/test-app.ts';
import { firstRow, oneRow } from '#tests/helpers/server/rows.ts';

let t: TestApp;
let tree: TreeRow;
let settings: TreeSettings;
let authorId: number;
/** The app's log lines at 'warn' and above: the page's fallback (no sketch) logs why it was taken. */
const warnings: string[] = [];

const PAGE = '<!doctype html><html><head><title>app</title></head><body><div id="root"></div></body></html>';
const hex = (color: number) => `#${color.toString(16).padStart(6, '0')}`;

async function cellAt(row: number, column: number) {
  return await firstRow(
    t.deps.db
      .select()
      .from(cells)
      .where(and(eq(cells.treeId, tree.id), eq(cells.row, row), eq(cells.column, column))),
  );
}

/** A piece at (row, column) with a dominant colour; a published one turns the square published. */
async function putArt(row: number, column: number, status: number, dominantColor: number): Promise<string> {
  const { db } = t.deps;
  const now = t.clock.now();
  const cell = (await cellAt(row, column))!;
  const { id } = (
    await db
      .insert(art)
      .values({
        token: newToken(),
        cellId: cell.id,
        authorId,
        status,
        title: `Piece ${row}:${column}`,
        dominantColor,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: art.id })
  )[0]!;
  await db
    .update(cells)
    .set({ artId: id, status: status === ArtStatus.Published ? CellStatus.Published : CellStatus.Reserved })
    .where(eq(cells.id, cell.id));
  await recordBulkChange(db, tree.id, Date.now());
  return cell.token;
}

async function page(
  url: string,
): Promise<{ status: number; body: string; sketch: { x: number; y: number; width: number; height: number } | null }> {
  const res = await t.server.inject({ url });
  const found =
    /<div class="tree-sketch" aria-hidden="true"><svg [^>]*width="(\d+)" height="(\d+)" viewBox="([^"]+)">/.exec(
      res.body,
    );
  if (!found) return { status: res.statusCode, body: res.body, sketch: null };
  expect([Number(found[1]), Number(found[2])]).toEqual([SKETCH_WIDTH, SKETCH_HEIGHT]);
  const [x, y, width, height] = found[3]!.split(' ').map(Number) as [number, number, number, number];
  return { status: res.statusCode, body: res.body, sketch: { x, y, width, height } };
}

/** Where a sketch centres and at what zoom. */
const viewOf = (sketch: { x: number; y: number; width: number; height: number }) => ({
  x: sketch.x + sketch.width / 2,
  y: sketch.y + sketch.height / 2,
  scale: SKETCH_WIDTH / sketch.width,
});

async function bounds() {
  const res = await t.server.inject({ url: `/api/tree/${tree.token}` });
  return worldBoundsOf(settings, decodeSnapshot((res.json() as { r: TreeSnapshotWire }).r));
}

/** The default view, as the engine opens it. */
async function seedView() {
  return { ...clampPoint(seedViewTarget(settings), await bounds()), scale: 1 };
}

/** A cell of the tree near the seed band's middle: `dr` rows below it, `dc` columns right. */
async function nearSeed(dr: number, dc: number): Promise<{ row: number; column: number }> {
  const target = seedViewTarget(settings);
  const row = Math.floor(target.y / CELL_PITCH) + dr;
  const column = Math.floor(target.x / CELL_PITCH) + dc;
  expect(await cellAt(row, column), `a cell at ${row}:${column}`).toBeDefined();
  return { row, column };
}

beforeAll(async () => {
  const clientDir = tempDir('gallery-client-');
  fs.writeFileSync(path.join(clientDir, 'index.html'), PAGE);
  t = await createTestApp({ clientDir, logLevel: 'warn' }, { logOutput: { write: (line) => warnings.push(line) } });
  tree = await createTree(t.deps.db, t.clock.now(), 'Sketched');
  settings = tree.settings as TreeSettings;
  authorId = (await t.addUser(Role.Artist)).user.id;
});
afterAll(() => t.cleanup());

describe('the tree page arrives with its first sketch', () => {
  it('draws the opening view around the seed band, ahead of the app, with each square as the engine draws it', async () => {
    const published = await nearSeed(0, 0);
    const draft = await nearSeed(0, 1);
    await putArt(published.row, published.column, ArtStatus.Published, 0x3a7bd5);
    await putArt(draft.row, draft.column, ArtStatus.Draft, 0xd53a3a);

    const { status, body, sketch } = await page('/observe');
    expect(status).toBe(200);
    expect(sketch).not.toBeNull();
    const view = viewOf(sketch!);
    const expected = await seedView();
    expect(view.x).toBeCloseTo(expected.x, 1);
    expect(view.y).toBeCloseTo(expected.y, 1);
    expect(view.scale).toBeCloseTo(1, 5);
    // Before the app's root, so it is painted with the page, and hidden from screen readers (the engine names cells).
    expect(body.indexOf('class="tree-sketch"')).toBeLessThan(body.indexOf('<div id="root">'));
    // The published piece in its colour as the snapshot carries it; the draft's colour nowhere; an available
    // square's light fill; the squares of the roots in the reserved look.
    expect(body).toContain(`fill="${hex(colorAsSent(0x3a7bd5))}"`);
    expect(body).not.toContain(hex(colorAsSent(0xd53a3a)));
    expect(body).toContain(`fill="${hex(PALETTE.availableFill)}"`);
    expect(body).toContain(`fill="${hex(PALETTE.reservedFill)}"`);
  });

  it('shows branch slots next to a published piece in the branches, as the engine computes them', async () => {
    const first = await page('/observe');
    const slotFill = `fill="${hex(PALETTE.availableFill)}" fill-opacity="0.85"`;
    // The trunk's lowest row beside the branches, in the opening view: a piece there opens the slot left of it.
    const row = settings.branch.max_row;
    expect(first.body).not.toContain(slotFill);
    expect(await cellAt(row, 0), 'a trunk cell beside the branches').toBeDefined();
    expect(row * CELL_PITCH + 100).toBeGreaterThan(first.sketch!.y);
    await putArt(row, 0, ArtStatus.Published, 0x2f9e44);
    expect((await page('/observe')).body).toContain(slotFill);
  });

  it('opens a shared position at its zoom, and a shared cell where it is', async () => {
    const position = await nearSeed(-2, 1);
    const atPosition = viewOf((await page(`/observe?row=${position.row}&col=${position.column}&zoom=1.5`)).sketch!);
    const centre = clampPoint(cellCentre(position.row, position.column), await bounds());
    expect(atPosition).toMatchObject({
      x: expect.closeTo(centre.x, 1),
      y: expect.closeTo(centre.y, 1),
      scale: expect.closeTo(1.5, 5),
    });

    const target = await nearSeed(1, 2);
    const token = (await cellAt(target.row, target.column))!.token;
    const atCell = viewOf((await page(`/observe?cell=${token}&zoom=2`)).sketch!);
    const cellCentreClamped = clampPoint(cellCentre(target.row, target.column), await bounds());
    expect(atCell).toMatchObject({
      x: expect.closeTo(cellCentreClamped.x, 1),
      y: expect.closeTo(cellCentreClamped.y, 1),
      scale: expect.closeTo(2, 5),
    });
  });

  it("shrinks the default view's sketch on a narrow screen as the engine does (the trunk's width fits), and no other", async () => {
    const fitted =
      /<svg [^>]*style="width:clamp\((\d+)px,calc\(\(100vw - (\d+)px\) \* ([\d.]+)\),(\d+)px\);height:auto"/;
    const found = fitted.exec((await page('/observe')).body);
    expect(found, 'the default view is sized in CSS').not.toBeNull();
    const [min, margins, perPixel, max] = found!.slice(1).map(Number) as [number, number, number, number];
    expect({ min, max, margins }).toEqual({
      min: SKETCH_WIDTH * TREE_VIEW.zoomMin,
      max: SKETCH_WIDTH * TREE_VIEW.zoomDefault,
      margins: 2 * TRUNK_FIT_MARGIN,
    });
    // On a 390-pixel phone the sketch is as wide as the engine's opening zoom makes SKETCH_WIDTH CSS pixels.
    expect(((390 - margins) * perPixel) / SKETCH_WIDTH).toBeCloseTo(openingScale(settings, 390), 4);
    expect(perPixel).toBeCloseTo(SKETCH_WIDTH / trunkWidth(settings), 4);
    const position = await nearSeed(0, 1);
    expect((await page(`/observe?row=${position.row}&col=${position.column}&zoom=1`)).body).not.toMatch(fitted);
  });

  it.each([
    ['a zoom off the scale', '/observe?row=3&col=1&zoom=9'],
    ['a zoom that is not a number', '/observe?zoom=abc'],
    ['a position outside the tree', '/observe?row=900000&col=5&zoom=2'],
    ['a malformed cell token', '/observe?cell=%3Cscript%3E'],
    ['a cell token nobody has', `/observe?cell=${newToken()}`],
  ])('opens the default view for %s, with no error', async (_, url) => {
    const { status, sketch } = await page(url);
    expect(status).toBe(200);
    const view = viewOf(sketch!);
    const expected = await seedView();
    expect(view).toMatchObject({ x: expect.closeTo(expected.x, 1), y: expect.closeTo(expected.y, 1), scale: 1 });
  });

  it('redraws after the tree changes, and never mixes up views', async () => {
    const square = await nearSeed(-1, 0);
    const before = await page('/observe');
    await putArt(square.row, square.column, ArtStatus.Published, 0x8844aa);
    const after = await page('/observe');
    expect(before.body).not.toContain(hex(colorAsSent(0x8844aa)));
    expect(after.body).toContain(hex(colorAsSent(0x8844aa)));
    const zoomed = await page(`/observe?row=${square.row}&col=${square.column}&zoom=2`);
    expect(viewOf(zoomed.sketch!).scale).toBeCloseTo(2, 5);
    expect(viewOf((await page('/observe')).sketch!).scale).toBeCloseTo(1, 5);
  });

  it('keeps its sketch when the tree changes square by square after a visit (the kept extent is widened from the log)', async () => {
    const square = await nearSeed(0, -1);
    const slot = { row: settings.branch.max_row, column: -1 };
    expect((await cellAt(square.row, square.column))!.status).toBe(CellStatus.Available);
    expect(await cellAt(slot.row, slot.column), 'the branch slot left of the published trunk piece').toBeUndefined();
    // A visit keeps the extent at this version; the changes below are logged cell by cell, so the next visit widens
    // the kept extent by the cells the log names since then, rather than reading the whole tree again.
    expect((await page('/observe')).sketch).not.toBeNull();
    const logged = warnings.length;
    const changesFrom = (await oneRow(t.deps.db.select().from(trees).where(eq(trees.id, tree.id)))).changesFrom;
    await t
      .caller((await t.addUser(Role.Artist)).user)
      .cell.reserve({ token: (await cellAt(square.row, square.column))!.token });
    const branch = await t.caller((await t.addUser(Role.Artist)).user).cell.reserveBranch(slot);
    expect((await oneRow(t.deps.db.select().from(trees).where(eq(trees.id, tree.id)))).changesFrom).toBe(changesFrom);

    const after = await page('/observe');
    expect(after.sketch, 'the default view is sketched').not.toBeNull();
    const expected = await seedView();
    expect(viewOf(after.sketch!)).toMatchObject({ x: expect.closeTo(expected.x, 1), y: expect.closeTo(expected.y, 1) });
    // A link to the new branch square opens on it.
    const atBranch = await page(`/observe?cell=${branch.token}&zoom=2`);
    expect(atBranch.sketch, 'the new branch square is sketched').not.toBeNull();
    const centre = clampPoint(cellCentre(slot.row, slot.column), await bounds());
    expect(viewOf(atBranch.sketch!)).toMatchObject({
      x: expect.closeTo(centre.x, 1),
      y: expect.closeTo(centre.y, 1),
      scale: expect.closeTo(2, 5),
    });
    expect(warnings.slice(logged)).toEqual([]);
  });

  it('draws the same whether the snapshot was built first (its extent is used) or not (one query)', async () => {
    const sketchOf = (body: string) => /<div class="tree-sketch".*?<\/div>/.exec(body)![0];
    await recordBulkChange(t.deps.db, tree.id, Date.now());
    tree = await oneRow(t.deps.db.select().from(trees).where(eq(trees.id, tree.id)));
    const withoutSnapshot = sketchOf((await page('/observe')).body);
    expect(t.deps.snapshots.peek(tree.id)?.version ?? 0).toBeLessThan(tree.version);
    await recordBulkChange(t.deps.db, tree.id, Date.now());
    tree = await oneRow(t.deps.db.select().from(trees).where(eq(trees.id, tree.id)));
    expect((await t.server.inject({ url: `/api/tree/${tree.token}` })).statusCode).toBe(200);
    expect(t.deps.snapshots.peek(tree.id)?.version).toBe(tree.version);
    expect(sketchOf((await page('/observe')).body)).toBe(withoutSnapshot);
  });

  it('travels compressed to a browser that takes it: a zoomed-out view is about a hundred kilobytes as text', async () => {
    const square = await nearSeed(0, 0);
    const url = `/observe?row=${square.row}&col=${square.column}&zoom=0.5`;
    const plain = await t.server.inject({ url });
    expect(plain.headers['content-encoding']).toBeUndefined();
    const br = await t.server.inject({ url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    const gzip = await t.server.inject({ url, headers: { 'accept-encoding': 'gzip' } });
    expect([br.headers['content-encoding'], gzip.headers['content-encoding']]).toEqual(['br', 'gzip']);
    expect(br.headers['vary']).toContain('accept-encoding');
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    // The same page but for its CSRF token (a new visitor each time).
    const withoutToken = (body: string) => body.replace(/content="[^"]+"/, '');
    expect(withoutToken(brotliDecompressSync(br.rawPayload).toString())).toBe(withoutToken(plain.body));
    expect(withoutToken(gunzipSync(gzip.rawPayload).toString())).toBe(withoutToken(plain.body));
  });

  it('is only in the tree page', async () => {
    for (const url of ['/', '/about', '/observe/', '/observe/cell/abc/details', '/observed']) {
      const { status, sketch } = await page(url);
      expect(status, url).toBe(200);
      expect(sketch, url).toBeNull();
    }
  });

  it('leaves the page whole when the tree cannot be drawn', async () => {
    const { db } = t.deps;
    await db.update(trees).set({ settings: {} }).where(eq(trees.id, tree.id));
    await recordBulkChange(db, tree.id, Date.now());
    try {
      const { status, body, sketch } = await page('/observe');
      expect(status).toBe(200);
      expect(sketch).toBeNull();
      expect(body).toContain('<div id="root">');
    } finally {
      await db.update(trees).set({ settings }).where(eq(trees.id, tree.id));
      await recordBulkChange(db, tree.id, Date.now());
    }
    expect((await page('/observe')).sketch).not.toBeNull();
  });
});

describe('a site without a tree yet', () => {
  it('serves the tree page without a sketch', async () => {
    const clientDir = tempDir('gallery-client-');
    fs.writeFileSync(path.join(clientDir, 'index.html'), PAGE);
    const empty = await createTestApp({ clientDir });
    try {
      const res = await empty.server.inject({ url: '/observe' });
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain('tree-sketch');
    } finally {
      await empty.cleanup();
    }
  });
});
