/**
 * How each cell status looks on the canvas: published = its art's dominant colour (the thumbnail covers it when zoomed
 * in), available = light with an accent outline, reserved = muted and hatched with a marker, pending = a faint outline,
 * a branch slot = an available square with a dashed outline. Drawn through `Pen`, for the engine and the first sketch.
 */
import { CellStatus } from '../domain.ts';
import { CELL_SIZE } from './camera.ts';

/**
 * A path-and-paint surface, the part of PixiJS's Graphics these looks use: Graphics is one, and
 * server/services/tree/tree-sketch.ts writes SVG through one, so the page's first sketch draws every square exactly as
 * the engine later does.
 */
/* eslint-disable @typescript-eslint/method-signature-style -- PixiJS's own methods, each returning `this` */
export interface Pen {
  rect(x: number, y: number, width: number, height: number): this;
  circle(x: number, y: number, radius: number): this;
  moveTo(x: number, y: number): this;
  lineTo(x: number, y: number): this;
  fill(style: { color: number; alpha?: number }): this;
  /** `alignment: 1` keeps the line inside the shape's edge (PixiJS's meaning). */
  stroke(style: { width: number; color: number; alpha?: number; alignment?: number; cap?: 'square' }): this;
}
/* eslint-enable @typescript-eslint/method-signature-style */

export const PALETTE = {
  background: 0xf5f2ec,
  ink: 0x2b2824,
  accent: 0x2e6b57,
  availableFill: 0xfdfcf9,
  reservedFill: 0xe6e1d8,
  reservedHatch: 0xcfc8bb,
  reservedMarker: 0x8a6a4a,
  pendingLine: 0xddd7cc,
  publishedFallback: 0xc8c0b3,
  band: 0xe8e2d6,
  ground: 0xefeae1,
  bandLine: 0xb9b0a2,
  /** The viewer's own squares (find-my-slots, reserved-by-me). */
  mine: 0xd2a145,
  /** The square a find just centred. */
  target: 0x2e6b57,
} as const;

/** The divider bands' strips (layout.ts bandStrips), by kind. */
export const STRIP_COLOURS = { ground: PALETTE.ground, band: PALETTE.band, line: PALETTE.bandLine } as const;

const S = CELL_SIZE;

/**
 * A look is layers painted in order; each layer adds its shapes for every square it is given to the path, then
 * paints them once. One square or a chunk's worth, the picture is the same (squares never overlap), but a chunk of the
 * growth frontier's free and reserved squares is a few dozen fills and strokes instead of a thousand.
 */
interface Layer {
  shape: (g: Pen, x: number, y: number) => void;
  paint: (g: Pen) => void;
}

const square = (g: Pen, x: number, y: number) => void g.rect(x, y, S, S);

const plus: Layer = {
  shape(g, x, y) {
    const c = S / 2;
    const arm = 9;
    g.moveTo(x + c - arm, y + c).lineTo(x + c + arm, y + c);
    g.moveTo(x + c, y + c - arm).lineTo(x + c, y + c + arm);
  },
  paint: (g) => void g.stroke({ width: 2, color: PALETTE.accent, alpha: 0.45, cap: 'square' }),
};

const PENDING: Layer[] = [
  { shape: square, paint: (g) => void g.stroke({ width: 1.5, color: PALETTE.pendingLine, alignment: 1 }) },
];

const AVAILABLE: Layer[] = [
  {
    shape: square,
    paint: (g) =>
      void g.fill({ color: PALETTE.availableFill }).stroke({ width: 2.5, color: PALETTE.accent, alignment: 1 }),
  },
  plus,
];

/** A computed branch slot: available, but not yet a cell, so its outline is dashed. */
const BRANCH_SLOT: Layer[] = [
  { shape: square, paint: (g) => void g.fill({ color: PALETTE.availableFill, alpha: 0.85 }) },
  {
    shape(g, x, y) {
      const dash = 10;
      const gapLength = 6.667; // 100 = 6 dashes + 6 gaps, centred on each edge
      const inset = 1.25;
      for (let d = gapLength / 2; d < S; d += dash + gapLength) {
        const end = Math.min(S, d + dash);
        g.moveTo(x + d, y + inset).lineTo(x + end, y + inset);
        g.moveTo(x + d, y + S - inset).lineTo(x + end, y + S - inset);
        g.moveTo(x + inset, y + d).lineTo(x + inset, y + end);
        g.moveTo(x + S - inset, y + d).lineTo(x + S - inset, y + end);
      }
    },
    paint: (g) => void g.stroke({ width: 2.5, color: PALETTE.accent, alpha: 0.9 }),
  },
  plus,
];

