/**
 * Pointer, wheel and key input on the canvas, as the help popup (help-popup.tsx) describes it. Plain DOM events: hit
 * testing is one division, so Pixi's event system is not used.
 */
import type { Point } from '#shared/tree/camera.ts';
import type { FarMove } from './far-moves.ts';

export interface InputHandlers {
  pan: (screenDx: number, screenDy: number) => void;
  /** One zoom step about a screen point: +1 in, -1 out. */
  zoomStep: (anchor: Point, direction: 1 | -1) => void;
  /** One zoom step from the keyboard (+ and −): about the canvas's middle, or the piece meant (tree-engine.ts). */
  zoomKey: (direction: 1 | -1) => void;
  /** Continuous zoom (two-finger pinch) by a factor about a screen point. */
  zoomBy: (anchor: Point, factor: number) => void;
  tap: (point: Point) => void;
  /** A mouse moving with no button held; null when it leaves the canvas. */
  hover: (point: Point | null) => void;
  dragging: (active: boolean) => void;
  /** Arrow keys: move the focus cell one square in a direction. */
  moveFocus: (dRow: number, dColumn: number) => void;
  /** Enter (or Space) on the focus cell. */
  activate: () => void;
  /** Home, End, Page Up, Page Down, B, P, F (with Shift: the other way). */
  farMove: (move: FarMove) => void;
}

/** What a key does on the focused canvas (null: nothing, the browser keeps it). */
export type KeyCommand =
  | { kind: 'step'; dRow: number; dColumn: number }
  | { kind: 'activate' }
  | { kind: 'zoom'; direction: 1 | -1 }
  | { kind: 'far'; move: FarMove };

const STEPS: Record<string, [number, number]> = {
  ArrowLeft: [0, -1],
  ArrowRight: [0, 1],
  ArrowUp: [-1, 0],
  ArrowDown: [1, 0],
};

/** The command of a key (`key` as KeyboardEvent.key); Shift turns B, P and F the other way. */
export function keyCommand(key: string, shift: boolean): KeyCommand | null {
  const step = STEPS[key];
  if (step) return { kind: 'step', dRow: step[0], dColumn: step[1] };
  const back = shift ? -1 : 1;
  switch (key) {
    case 'Enter':
    case ' ':
      return { kind: 'activate' };
    case '+':
    case '=':
      return { kind: 'zoom', direction: 1 };
    case '-':
    case '_':
      return { kind: 'zoom', direction: -1 };
    case 'Home':
      return { kind: 'far', move: { kind: 'row-end', direction: -1 } };
    case 'End':
      return { kind: 'far', move: { kind: 'row-end', direction: 1 } };
    case 'PageUp':
      return { kind: 'far', move: { kind: 'page', direction: -1 } };
    case 'PageDown':
      return { kind: 'far', move: { kind: 'page', direction: 1 } };
  }
  switch (key.length === 1 ? key.toLowerCase() : '') {
    case 'b':
      return { kind: 'far', move: { kind: 'band', direction: back } };
    case 'p':
      return { kind: 'far', move: { kind: 'next', what: 'published', direction: back } };
    case 'f':
      return { kind: 'far', move: { kind: 'next', what: 'free', direction: back } };
  }
  return null;
}

const DRAG_THRESHOLD_MOUSE = 4;
const DRAG_THRESHOLD_TOUCH = 10;
/** Wheel distance (pixels) that makes one zoom step, so a trackpad pinch does not race through the levels. */
const ZOOM_WHEEL_STEP = 60;
const LINE_HEIGHT = 16;

interface ActivePointer {
  x: number;
  y: number;
}

/**
 * Drag (or one finger) pans, Ctrl+wheel zooms about the pointer, the wheel scrolls vertically and Shift+wheel
 * horizontally; a press released without dragging is a tap. Keys (decisions 010 and 029): the arrows move the focus
 * cell, Enter opens it, plus and minus zoom; Home, End, Page Up and Down, B, P and F make far-moves.ts's long moves.
 */
export class CanvasInput {
  private readonly pointers = new Map<number, ActivePointer>();
  private start: (Point & { touch: boolean }) | null = null;
  private isDragging = false;
  private pinchDistance = 0;
  private wheelZoom = 0;
  private readonly abort = new AbortController();

  constructor(
    private readonly element: HTMLElement,
    private readonly keyTarget: HTMLElement,
    private readonly handlers: InputHandlers,
  ) {
    const options = { signal: this.abort.signal };
    element.addEventListener('pointerdown', this.onPointerDown, options);
    element.addEventListener('pointermove', this.onPointerMove, options);
    element.addEventListener('pointerup', this.onPointerUp, options);
    element.addEventListener('pointercancel', this.onPointerCancel, options);
    element.addEventListener('pointerleave', () => this.handlers.hover(null), options);
    element.addEventListener('wheel', this.onWheel, { signal: this.abort.signal, passive: false });
    element.addEventListener('contextmenu', (e) => this.isDragging && e.preventDefault(), options);
    keyTarget.addEventListener('keydown', this.onKeyDown, options);
  }

