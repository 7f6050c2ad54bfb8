/** The outline of the square under the mouse, so what can be opened is plain to see. */
import { Graphics } from 'pixi.js';
import { positionKey } from '#shared/tree/geometry.ts';
import { CELL_PITCH, CELL_SIZE } from '#shared/tree/camera.ts';
import { PALETTE } from '#shared/tree/cell-look.ts';
import type { Position } from './focus.ts';

export class HoverOutline {
  readonly graphics = new Graphics({ label: 'hover' });
  private key: number | null = null;

  /** Outlines this square (null: none); false when it was already the outlined one. */
  show(square: Position | null): boolean {
    const key = square ? positionKey(square.row, square.column) : null;
    if (key === this.key) return false;
    this.key = key;
    this.graphics.clear();
    if (square) {
      this.graphics
        .rect(square.column * CELL_PITCH - 3, square.row * CELL_PITCH - 3, CELL_SIZE + 6, CELL_SIZE + 6)
        .stroke({ width: 2, color: PALETTE.ink, alpha: 0.55 });
    }
    return true;
  }

  destroy(): void {
    this.graphics.destroy();
  }
}
