/**
 * One chunk on the canvas (client/tree/engine/chunk-view.ts), built of real PixiJS objects: one Graphics drawing
 * every square of the chunk, and thumbnail sprites asked for only for published cells near the view and given back
 * once they drift out of it. The pictures themselves come from a texture pool whose loading the test plays (the
 * network and GPU upload are the browser's); the textures are real.
 */
import { describe, expect, it } from 'vitest';
import { Container, Graphics, Sprite, Texture } from 'pixi.js';
import { CellStatus, CellType } from '#shared/domain.ts';
import { CELL_PITCH, CELL_SIZE, type Rect } from '#shared/tree/camera.ts';
import { DEFAULT_TREE_SETTINGS as S } from '#shared/tree/geometry.ts';
import { decodeSnapshot, encodeSnapshot, type SnapshotCell, type TreeCells } from '#shared/tree/snapshot.ts';
import { CellDetails } from '#client/tree/engine/cell-details.ts';
import { buildChunkIndex, chunkKey, type ChunkEntry } from '#client/tree/engine/chunk-index.ts';
import { ChunkView } from '#client/tree/engine/chunk-view.ts';
import { TexturePool, ThumbnailCache } from '#client/tree/engine/thumbnails.ts';
import { ABSENT_STATUS } from '#client/tree/engine/tree-grid.ts';
import { PALETTE } from '#shared/tree/cell-look.ts';
import { paintsOf } from '../helpers/pixi-paint.ts';

/** Rows 0..5, columns 0..5 of chunk (0, 0): published pieces with pictures on the diagonal, a mix of the rest. */
function smallTree(): TreeCells {
  const cells: SnapshotCell[] = [];
  for (let row = 0; row < 6; row++) {
    for (let column = 0; column < 6; column++) {
      const status =
        row === column
          ? CellStatus.Published
          : [CellStatus.Pending, CellStatus.Available, CellStatus.Reserved][(row + column) % 3]!;
      cells.push({
        row,
        column,
        status,
        type: CellType.Trunk,
        color: status === CellStatus.Published ? 0x336699 : null,
        token: `cell-${row}-${column}`,
        thumb: status === CellStatus.Published ? `/media/p${row}-thumb.webp` : null,
      });
    }
  }
  return decodeSnapshot(encodeSnapshot({ token: 'tree-token-0123456789', version: 1, settings: S }, cells));
}

