/**
 * The avatar cropper (decision 015): one canvas, the picture under a square frame with the outside dimmed, moved by
 * dragging or the arrow keys, zoomed by the slider, the wheel or +/-. Controlled: the popup owns the view, so APPLY
 * renders exactly what it shows (white where the picture does not reach, as the saved JPEG will be).
 */
import { useEffect, useId, useLayoutEffect, useRef, type KeyboardEvent, type PointerEvent } from 'react';
import {
  SLIDER_STEPS,
  moveView,
  placement,
  scaleOf,
  sliderOf,
  zoomRange,
  zoomView,
  type CropView,
} from './crop-geometry.ts';

/** Screen pixels of the frame, and of the dimmed margin around it that shows what is cut off. */
export const CROP_FRAME = 232;
const MARGIN = 24;
const STAGE = CROP_FRAME + 2 * MARGIN;
const KEY_STEP = 10;
const WHEEL_ZOOM = 1.0015;

export interface AvatarCropperProps {
  picture: ImageBitmap;
  view: CropView;
  onViewChange: (view: CropView) => void;
}

export function AvatarCropper({ picture, view, onViewChange }: AvatarCropperProps) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const drag = useRef<{ x: number; y: number } | null>(null);
  const sliderId = useId();
  const range = zoomRange(picture, CROP_FRAME);
  const latest = useRef({ view, onViewChange });
  latest.current = { view, onViewChange };

  useLayoutEffect(() => {
    const canvas = canvasRef.current;
    if (canvas) drawStage(canvas, picture, view);
  }, [picture, view]);

  // The wheel zooms; it needs a listener that may cancel the page's scroll, which React's onWheel cannot.
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      const { view: current, onViewChange: change } = latest.current;
      change(zoomView(current, current.scale * Math.pow(WHEEL_ZOOM, -event.deltaY), picture, CROP_FRAME));
    };
    canvas.addEventListener('wheel', onWheel, { passive: false });
    return () => canvas.removeEventListener('wheel', onWheel);
  }, [picture]);

  const onPointerDown = (event: PointerEvent<HTMLCanvasElement>) => {
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { x: event.clientX, y: event.clientY };
  };
  const onPointerMove = (event: PointerEvent<HTMLCanvasElement>) => {
    const last = drag.current;
    if (!last) return;
    drag.current = { x: event.clientX, y: event.clientY };
    // On a narrow screen the stage may be drawn smaller than its nominal size: move by nominal pixels.
    const shrink = STAGE / event.currentTarget.getBoundingClientRect().width;
    onViewChange(
      moveView(view, (event.clientX - last.x) * shrink, (event.clientY - last.y) * shrink, picture, CROP_FRAME),
    );
  };
  const endDrag = () => {
    drag.current = null;
  };

  const onKeyDown = (event: KeyboardEvent<HTMLCanvasElement>) => {
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-KEY_STEP, 0],
      ArrowRight: [KEY_STEP, 0],
      ArrowUp: [0, -KEY_STEP],
      ArrowDown: [0, KEY_STEP],
    };
    const move = moves[event.key];
    if (move) {
      event.preventDefault();
      onViewChange(moveView(view, move[0], move[1], picture, CROP_FRAME));
    } else if (event.key === '+' || event.key === '=' || event.key === '-') {
      event.preventDefault();
      onViewChange(zoomView(view, view.scale * (event.key === '-' ? 1 / 1.1 : 1.1), picture, CROP_FRAME));
    }
  };

  return (
    <div className="avatar-cropper">
      <canvas
        ref={canvasRef}
        className="avatar-cropper__stage"
        style={{ width: STAGE }}
        tabIndex={0}
        // Arrow keys and +/- must reach the cropper, not a screen reader's own navigation.
        // eslint-disable-next-line jsx-a11y/no-interactive-element-to-noninteractive-role -- an application role, so that arrow keys reach the cropper
        role="application"
        aria-roledescription="picture cropper"
        aria-label="The part of your picture inside the square becomes your profile picture. Drag or use the arrow keys to move it, plus and minus to zoom."
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={endDrag}
        onPointerCancel={endDrag}
        onKeyDown={onKeyDown}
        data-testid="avatar-cropper"
      />
      <div className="avatar-cropper__zoom">
        <label htmlFor={sliderId} className="avatar-cropper__zoom-label">
          Zoom
        </label>
        <input
          id={sliderId}
          className="avatar-cropper__slider"
          type="range"
          min={0}
          max={SLIDER_STEPS}
          step={1}
          value={sliderOf(view.scale, range)}
          onChange={(event) =>
            onViewChange(zoomView(view, scaleOf(Number(event.currentTarget.value), range), picture, CROP_FRAME))
          }
          data-testid="avatar-zoom"
        />
      </div>
    </div>
  );
}

/** Draws the stage at the screen's pixel density: white frame, the picture, the dimmed margin, the frame's edge. */
function drawStage(canvas: HTMLCanvasElement, picture: ImageBitmap, view: CropView): void {
  const density = window.devicePixelRatio || 1;
  const size = Math.round(STAGE * density);
  if (canvas.width !== size) {
    canvas.width = size;
    canvas.height = size;
  }
  const context = canvas.getContext('2d');
  if (!context) return;
  context.setTransform(density, 0, 0, density, 0, 0);
  context.clearRect(0, 0, STAGE, STAGE);
  context.fillStyle = '#ebe6dc';
  context.fillRect(0, 0, STAGE, STAGE);
  context.fillStyle = '#ffffff';
  context.fillRect(MARGIN, MARGIN, CROP_FRAME, CROP_FRAME);
  const at = placement(view, picture, CROP_FRAME, CROP_FRAME);
  context.imageSmoothingQuality = 'high';
  context.drawImage(picture, MARGIN + at.x, MARGIN + at.y, at.width, at.height);
  context.beginPath();
  context.rect(0, 0, STAGE, STAGE);
  context.rect(MARGIN, MARGIN, CROP_FRAME, CROP_FRAME);
  context.fillStyle = 'rgb(29 58 48 / 55%)';
  context.fill('evenodd');
  context.strokeStyle = '#ffffff';
  context.lineWidth = 2;
  context.strokeRect(MARGIN, MARGIN, CROP_FRAME, CROP_FRAME);
}
