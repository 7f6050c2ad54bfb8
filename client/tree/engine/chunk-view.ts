/**
 * One chunk on the canvas: a Container holding its squares, drawn as one Graphics (one geometry, one batch) or, for a
 * chunk too costly to draw in one frame, a few drawn in turn (drawSome), and a layer of thumbnail Sprites. Thumbnails
 * are asked for cell by cell, only for cells near the view, and given back once they drift well out of it, so GPU
 * memory follows the screen rather than the chunk.
 */
import { Container, Graphics, Sprite, Texture } from 'pixi.js';
import { CellStatus } from '#shared/domain.ts';
import type { TreeCells } from '#shared/tree/snapshot.ts';
import { CELL_PITCH, CELL_SIZE, type Rect } from '#shared/tree/camera.ts';
import type { CellDetails } from './cell-details.ts';
import { BRANCH_SLOT_DRAWING_COST, drawingCostOf, SquareBatch } from '#shared/tree/cell-look.ts';
import type { ChunkEntry } from './chunk-index.ts';
import type { ThumbnailCache } from './thumbnails.ts';
import { ABSENT_STATUS } from './tree-grid.ts';

interface ThumbnailRequest {
  url: string;
  sprite: Sprite | null;
  cancelled: boolean;
}

/** The chunk's drawing cost (cell-look.ts: a chunk of published squares costs its square count). */
export function drawingCost(entry: ChunkEntry, cells: TreeCells): number {
  let cost = entry.slots.length * BRANCH_SLOT_DRAWING_COST;
  for (const i of entry.cells) if (cells.status[i] !== ABSENT_STATUS) cost += drawingCostOf(cells.status[i]!);
  return cost;
}

function touches(rect: Rect, x: number, y: number): boolean {
  return x + CELL_SIZE > rect.x && x < rect.x + rect.width && y + CELL_SIZE > rect.y && y < rect.y + rect.height;
}

export class ChunkView {
  readonly container = new Container();
  /** The squares: one Graphics for each part drawSome drew. */
  private readonly squareLayer = new Container({ label: 'squares' });
  private readonly thumbLayer = new Container({ label: 'thumbnails' });
  /** Published cells with a thumbnail, by index into the snapshot. */
  private thumbCells: number[] = [];
  /** The details' version thumbCells was found with (region answers add thumbnails later on large trees). */
  private detailsVersion = -1;
  private readonly requests = new Map<number, ThumbnailRequest>();
  private alive = true;
  /** How far drawing has come: the next of the entry's cells, and of its slots, to draw. */
  private nextCell = 0;
  private nextSlot = 0;
  private squares = 0;

  constructor(
    readonly entry: ChunkEntry,
    private readonly cells: TreeCells,
    private readonly slots: readonly { row: number; column: number }[],
    private readonly details: CellDetails,
    private readonly thumbnails: ThumbnailCache,
    /** Called when the chunk's picture changes outside a camera move (a thumbnail arrived). */
    private readonly onChange: () => void,
  ) {
    this.container.label = `chunk ${entry.chunkRow},${entry.chunkColumn}`;
    this.container.addChild(this.squareLayer, this.thumbLayer);
  }

  /** Whether every square of the chunk is drawn. */
  get complete(): boolean {
    return this.nextCell >= this.entry.cells.length && this.nextSlot >= this.entry.slots.length;
  }

  /** Squares this chunk draws so far: cells plus branch slots. */
  get squareCount(): number {
    return this.squares;
  }

