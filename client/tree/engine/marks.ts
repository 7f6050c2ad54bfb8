/**
 * Marks drawn over the squares, in the world above the chunks: the viewer's own squares, the square find-free or
 * find-my-slots just brought into view, and the keyboard's focus cell.
 */
import { Graphics } from 'pixi.js';
import { CellStatus } from '#shared/domain.ts';
import { CELL_PITCH, CELL_SIZE } from '#shared/tree/camera.ts';
import { PALETTE } from '#shared/tree/cell-look.ts';

export interface MarkedCell {
  row: number;
  column: number;
}

export interface OwnCell extends MarkedCell {
  status: number;
}

export interface Marks {
  mine: readonly OwnCell[];
  target: MarkedCell | null;
  focus: MarkedCell | null;
}

const S = CELL_SIZE;

/** Corner brackets just outside a square: the keyboard's focus. */
function drawFocus(g: Graphics, x: number, y: number): void {
  const out = 7;
  const arm = 26;
  const left = x - out;
  const top = y - out;
  const right = x + S + out;
  const bottom = y + S + out;
  g.rect(x - 3, y - 3, S + 6, S + 6).stroke({ width: 3, color: PALETTE.background });
  g.rect(x - 1.5, y - 1.5, S + 3, S + 3).stroke({ width: 3, color: PALETTE.ink });
  g.moveTo(left, top + arm)
    .lineTo(left, top)
    .lineTo(left + arm, top);
  g.moveTo(right - arm, top)
    .lineTo(right, top)
    .lineTo(right, top + arm);
  g.moveTo(right, bottom - arm)
    .lineTo(right, bottom)
    .lineTo(right - arm, bottom);
  g.moveTo(left + arm, bottom)
    .lineTo(left, bottom)
    .lineTo(left, bottom - arm);
  g.stroke({ width: 4, color: PALETTE.ink, cap: 'square', join: 'miter' });
}

/** A square of the viewer's: an ochre frame, and a filled corner flag; a reserved one of theirs is also tinted. */
function drawMine(g: Graphics, x: number, y: number, status: number): void {
  if (status === CellStatus.Reserved) g.rect(x, y, S, S).fill({ color: PALETTE.mine, alpha: 0.28 });
  g.rect(x - 2, y - 2, S + 4, S + 4).stroke({ width: 4, color: PALETTE.mine });
  // The flag sits in the top-left corner: a reserved square's own marker is in the top-right.
  g.poly([x - 2, y - 2, x + 30, y - 2, x - 2, y + 30]).fill({ color: PALETTE.mine });
  g.circle(x + 9, y + 9, 3.5).fill({ color: PALETTE.availableFill });
}

/** The square a find just brought to the centre: a wide halo in the accent colour. */
function drawTarget(g: Graphics, x: number, y: number): void {
  g.roundRect(x - 16, y - 16, S + 32, S + 32, 14).stroke({ width: 5, color: PALETTE.target, alpha: 0.9 });
  g.roundRect(x - 26, y - 26, S + 52, S + 52, 20).stroke({ width: 3, color: PALETTE.target, alpha: 0.35 });
}

/** Few marks at a time, so one Graphics redrawn only when they change. */
export class MarkLayer {
  readonly graphics = new Graphics({ label: 'marks' });

  draw(marks: Marks): void {
    const g = this.graphics;
    g.clear();
    for (const cell of marks.mine) drawMine(g, cell.column * CELL_PITCH, cell.row * CELL_PITCH, cell.status);
    if (marks.target) drawTarget(g, marks.target.column * CELL_PITCH, marks.target.row * CELL_PITCH);
    if (marks.focus) drawFocus(g, marks.focus.column * CELL_PITCH, marks.focus.row * CELL_PITCH);
  }

  destroy(): void {
    this.graphics.destroy();
  }
}
