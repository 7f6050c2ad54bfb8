/**
 * One decoded tree on the canvas (client/tree/engine/canvas-tree.ts), built of real PixiJS containers: where its
 * layers go, what it answers about a position (a cell, a branch slot or nothing, its status, the tree's extent, a
 * token's position), what it says of a rectangle of positions for the survey, how it takes a batch of changes (the
 * world growing with a cell outside it), setting it aside, and, on a large tree, a tapped square's details loaded
 * from its region first. Region answers come from a function answering as the server does for this tree.
 */
import { describe, expect, it } from 'vitest';
import { Container, Graphics } from 'pixi.js';
import { CellStatus, CellType } from '#shared/domain.ts';
import { encodeChanges } from '#shared/tree/changes.ts';
import { CELL_PITCH } from '#shared/tree/camera.ts';
import { DEFAULT_TREE_SETTINGS as S, computeBranchSlots, isTrunkColumn } from '#shared/tree/geometry.ts';
import { worldBoundsOf } from '#shared/tree/layout.ts';
import { regionWidth, type RegionBounds, type TreeRegionWire } from '#shared/tree/region.ts';
import { decodeSnapshot, encodeSnapshot, type SnapshotCell, type TreeCells } from '#shared/tree/snapshot.ts';
import { UNTITLED } from '#shared/words.ts';
import { CanvasTree } from '#client/tree/engine/canvas-tree.ts';
import { buildChunkLists, positionsOf, type ChunkLists } from '#client/tree/engine/chunk-index.ts';
import { TexturePool, ThumbnailCache } from '#client/tree/engine/thumbnails.ts';
import { engineGrid } from '#client/tree/engine/tree-grid.ts';

const header = { token: 'tree-token-0123456789', version: 1, settings: S };

function cell(row: number, column: number, status: number): SnapshotCell {
  const published = status === CellStatus.Published;
  return {
    row,
    column,
    status,
    type: isTrunkColumn(S, column) ? CellType.Trunk : CellType.Branch,
    color: published ? 0x336699 : null,
    token: `tok-${row}-${column}`.padEnd(22, 'x'),
    thumb: published ? `/media/${row}-${column}-thumb.webp` : null,
  };
}

/**
 * The trunk from row 20 down to the roots' last row: published from row 30 on, one square reserved, the rest pending;
 * a published branch piece at (27, -1), which opens branch slots round it.
 */
function smallTree(): TreeCells {
  const cells: SnapshotCell[] = [];
  for (let row = 20; row < 45; row++) {
    for (let column = 0; column < S.trunk.columns; column++) {
      const status =
        row === 25 && column === 2
          ? CellStatus.Reserved
          : row === 24 && column === 4
            ? CellStatus.Available
            : row >= 30
              ? CellStatus.Published
              : CellStatus.Pending;
      cells.push(cell(row, column, status));
    }
    if (row === 27) cells.push(cell(27, -1, CellStatus.Published));
  }
  cells.sort((a, b) => a.row - b.row || a.column - b.column);
  return decodeSnapshot(encodeSnapshot(header, cells));
}

function canvasTree(
  cells: TreeCells,
  fetchRegion?: (bounds: RegionBounds) => Promise<TreeRegionWire>,
  chunks: ChunkLists | null = null,
) {
  const world = new Container();
  const overlay = new Container();
  const above = new Graphics({ label: 'marks' });
  world.addChild(above);
  const thumbnails = new ThumbnailCache(new TexturePool({ load: () => new Promise(() => {}), unload: async () => {} }));
  let regions = 0;
  const tree = new CanvasTree(cells, S, computeBranchSlots(S, engineGrid(cells)), chunks, {
    world,
    overlay,
    thumbnails,
    ...(fetchRegion ? { fetchRegion } : {}),
    onChange: () => {},
    onRegion: () => regions++,
  });
  return { tree, world, overlay, above, regions: () => regions };
}

