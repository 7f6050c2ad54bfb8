/**
 * A short outline round squares that just changed on screen (the live tree), fading out within FADE_MS, so a
 * visitor sees where the tree moved. One Graphics redrawn each frame while any outline is fading; none at all when
 * the visitor prefers reduced motion (the engine never asks).
 */
import { Graphics } from 'pixi.js';
import { CELL_PITCH, CELL_SIZE, type Rect } from '#shared/tree/camera.ts';
import { PALETTE } from '#shared/tree/cell-look.ts';
import type { Position } from './focus.ts';

export const FADE_MS = 1400;
/** More changed squares than this on screen at once are not outlined one by one (a bulk change). */
const MAX_OUTLINED = 400;

export class ChangeHighlight {
  readonly graphics = new Graphics({ label: 'change highlight' });
  private squares: Position[] = [];
  private startedAt = 0;

  get active(): boolean {
    return this.squares.length > 0;
  }

  /** Outlines the squares among `positions` that lie in `view` (world pixels), from `now`. */
  show(positions: readonly Position[], view: Rect, now: number): void {
    const onScreen = positions.filter(
      (p) =>
        p.column * CELL_PITCH + CELL_SIZE > view.x &&
        p.column * CELL_PITCH < view.x + view.width &&
        p.row * CELL_PITCH + CELL_SIZE > view.y &&
        p.row * CELL_PITCH < view.y + view.height,
    );
    if (onScreen.length === 0) return;
    // Squares still fading from an earlier batch restart with the new ones: one clock keeps the drawing cheap.
    this.squares = [...this.squares, ...onScreen].slice(-MAX_OUTLINED);
    this.startedAt = now;
  }

  /** Draws this frame's outlines; false once they have faded. */
  step(now: number): boolean {
    const g = this.graphics;
    g.clear();
    const left = 1 - (now - this.startedAt) / FADE_MS;
    if (left <= 0 || this.squares.length === 0) {
      this.squares = [];
      return false;
    }
    for (const square of this.squares)
      g.rect(square.column * CELL_PITCH - 4, square.row * CELL_PITCH - 4, CELL_SIZE + 8, CELL_SIZE + 8);
    g.stroke({ width: 4, color: PALETTE.mine, alpha: left });
    return true;
  }

  clear(): void {
    this.squares = [];
    this.graphics.clear();
  }

  destroy(): void {
    this.graphics.destroy();
  }
}