  destroy(): void {
    this.abort.abort();
    this.pointers.clear();
  }

  private local(e: { clientX: number; clientY: number }): Point {
    const rect = this.element.getBoundingClientRect();
    return { x: e.clientX - rect.left, y: e.clientY - rect.top };
  }

  private onPointerDown = (e: PointerEvent): void => {
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    const p = this.local(e);
    this.pointers.set(e.pointerId, p);
    this.element.setPointerCapture?.(e.pointerId);
    if (this.pointers.size === 1) {
      this.start = { ...p, touch: e.pointerType !== 'mouse' };
      this.isDragging = false;
    } else if (this.pointers.size === 2) {
      this.pinchDistance = this.currentPinchDistance();
      this.start = null; // a second finger turns the gesture into a pinch, never a tap
    }
  };

  private onPointerMove = (e: PointerEvent): void => {
    const previous = this.pointers.get(e.pointerId);
    if (!previous) {
      if (e.pointerType === 'mouse') this.handlers.hover(this.local(e));
      return;
    }
    const p = this.local(e);
    this.pointers.set(e.pointerId, p);
    if (this.pointers.size >= 2) {
      const distance = this.currentPinchDistance();
      if (this.pinchDistance > 0 && distance > 0)
        this.handlers.zoomBy(this.pinchCentre(), distance / this.pinchDistance);
      this.pinchDistance = distance;
      this.setDragging(true);
      return;
    }
    if (!this.isDragging && this.start) {
      const threshold = this.start.touch ? DRAG_THRESHOLD_TOUCH : DRAG_THRESHOLD_MOUSE;
      if (Math.hypot(p.x - this.start.x, p.y - this.start.y) < threshold) return;
      this.setDragging(true);
      this.handlers.pan(p.x - this.start.x, p.y - this.start.y);
      return;
    }
    if (this.isDragging) this.handlers.pan(p.x - previous.x, p.y - previous.y);
  };

  private onPointerUp = (e: PointerEvent): void => {
    if (!this.pointers.has(e.pointerId)) return;
    const p = this.local(e);
    const wasTap = this.pointers.size === 1 && !this.isDragging && this.start !== null;
    this.pointers.delete(e.pointerId);
    if (wasTap) this.handlers.tap(p);
    if (this.pointers.size === 0) {
      this.start = null;
      this.setDragging(false);
    } else {
      this.pinchDistance = this.currentPinchDistance();
    }
  };

  private onPointerCancel = (e: PointerEvent): void => {
    this.pointers.delete(e.pointerId);
    if (this.pointers.size === 0) {
      this.start = null;
      this.setDragging(false);
    }
  };

  private onWheel = (e: WheelEvent): void => {
    e.preventDefault();
    const unit = e.deltaMode === 1 ? LINE_HEIGHT : e.deltaMode === 2 ? this.element.clientHeight : 1;
    const dx = e.deltaX * unit;
    const dy = e.deltaY * unit;
    if (e.ctrlKey || e.metaKey) {
      this.wheelZoom += dy;
      if (Math.abs(this.wheelZoom) >= ZOOM_WHEEL_STEP) {
        this.handlers.zoomStep(this.local(e), this.wheelZoom < 0 ? 1 : -1);
        this.wheelZoom = 0;
      }
      return;
    }
    this.wheelZoom = 0;
    if (e.shiftKey) this.handlers.pan(-(dy || dx), 0);
    else this.handlers.pan(-dx, -dy);
  };

  private onKeyDown = (e: KeyboardEvent): void => {
    if (e.altKey || e.ctrlKey || e.metaKey || e.target !== this.keyTarget) return;
    const command = keyCommand(e.key, e.shiftKey);
    if (!command) return;
    e.preventDefault();
    if (command.kind === 'step') this.handlers.moveFocus(command.dRow, command.dColumn);
    else if (command.kind === 'activate') this.handlers.activate();
    else if (command.kind === 'zoom') this.handlers.zoomKey(command.direction);
    else this.handlers.farMove(command.move);
  };

  private setDragging(active: boolean): void {
    if (this.isDragging === active) return;
    this.isDragging = active;
    if (active) this.handlers.hover(null);
    this.handlers.dragging(active);
  }

  private currentPinchDistance(): number {
    const [a, b] = [...this.pointers.values()];
    return a && b ? Math.hypot(a.x - b.x, a.y - b.y) : 0;
  }

  private pinchCentre(): Point {
    const [a, b] = [...this.pointers.values()];
    return a && b ? { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 } : { x: 0, y: 0 };
  }
}
