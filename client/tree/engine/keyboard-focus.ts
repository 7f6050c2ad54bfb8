/**
 * The keyboard's focus cell (DESIGN.md §6): where it is, whether it is shown (only while the canvas has keyboard
 * focus), moving it square by square (focus.ts), keeping it on screen, and telling the page what it is. The engine
 * is its host: it answers what lies where and does the panning, drawing and opening.
 */
import { CELL_PITCH, CELL_SIZE, screenToWorld, viewRect, type Camera } from '#shared/tree/camera.ts';
import { nearestSquare, stepFocus, type Position } from './focus.ts';

export interface FocusHost {
  hasSquare(row: number, column: number): boolean;
  camera(): Camera;
  viewport(): { width: number; height: number };
  /** Moves the camera (as a visitor's move: it ends a flight). */
  pan(camera: Camera): void;
  /** The focus or its visibility changed: redraw the marks. */
  changed(): void;
  /** Says what the focused square is (null: nothing is focused); `fresh` when the square itself changed. */
  announce(position: Position | null, fresh: boolean): void;
  /** Enter on the focused square. */
  open(position: Position): void;
}

export class KeyboardFocus {
  private current: Position | null = null;
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
    if (shown && this.current) this.host.announce(this.current, true);
    this.host.changed();
  }

  /** Puts the focus on a square and brings it into view (`pan` false: the caller is taking the view there itself). */
  focus(row: number, column: number, pan = true): void {
    if (!this.host.hasSquare(row, column)) return;
    this.current = { row, column };
    if (pan) this.keepInView(row, column);
    this.host.announce(this.current, true);
    this.host.changed();
  }

  /** An arrow key: the next square that way (the middle one, if nothing was focused yet). */
  move(dRow: number, dColumn: number): void {
    this.visible = true;
    const next = this.current ? stepFocus(this.host.hasSquare, this.current, dRow, dColumn) : this.squareNearCentre();
    if (next) this.focus(next.row, next.column);
    else this.host.changed();
  }

  activate(): void {
    if (this.current) this.host.open(this.current);
  }

  /** What is known about the focused square changed (its region arrived): say it again. */
  refresh(): void {
    if (this.visible && this.current) this.host.announce(this.current, false);
  }

  private squareNearCentre(): Position | null {
    const { width, height } = this.host.viewport();
    const centre = screenToWorld(this.host.camera(), { x: width / 2, y: height / 2 });
    return nearestSquare(this.host.hasSquare, { row: Math.floor(centre.y / CELL_PITCH), column: Math.floor(centre.x / CELL_PITCH) });
  }

  /** Pans just enough for the square (and a margin round it) to be on screen. */
  private keepInView(row: number, column: number): void {
    const { width, height } = this.host.viewport();
    if (width === 0) return;
    const camera = this.host.camera();
    const margin = Math.min(CELL_PITCH, width / 4 / camera.scale);
    const view = viewRect(camera, width, height);
    const left = column * CELL_PITCH - margin;
    const top = row * CELL_PITCH - margin;
    const right = column * CELL_PITCH + CELL_SIZE + margin;
    const bottom = row * CELL_PITCH + CELL_SIZE + margin;
    let { x, y } = camera;
    if (left < view.x) x = left;
    else if (right > view.x + view.width) x = right - view.width;
    if (top < view.y) y = top;
    else if (bottom > view.y + view.height) y = bottom - view.height;
    if (x !== camera.x || y !== camera.y) this.host.pan({ x, y, scale: camera.scale });
  }
}
