/**
 * The tree's zoom into one piece's pyramid (decision 048) on the canvas: over the piece's square, the one-tile level
 * as a backdrop and the tiles on screen of the level the zoom needs, clipped to the square. Tiles are asked for as
 * they come on screen and given back as they leave it, the level changes or the zoom goes back out, so textures
 * follow the screen; one piece at a time.
 */
import { Container, Graphics, Sprite } from 'pixi.js';
import type { PiecePyramid } from '#shared/deep-zoom.ts';
import { cellToWorld, type Camera } from '#shared/tree/camera.ts';
import { deepZoomTiles, levelPixelWorld, picturePlacement } from './deep-zoom-view.ts';
import { TexturePool } from './thumbnails.ts';

/** The piece drawn deep: its square and its pyramid. */
export interface DeepPiece {
  row: number;
  column: number;
  pyramid: PiecePyramid;
}

/**
 * Tiles a frame may add to the layer. Each one added is a texture uploaded in the next render, which in a software
 * WebGL holds the main thread for a while: a zoom step's twenty 256 px tiles arriving together made one frame of
 * 10 ms. Tiles are now 128 px, a quarter of those pixels each, but each upload has its own cost besides its pixels:
 * four a frame upload about half the pixels two of the old ones did.
 */
const TILES_A_FRAME = 4;

interface HeldTile {
  sprite: Sprite | null;
  cancelled: boolean;
}

export class DeepZoomLayer {
  readonly container = new Container({ label: 'deep zoom' });
  private readonly clip = new Graphics();
  /** The backdrop's level and the level drawn over it. */
  private readonly backdrop = new Container({ label: 'deep zoom backdrop' });
  private readonly detail = new Container({ label: 'deep zoom tiles' });
  private readonly held = new Map<string, HeldTile>();
  /** Tiles arrived and not yet added, oldest first (added a few a frame: step). */
  private readonly arrived: (() => void)[] = [];
  private piece: DeepPiece | null = null;
  /** The level drawn (the backdrop's when the zoom needs no finer one); null while nothing is. */
  level: number | null = null;

  constructor(
    /** Asks for another frame (a tile arrived). */
    private readonly onChange: () => void,
    private readonly pool = new TexturePool(),
  ) {
    this.container.addChild(this.backdrop, this.detail, this.clip);
    this.container.mask = this.clip;
    this.container.visible = false;
  }

  /** Tiles held now (arrived or on their way). */
  get tileCount(): number {
    return this.held.size;
  }

  /** Arrived tiles wait to be added: the engine draws another frame. */
  get waiting(): boolean {
    return this.arrived.length > 0;
  }

  /** Adds the next few arrived tiles (each frame, before it is drawn). */
  step(): void {
    for (let added = 0; added < TILES_A_FRAME && this.arrived.length > 0; added++) this.arrived.shift()!();
  }

  /**
   * Draws `piece` (null: none) as the camera shows it, in a viewport of `width` × `height` CSS pixels drawn at
   * `pixelRatio` device pixels each.
   */
  show(piece: DeepPiece | null, camera: Camera, viewport: { width: number; height: number; pixelRatio: number }): void {
    if (piece !== this.piece) this.place(piece);
    const tiles = piece ? deepZoomTiles(piece.pyramid, piece, camera, viewport) : null;
    this.container.visible = tiles !== null;
    this.level = tiles ? Math.max(tiles.level, tiles.backdrop) : null;
    if (!piece || !tiles) return this.keepOnly(new Set());
    const { descriptor } = piece.pyramid;
    const { perPixel } = picturePlacement(descriptor, piece.row, piece.column);
    this.backdrop.scale.set(levelPixelWorld(descriptor, tiles.backdrop, perPixel));
    this.detail.scale.set(levelPixelWorld(descriptor, tiles.level, perPixel));
    const wanted = new Set<string>();
    for (const spot of tiles.backdropTiles) wanted.add(spot.url);
    for (const spot of tiles.tiles) wanted.add(spot.url);
    this.keepOnly(wanted);
    for (const spot of tiles.backdropTiles) this.request(spot, this.backdrop);
    for (const spot of tiles.tiles) this.request(spot, this.detail);
  }

  /** Another piece (or none): what was drawn of the last one goes, the layers move over the new square. */
  private place(piece: DeepPiece | null): void {
    this.keepOnly(new Set());
    this.piece = piece;
    this.clip.clear();
    if (!piece) return;
    const cell = cellToWorld(piece.row, piece.column);
    this.clip.rect(cell.x, cell.y, cell.width, cell.height).fill(0xffffff);
    const placed = picturePlacement(piece.pyramid.descriptor, piece.row, piece.column);
    this.backdrop.position.set(placed.x, placed.y);
    this.detail.position.set(placed.x, placed.y);
  }

  private request(spot: { url: string; left: number; top: number; width: number; height: number }, layer: Container) {
    if (this.held.has(spot.url)) return;
    const tile: HeldTile = { sprite: null, cancelled: false };
    this.held.set(spot.url, tile);
    this.pool.acquire(spot.url, (texture) => {
      if (tile.cancelled || !texture) return;
      this.arrived.push(() => {
        if (tile.cancelled) return;
        const sprite = new Sprite(texture);
        sprite.position.set(spot.left, spot.top);
        sprite.setSize(spot.width, spot.height);
        tile.sprite = sprite;
        layer.addChild(sprite);
      });
      this.onChange();
    });
  }

  /** Gives back every tile held but those of `wanted`. */
  private keepOnly(wanted: Set<string>): void {
    for (const [url, tile] of this.held) {
      if (wanted.has(url)) continue;
      tile.cancelled = true;
      tile.sprite?.destroy();
      this.held.delete(url);
      this.pool.release(url);
    }
  }

  destroy(): void {
    this.arrived.length = 0;
    this.keepOnly(new Set());
    this.piece = null;
    this.container.destroy({ children: true });
  }
}
