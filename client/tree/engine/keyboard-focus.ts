/**
 * The keyboard's focus cell (decisions 010 and 029): where it is, whether it is shown (only while the canvas has
 * keyboard focus), and its moves square by square (focus.ts) and far (far-moves.ts).
 */
import { CellStatus } from '#shared/domain.ts';
import { CELL_PITCH, CELL_SIZE, cellCentre, screenToWorld, type Camera } from '#shared/tree/camera.ts';
import { centredInUncovered, uncoveredViewRect, type Insets } from './covered-insets.ts';
import {
  bandLabel,
  bandStep,
  edgeText,
  farEdgeText,
  nextInList,
  nextInReadingOrder,
  pageStep,
  rowEnd,
  type BandRows,
  type FarMove,
  type GridExtent,
} from './far-moves.ts';
import { nearestSquare, stepFocus, type Position } from './focus.ts';

export interface FocusHost {
  hasSquare: (row: number, column: number) => boolean;
  camera: () => Camera;
  viewport: () => { width: number; height: number };
  /** What the page's controls cover of the canvas: a square is revealed in the rest. */
  covered: () => Insets;
  /** Moves the camera (as a visitor's move: it ends a flight). */
  pan: (camera: Camera) => void;
  /** The focus or its visibility changed: redraw the marks. */
  changed: () => void;
  /**
   * Says what the focused square is (null: nothing is focused); `fresh` when the square itself changed; `note` goes
   * before it (the band a B jump reached).
   */
  announce: (position: Position | null, fresh: boolean, note?: string) => void;
  /** Says something other than a square: that the tree ends there. */
  notice: (text: string) => void;
  /** Enter on the focused square. */
  open: (position: Position) => void;
  /** Whether the canvas has the page's keyboard focus. */
  hasPageFocus: () => boolean;
  /** The rows and columns the tree spans (null: no tree), and its bands. */
  extent: () => GridExtent | null;
  bands: () => readonly BandRows[];
  /** The status of the cell or slot at a position, or null when there is none. */
  statusAt: (row: number, column: number) => number | null;
  /** The free squares, cells and branch slots, in reading order. */
  freeSquares: () => readonly Position[];
}

/** How a focus move brings its square into view: not at all, just enough, or centred when it is off screen. */
export type Reveal = 'none' | 'nudge' | 'centre';

/**
 * Keeps the focus on screen and tells the page what it is, or that the tree ends there. The engine is its host
 * (FocusHost): it answers what lies where and does the panning, drawing and opening.
 */
export class KeyboardFocus {
  private current: Position | null = null;
  /** What was said before the focused square when it was reached (its band), said again with it. */
  private note: string | undefined;
  private visible = false;

  constructor(private readonly host: FocusHost) {}

  /** The focused square while it is shown, else null (what the marks draw). */
  get shown(): Position | null {
    return this.visible ? this.current : null;
  }

  get position(): Position | null {
    return this.current;
  }

  /** The canvas gained or lost keyboard focus: show the focus cell (starting in the middle) or hide it. */
  setShown(shown: boolean): void {
    this.visible = shown;
    if (shown && !this.current) this.current = this.squareNearCentre();
    if (shown && this.current) this.host.announce(this.current, true, this.note);
    this.host.changed();
  }

  /**
   * Puts the focus on a square and brings it into view (`reveal` 'none': the caller is taking the view there itself).
   * `announce` false keeps it quiet (the caller says where it went in its own words).
   */
  focus(row: number, column: number, options: { reveal?: Reveal; note?: string; announce?: boolean } = {}): void {
    if (!this.host.hasSquare(row, column)) return;
    this.current = { row, column };
    this.note = options.note;
    const reveal = options.reveal ?? 'nudge';
    if (reveal !== 'none') this.keepInView(row, column, reveal === 'centre');
    if (options.announce !== false) this.host.announce(this.current, true, options.note);
    this.host.changed();
  }

  /** An arrow key: the next square that way (the middle one, if nothing was focused yet); at the edge, says so. */
  move(dRow: number, dColumn: number): void {
    this.visible = true;
    if (!this.current) return this.focusNearCentre();
    const next = stepFocus(this.host.hasSquare, this.current, dRow, dColumn);
    if (next) return this.focus(next.row, next.column);
    this.host.changed();
    this.host.notice(edgeText(dRow, dColumn));
  }