const RESERVED: Layer[] = [
  { shape: square, paint: (g) => void g.fill({ color: PALETTE.reservedFill }) },
  {
    // Diagonal hatching clipped to the square: each line runs from the left/bottom edge to the top/right edge.
    shape(g, x, y) {
      const spacing = 14;
      for (let k = spacing; k < 2 * S; k += spacing) {
        g.moveTo(x + Math.max(0, k - S), y + Math.min(k, S)).lineTo(x + Math.min(k, S), y + Math.max(0, k - S));
      }
    },
    paint: (g) => void g.stroke({ width: 2, color: PALETTE.reservedHatch }),
  },
  {
    shape: (g, x, y) => void g.circle(x + S - 15, y + 15, 7),
    paint: (g) => void g.fill({ color: PALETTE.background }).stroke({ width: 2.5, color: PALETTE.reservedMarker }),
  },
];

/** Draws `look` on the squares whose top-left corners `corners` lists, as x, y pairs. */
function drawLook(g: Pen, look: readonly Layer[], corners: ArrayLike<number>): void {
  if (corners.length === 0) return;
  for (const layer of look) {
    for (let i = 0; i < corners.length; i += 2) layer.shape(g, corners[i]!, corners[i + 1]!);
    layer.paint(g);
  }
}

/** A published square's colour: its art's dominant colour, or a neutral one when none is known (-1). */
const publishedColour = (color: number) => (color < 0 ? PALETTE.publishedFallback : color);

/** A square of one colour as a path and a fill: how any Pen can paint one. */
const fillSquare = (g: Pen, x: number, y: number, size: number, color: number) =>
  void g.rect(x, y, size, size).fill({ color });

function drawPublished(g: Pen, x: number, y: number, color: number): void {
  fillSquare(g, x, y, S, publishedColour(color));
}

/**
 * Paints one square of one colour. A surface may have a cheaper way than a path and a fill: the engine's is PixiJS's
 * tinted quad (client/tree/engine/chunk-view.ts).
 */
export type SolidSquare = (x: number, y: number, size: number, color: number) => void;

const LOOKS: Record<number, readonly Layer[]> = {
  [CellStatus.Available]: AVAILABLE,
  [CellStatus.Reserved]: RESERVED,
};

/**
 * What a square costs the engine to draw, a published square (a tinted quad) being 1: PixiJS's time to record the
 * square and to turn it into triangles at its chunk's first render, measured a look at a time on chunks of 256 squares
 * (decision 045). A pending square is a rectangle in a path stroked once for all of them, a free one a framed
 * rectangle and a plus, a branch slot its dashes and a plus; a reserved one's hatching and round marker make 173
 * vertices.
 */
const DRAWING_COST = new Map<readonly Layer[], number>([
  [PENDING, 2],
  [AVAILABLE, 6],
  [RESERVED, 48],
  [BRANCH_SLOT, 42],
]);
export const BRANCH_SLOT_DRAWING_COST = DRAWING_COST.get(BRANCH_SLOT)!;

export function drawingCostOf(status: number): number {
  return status === CellStatus.Published ? 1 : DRAWING_COST.get(LOOKS[status] ?? PENDING)!;
}

export function drawCell(g: Pen, x: number, y: number, status: number, color: number): void {
  if (status === CellStatus.Published) drawPublished(g, x, y, color);
  else drawLook(g, LOOKS[status] ?? PENDING, [x, y]);
}

export function drawBranchSlot(g: Pen, x: number, y: number): void {
  drawLook(g, BRANCH_SLOT, [x, y]);
}

/**
 * Squares gathered by look (a chunk's), then drawn together: a published square has its own colour and is drawn as
 * it comes; the others wait in lists by look and are drawn a look at a time.
 */
export class SquareBatch {
  private readonly byLook = new Map<readonly Layer[], number[]>();

  constructor(
    private readonly g: Pen,
    /** How published squares are painted; by default a path and a fill on `g`. */
    private readonly solid: SolidSquare = (x, y, size, color) => fillSquare(g, x, y, size, color),
  ) {}

  add(x: number, y: number, status: number, color: number): void {
    if (status === CellStatus.Published) this.solid(x, y, S, publishedColour(color));
    else this.corners(LOOKS[status] ?? PENDING).push(x, y);
  }

  addBranchSlot(x: number, y: number): void {
    this.corners(BRANCH_SLOT).push(x, y);
  }

  /** Draws the squares waiting, a look at a time. */
  finish(): void {
    for (const [look, corners] of this.byLook) drawLook(this.g, look, corners);
    this.byLook.clear();
  }

  private corners(look: readonly Layer[]): number[] {
    let list = this.byLook.get(look);
    if (!list) this.byLook.set(look, (list = []));
    return list;
  }
}