/** The server's answer for a region of `cells`: tokens, pictures, and a title for published pieces but one. */
function regionFrom(cells: TreeCells, bounds: RegionBounds): TreeRegionWire {
  const wire: TreeRegionWire = { ...bounds, version: 1, at: [], token: [], thumb: [], title: [], artist: [] };
  for (let row = bounds.row0; row <= bounds.row1; row++) {
    for (let column = bounds.col0; column <= bounds.col1; column++) {
      const i = cells.indexOf.at(row, column);
      if (i < 0) continue;
      const published = cells.status[i] === CellStatus.Published;
      wire.at.push((row - bounds.row0) * regionWidth(bounds) + (column - bounds.col0));
      wire.token.push(`region-${row}-${column}`);
      wire.thumb.push('');
      wire.title.push(published && !(row === 30 && column === 0) ? `Piece ${row}/${column}` : '');
      wire.artist.push(published ? 'Ada' : '');
    }
  }
  return wire;
}

describe('a tree on the canvas', () => {
  it('puts its bands at the bottom of the world, its chunks above them, both under the engine’s marks', () => {
    const { world, overlay, above, tree } = canvasTree(smallTree());
    expect(world.children).toEqual([tree.bands.strips, tree.chunks.layer, above]);
    expect(overlay.children).toEqual([tree.bands.labels]);
  });

  it('answers what is at a position: a cell, a branch slot, or nothing', () => {
    const { tree } = canvasTree(smallTree());
    expect(tree.hitAtCell(25, 2)).toEqual({
      kind: 'cell',
      row: 25,
      column: 2,
      status: CellStatus.Reserved,
      token: 'tok-25-2'.padEnd(22, 'x'),
      piece: null,
    });
    // Above the branch piece, on the branches' first row: a slot, open to reserve, with no token yet.
    expect(tree.slots).toContainEqual({ row: 26, column: -2 });
    expect(tree.hitAtCell(26, -2)).toEqual({
      kind: 'slot',
      row: 26,
      column: -2,
      status: CellStatus.Available,
      token: null,
      piece: null,
    });
    expect(tree.hitAtCell(5, 10)).toBeNull();
    expect([tree.statusAt(30, 1), tree.statusAt(26, -2), tree.statusAt(5, 10)]).toEqual([
      CellStatus.Published,
      CellStatus.Available,
      null,
    ]);
    expect([tree.hasSquare(20, 0), tree.hasSquare(26, -2), tree.hasSquare(19, 0)]).toEqual([true, true, false]);
  });

  it('knows where a token is on a small tree, and the rows and columns the keyboard may reach', () => {
    const { tree } = canvasTree(smallTree());
    expect(tree.positionOfToken('tok-33-4'.padEnd(22, 'x'))).toEqual({ row: 33, column: 4 });
    expect(tree.positionOfToken('no-such-token-xxxxxxxx')).toBeNull();
    // The branch area's columns and every row of the tree.
    expect(tree.extent()).toEqual({ minRow: 0, maxRow: 44, minColumn: S.branch.min_column, maxColumn: 19 });
    expect(tree.containsPosition(44, 19)).toBe(true);
    expect(tree.containsPosition(45, 0)).toBe(false);
  });

  it('tells the survey what a rectangle holds: squares of each kind, pieces in reading order, the bands', () => {
    const { tree } = canvasTree(smallTree());
    const survey = tree.survey(24, 31, -2, 4, 3);
    expect(survey.counts).toEqual({
      published: 1 + 2 * 5,
      reserved: 1,
      available: 1 + tree.slots.filter((s) => s.row >= 24 && s.row <= 31 && s.column >= -2).length,
      unavailable: 8 * 5 - 2 * 5 - 2,
    });
    expect(survey.piecesTotal).toBe(11);
    expect(survey.pieces.map(({ row, column }) => [row, column])).toEqual([
      [27, -1],
      [30, 0],
      [30, 1],
    ]);
    // A small tree's snapshot carries tokens, never titles: those come with the region.
    expect(survey.pieces[0]).toMatchObject({ token: 'tok-27--1'.padEnd(22, 'x'), title: null, artist: null });
    expect(survey.bands).toEqual(['trunk']);
    expect(tree.survey(30, 36, 0, 0, 10).bands).toEqual(['trunk', 'seed', 'roots']);
  });

  it('grows its world when a change brings a cell outside it, and redraws the bands across the new width', () => {
    const { tree, world, above } = canvasTree(smallTree());
    const before = tree.bounds;
    const oldStrips = tree.bands.strips;
    const update = tree.applyChanges(encodeChanges(1, 2, [cell(30, 25, CellStatus.Published)]), true);
    expect(update.boundsGrew).toBe(true);
    expect(update.added).toHaveLength(1);
    expect(tree.bounds.width).toBeGreaterThan(before.width);
    expect(tree.bounds).toEqual(worldBoundsOf(S, tree.cells));
    expect(tree.containsPosition(30, 25)).toBe(true);
    expect(oldStrips.destroyed).toBe(true);
    expect(world.children).toEqual([tree.bands.strips, tree.chunks.layer, above]);
    expect(tree.bands.strips.getLocalBounds().maxX).toBeGreaterThan(25 * CELL_PITCH);

    const inside = tree.applyChanges(encodeChanges(2, 3, [cell(21, 1, CellStatus.Available)]), true);
    expect(inside.boundsGrew).toBe(false);
    expect(tree.statusAt(21, 1)).toBe(CellStatus.Available);
  });

  it('finds its available squares in row-then-column order once, and again after a change', () => {
    const { tree } = canvasTree(smallTree());
    const first = tree.availableSquares();
    expect(first).toEqual([...first].sort((a, b) => a.row - b.row || a.column - b.column));
    expect(first).toContainEqual({ row: 24, column: 4 });
    expect(tree.availableSquares()).toBe(first);
    tree.applyChanges(encodeChanges(1, 2, [cell(24, 4, CellStatus.Reserved)]), true);
    expect(tree.availableSquares()).not.toContainEqual({ row: 24, column: 4 });
  });

  it('draws from the chunk lists it is handed instead of listing the cells again', () => {
    const cells = smallTree();
    const view = { x: 0, y: 20 * CELL_PITCH, width: 1000, height: 1000 };
    const builtOn = (tree: CanvasTree) => {
      tree.chunks.cull(view, false);
      tree.chunks.buildSome();
      return tree.chunks.builtCount;
    };
    expect(builtOn(canvasTree(cells).tree)).toBeGreaterThan(0);
    // Lists over no position at all: a tree that took them has no chunk to draw, one that listed its cells has some.
    expect(builtOn(canvasTree(cells, undefined, buildChunkLists(positionsOf([]), positionsOf([]))).tree)).toBe(0);
  });

  it('set aside, hides its layers and gives back its chunks', () => {
    const { tree } = canvasTree(smallTree());
    tree.chunks.cull({ x: 0, y: 20 * CELL_PITCH, width: 1000, height: 1000 }, false);
    tree.chunks.buildSome();
    expect(tree.chunks.builtCount).toBeGreaterThan(0);
    tree.setShown(false);
    expect([tree.chunks.layer.visible, tree.bands.strips.visible, tree.bands.labels.visible]).toEqual([
      false,
      false,
      false,
    ]);
    expect(tree.chunks.builtCount).toBe(0);
    tree.setShown(true);
    expect([tree.chunks.layer.visible, tree.bands.strips.visible, tree.bands.labels.visible]).toEqual([
      true,
      true,
      true,
    ]);
  });
});