/** Pictures arrive at once, as real (empty) textures; `loads` counts what was fetched, `held` what is held now. */
function pictures() {
  let loads = 0;
  const pool = new TexturePool({
    load: () => {
      loads++;
      return Promise.resolve(new Texture());
    },
    unload: () => Promise.resolve(),
  });
  return {
    cache: new ThumbnailCache(pool),
    get loads() {
      return loads;
    },
    get held() {
      return pool.loaded;
    },
  };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
/** A world rectangle of whole squares. */
const squares = (rowFrom: number, rowTo: number, columnFrom: number, columnTo: number): Rect => ({
  x: columnFrom * CELL_PITCH,
  y: rowFrom * CELL_PITCH,
  width: (columnTo - columnFrom) * CELL_PITCH + CELL_SIZE,
  height: (rowTo - rowFrom) * CELL_PITCH + CELL_SIZE,
});
const NOWHERE: Rect = { x: 100_000, y: 100_000, width: 1, height: 1 };

function chunkOf(cells: TreeCells, slots: { row: number; column: number }[] = []) {
  const entry: ChunkEntry = buildChunkIndex(cells, slots).get(chunkKey(0, 0))!;
  const details = new CellDetails(cells);
  const thumbs = pictures();
  let changes = 0;
  const view = new ChunkView(entry, cells, slots, details, thumbs.cache, () => changes++);
  view.drawSome();
  const sprites = () =>
    (view.container.children[1] as Container).children.map((sprite) => {
      const { x, y, width, height } = sprite as Sprite;
      return { row: y / CELL_PITCH, column: x / CELL_PITCH, width, height };
    });
  return { view, details, thumbs, sprites, changes: () => changes };
}

describe('a chunk’s squares', () => {
  it('draws every cell and branch slot of the chunk in one Graphics, and leaves out an absent cell', () => {
    const cells = smallTree();
    cells.status[cells.indexOf.at(2, 3)] = ABSENT_STATUS;
    const { view } = chunkOf(cells, [{ row: 7, column: 2 }]);
    expect(view.container.label).toBe('chunk 0,0');
    const [body, ...more] = (view.container.getChildByLabel('squares') as Container).children as Graphics[];
    expect(more).toEqual([]);
    const drawn = new Set(
      paintsOf(body!).flatMap((paint) =>
        paint.shapes
          .filter((shape) => shape.type === 'rectangle' && shape.width === CELL_SIZE)
          .map((shape) => `${shape.y / CELL_PITCH},${shape.x / CELL_PITCH}`),
      ),
    );
    const expected = new Set<string>(['7,2']);
    for (let row = 0; row < 6; row++) for (let column = 0; column < 6; column++) expected.add(`${row},${column}`);
    expected.delete('2,3');
    expect(drawn).toEqual(expected);
    expect(view.squareCount).toBe(36 - 1 + 1);
    view.destroy();
  });

  it('paints each published square in its colour as a tinted white quad, one of no known colour in the neutral one', () => {
    const cells = smallTree();
    const unknown = cells.indexOf.at(4, 4);
    cells.color[unknown] = -1;
    const { view } = chunkOf(cells);
    const body = (view.container.getChildByLabel('squares') as Container).children[0] as Graphics;
    const quads = body.context.instructions.filter((instruction) => instruction.action === 'texture');
    expect(quads.map((quad) => quad.data.image)).toEqual(quads.map(() => Texture.WHITE));
    const painted = paintsOf(body)
      .filter((paint) => paint.action === 'texture')
      .map(({ color, alpha, shapes: [square] }) => ({ color, alpha, ...square }));
    expect(painted).toEqual(
      [0, 1, 2, 3, 4, 5].map((d) => ({
        color: d === 4 ? PALETTE.publishedFallback : cells.color[cells.indexOf.at(d, d)],
        alpha: 1,
        type: 'rectangle',
        x: d * CELL_PITCH,
        y: d * CELL_PITCH,
        width: CELL_SIZE,
        height: CELL_SIZE,
      })),
    );
    expect(cells.color[cells.indexOf.at(2, 2)]).toBeGreaterThan(0);
    view.destroy();
  });
});

describe('a chunk’s thumbnails', () => {
  it('asks only for the published cells near the view, and shows each picture over its square', async () => {
    const { view, thumbs, sprites, changes } = chunkOf(smallTree());
    view.updateThumbnails(squares(0, 2, 0, 2), squares(0, 5, 0, 5));
    expect(view.thumbnailsHeld).toBe(3);
    await flush();
    expect(thumbs.loads).toBe(3);
    expect(sprites()).toEqual([0, 1, 2].map((d) => ({ row: d, column: d, width: CELL_SIZE, height: CELL_SIZE })));
    expect(view.thumbnailsDrawn).toBe(3);
    // Each arrival asks for a frame.
    expect(changes()).toBe(3);
    view.destroy();
  });

  it('keeps the pictures still near the view and gives back those that drifted out of it', async () => {
    const { view, thumbs, sprites } = chunkOf(smallTree());
    view.updateThumbnails(squares(0, 5, 0, 5), squares(0, 5, 0, 5));
    await flush();
    expect(thumbs.held).toBe(6);
    // The view moved down: rows 3 to 5 are loaded, rows 1 and 2 still kept, row 0 given back.
    view.updateThumbnails(squares(3, 5, 0, 5), squares(1, 5, 0, 5));
    await flush();
    expect(view.thumbnailsHeld).toBe(5);
    expect(thumbs.held).toBe(5);
    expect(sprites().map((sprite) => sprite.row)).toEqual([1, 2, 3, 4, 5]);
    view.destroy();
  });

  it('zoomed out, hides the pictures and asks for none, and gives back those out of reach', async () => {
    const { view, thumbs } = chunkOf(smallTree());
    view.updateThumbnails(squares(0, 5, 0, 5), squares(0, 5, 0, 5));
    await flush();
    view.updateThumbnails(null, squares(0, 2, 0, 2));
    expect(view.thumbnailsDrawn).toBe(0);
    expect(view.thumbnailsHeld).toBe(3);
    expect(thumbs.loads).toBe(6);
    view.updateThumbnails(null, NOWHERE);
    expect(view.thumbnailsHeld).toBe(0);
    expect(thumbs.held).toBe(0);
    view.destroy();
  });

  it('hidden, gives back every picture; destroyed, takes in none that arrives late', async () => {
    const hidden = chunkOf(smallTree());
    hidden.view.updateThumbnails(squares(0, 5, 0, 5), squares(0, 5, 0, 5));
    await flush();
    hidden.view.visible = false;
    expect(hidden.view.thumbnailsHeld).toBe(0);
    expect(hidden.thumbs.held).toBe(0);
    hidden.view.destroy();

    const gone = chunkOf(smallTree());
    gone.view.updateThumbnails(squares(0, 5, 0, 5), squares(0, 5, 0, 5));
    gone.view.destroy();
    await flush();
    expect(gone.changes()).toBe(0);
  });

  it('on a large tree, finds pictures that a region answer brought after the chunk was built', async () => {
    const cells = { ...smallTree(), token: null, thumb: null };
    const { view, details, sprites } = chunkOf(cells);
    view.updateThumbnails(squares(0, 5, 0, 5), squares(0, 5, 0, 5));
    expect(view.thumbnailsHeld).toBe(0);
    details.addRegion({
      row0: 0,
      row1: 31,
      col0: 0,
      col1: 31,
      version: 1,
      at: [4 * 32 + 4],
      token: ['cell-4-4'],
      thumb: ['/media/p4-thumb.webp'],
      title: ['Tide'],
      artist: ['Ana'],
    });
    view.updateThumbnails(squares(0, 5, 0, 5), squares(0, 5, 0, 5));
    await flush();
    expect(sprites().map(({ row, column }) => [row, column])).toEqual([[4, 4]]);
    view.destroy();
  });
});