  /**
   * Draws the squares not drawn yet, as one more Graphics, up to `budget` in drawing cost (cell-look.ts) and one
   * square at least; answers the cost drawn. Called once with no budget, it draws the whole chunk.
   */
  drawSome(budget = Infinity): number {
    const { cells, entry } = this;
    const part = new Graphics();
    // A published square is PixiJS's tinted quad (the white texture in the square's colour): no path of its own to
    // copy and no fill style to read, about a quarter of a path and a fill's cost to record and to turn into
    // triangles, and these are most of a grown tree's squares (decision 045). It takes the part's fill alpha, which
    // is 1 until the looks are painted at the end (finish).
    const batch = new SquareBatch(
      part,
      (x, y, size, color) => void part.texture(Texture.WHITE, color, x, y, size, size),
    );
    let cost = 0;
    const fits = (more: number) => cost === 0 || cost + more <= budget;
    for (; this.nextCell < entry.cells.length; this.nextCell++) {
      const i = entry.cells[this.nextCell]!;
      const status = cells.status[i]!;
      if (status === ABSENT_STATUS) continue;
      const more = drawingCostOf(status);
      if (!fits(more)) break;
      batch.add(cells.col[i]! * CELL_PITCH, cells.row[i]! * CELL_PITCH, status, cells.color[i]!);
      cost += more;
      this.squares++;
    }
    if (this.nextCell >= entry.cells.length) {
      for (; this.nextSlot < entry.slots.length && fits(BRANCH_SLOT_DRAWING_COST); this.nextSlot++) {
        const slot = this.slots[entry.slots[this.nextSlot]!]!;
        batch.addBranchSlot(slot.column * CELL_PITCH, slot.row * CELL_PITCH);
        cost += BRANCH_SLOT_DRAWING_COST;
        this.squares++;
      }
    }
    batch.finish();
    this.squareLayer.addChild(part);
    return cost;
  }

  get visible(): boolean {
    return this.container.visible;
  }

  set visible(value: boolean) {
    this.container.visible = value;
    if (!value) this.releaseThumbnails();
  }

  get thumbnailsHeld(): number {
    return this.requests.size;
  }

  /** Thumbnails on screen: the sprites of arrived pictures, while the layer shows. */
  get thumbnailsDrawn(): number {
    return this.thumbLayer.visible ? this.thumbLayer.children.length : 0;
  }

  /**
   * Asks for the thumbnails of cells touching `load` (null: zoomed out, show none) and gives back those of cells
   * outside `keep`.
   */
  updateThumbnails(load: Rect | null, keep: Rect): void {
    this.thumbLayer.visible = load !== null;
    if (load === null && this.requests.size === 0) return;
    // A small tree's snapshot carries every thumbnail; a large tree's arrive with region answers.
    const version = this.details.inSnapshot ? 0 : this.details.version;
    if (this.detailsVersion !== version) this.findThumbCells(version);
    for (const i of this.thumbCells) {
      const x = this.cells.col[i]! * CELL_PITCH;
      const y = this.cells.row[i]! * CELL_PITCH;
      const held = this.requests.get(i);
      if (load && touches(load, x, y)) {
        if (!held) this.request(i, x, y);
      } else if (held && !touches(keep, x, y)) {
        this.release(i, held);
      }
    }
  }

  private findThumbCells(version: number): void {
    this.detailsVersion = version;
    const found: number[] = [];
    for (const i of this.entry.cells) {
      if (this.cells.status[i] === CellStatus.Published && this.details.thumbOf(i)) found.push(i);
    }
    this.thumbCells = found;
  }

  private request(i: number, x: number, y: number): void {
    const url = this.details.thumbOf(i);
    if (!url) return;
    const request: ThumbnailRequest = { url, sprite: null, cancelled: false };
    this.requests.set(i, request);
    this.thumbnails.acquire(request.url, (texture) => {
      if (!this.alive || request.cancelled || !texture) return;
      const sprite = new Sprite(texture);
      sprite.position.set(x, y);
      sprite.setSize(CELL_SIZE, CELL_SIZE);
      request.sprite = sprite;
      this.thumbLayer.addChild(sprite);
      this.onChange();
    });
  }

  private release(i: number, request: ThumbnailRequest): void {
    request.cancelled = true;
    request.sprite?.destroy();
    this.requests.delete(i);
    this.thumbnails.release(request.url);
  }

  private releaseThumbnails(): void {
    for (const [i, request] of this.requests) this.release(i, request);
  }

  destroy(): void {
    this.releaseThumbnails();
    this.alive = false;
    this.container.destroy({ children: true });
  }
}