describe('a large tree on the canvas (no tokens in its snapshot)', () => {
  const large = () => ({ ...smallTree(), token: null, thumb: null });

  it('loads a tapped square’s region before answering with its token', async () => {
    const cells = large();
    const asked: RegionBounds[] = [];
    const { tree, regions } = canvasTree(cells, async (bounds) => {
      asked.push(bounds);
      return regionFrom(cells, bounds);
    });
    const hit = tree.hitAtCell(31, 2)!;
    expect(hit.token).toBeNull();
    const resolved = await tree.resolveHit(hit);
    expect(resolved).toMatchObject({
      kind: 'cell',
      token: 'region-31-2',
      piece: { title: 'Piece 31/2', artist: 'Ada' },
    });
    expect(asked).toEqual([{ row0: 0, row1: 31, col0: 0, col1: 31 }]);
    expect(regions()).toBe(1);
    // A slot has no token to find; nothing is asked.
    await tree.resolveHit(tree.hitAtCell(26, -2)!);
    expect(asked).toHaveLength(1);
  });

  it('tells a piece whose region came without a title as untitled, and one not loaded yet as unknown', async () => {
    const cells = large();
    const { tree } = canvasTree(cells, async (bounds) => regionFrom(cells, bounds));
    expect(tree.survey(30, 30, 0, 0, 5).pieces[0]!.title).toBeNull();
    await tree.squareWithDetails(30, 0);
    expect(tree.survey(30, 30, 0, 1, 5).pieces.map((piece) => piece.title)).toEqual([UNTITLED, 'Piece 30/1']);
  });
});