  /** A long move (far-moves.ts): the square it reaches, centred when it is off screen; at the edge, says so. */
  farMove(move: FarMove): void {
    this.visible = true;
    const from = this.current;
    const extent = this.host.extent();
    if (!from || !extent) return this.focusNearCentre();
    const { hasSquare } = this.host;
    let target: Position | null = null;
    let note: string | undefined;
    switch (move.kind) {
      case 'row-end':
        target = rowEnd(hasSquare, extent, from, move.direction);
        break;
      case 'page':
        target = pageStep(hasSquare, extent, from, this.rowsPerScreen(), move.direction);
        break;
      case 'band': {
        const step = bandStep(hasSquare, extent, this.host.bands(), from, move.direction);
        target = step?.position ?? null;
        if (step) note = `${bandLabel(step.band.name)} band`;
        break;
      }
      case 'next':
        target =
          move.what === 'free'
            ? nextInList(this.host.freeSquares(), from, move.direction)
            : nextInReadingOrder(
                (row, column) => this.host.statusAt(row, column) === CellStatus.Published,
                extent,
                from,
                move.direction,
              );
        break;
    }
    if (target) return this.focus(target.row, target.column, { reveal: 'centre', note });
    this.host.changed();
    this.host.notice(farEdgeText(move));
  }

  activate(): void {
    if (this.current) this.host.open(this.current);
  }

  /**
   * What is known about the focused square changed (its region arrived): say it again, while the canvas has the
   * keyboard (its ring shown, or the page's focus on it without the ring: a square come back to after a click).
   */
  refresh(): void {
    if ((this.visible || this.host.hasPageFocus()) && this.current) this.host.announce(this.current, false, this.note);
  }

  private focusNearCentre(): void {
    const start = this.squareNearCentre();
    if (start) this.focus(start.row, start.column);
    else this.host.changed();
  }

  /** Whole rows the screen shows at the current zoom (Page Up and Down move by this many). */
  private rowsPerScreen(): number {
    const { height } = this.host.viewport();
    return Math.max(1, Math.floor(height / (CELL_PITCH * this.host.camera().scale)));
  }

  private squareNearCentre(): Position | null {
    const { width, height } = this.host.viewport();
    const centre = screenToWorld(this.host.camera(), { x: width / 2, y: height / 2 });
    return nearestSquare(this.host.hasSquare, {
      row: Math.floor(centre.y / CELL_PITCH),
      column: Math.floor(centre.x / CELL_PITCH),
    });
  }

  /** Pans for the square to be seen (cameraRevealing). */
  private keepInView(row: number, column: number, centre: boolean): void {
    const { width, height } = this.host.viewport();
    if (width === 0) return;
    const camera = this.host.camera();
    const next = cameraRevealing(camera, width, height, this.host.covered(), { row, column }, centre);
    if (next.x !== camera.x || next.y !== camera.y) this.host.pan(next);
  }
}

/**
 * The camera that shows the square at `position`: moved just enough for the square, and a margin round it (a square's
 * pitch, or a quarter of the width seen if less), to be seen; with `centre`, a square that cannot be seen at all is
 * centred instead. Seen means in the part of the canvas (`width` × `height` CSS pixels) the page's controls, the
 * toolbar and the replay's button, leave uncovered (`insets`).
 */
export function cameraRevealing(
  camera: Camera,
  width: number,
  height: number,
  insets: Insets,
  position: Position,
  centre: boolean,
): Camera {
  const { row, column } = position;
  const view = uncoveredViewRect(camera, width, height, insets);
  const margin = Math.min(CELL_PITCH, view.width / 4);
  // A part too small for the square with that margin round it (a short screen, zoomed in) keeps what margin it holds.
  const marginX = Math.max(0, Math.min(margin, (view.width - CELL_SIZE) / 2));
  const marginY = Math.max(0, Math.min(margin, (view.height - CELL_SIZE) / 2));
  const left = column * CELL_PITCH - marginX;
  const top = row * CELL_PITCH - marginY;
  const right = column * CELL_PITCH + CELL_SIZE + marginX;
  const bottom = row * CELL_PITCH + CELL_SIZE + marginY;
  const unseen =
    column * CELL_PITCH + CELL_SIZE <= view.x ||
    column * CELL_PITCH >= view.x + view.width ||
    row * CELL_PITCH + CELL_SIZE <= view.y ||
    row * CELL_PITCH >= view.y + view.height;
  if (centre && unseen) return centredInUncovered(cellCentre(row, column), camera.scale, width, height, insets);
  let { x, y } = camera;
  if (left < view.x) x += left - view.x;
  else if (right > view.x + view.width) x += right - (view.x + view.width);
  if (top < view.y) y += top - view.y;
  else if (bottom > view.y + view.height) y += bottom - (view.y + view.height);
  return { x, y, scale: camera.scale };
}
