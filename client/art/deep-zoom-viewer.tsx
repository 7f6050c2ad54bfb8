/**
 * The deep-zoom viewer of a piece's picture (decision 048): a modal over the details page that shows the picture's
 * pyramid, from the whole picture fitted to the screen up to its own pixels (one to a device pixel). It asks only for
 * the tiles on screen, at the level whose pixels come nearest the screen's device pixels without exceeding them by
 * more than half in area (or the one below, when that level's tiles on screen would come to more than 1.5 times the
 * screen), over the one-tile level as a backdrop while they arrive. Wheel, pinch and drag (pointer
 * events), keys (+, −, 0, arrows) and buttons zoom and pan; the zoom is announced as it changes.
 */
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import {
  backdropLevel,
  levelOnScreen,
  levelSize,
  tilesOnScreen,
  type PyramidDescriptor,
  type View,
} from '#shared/deep-zoom.ts';

/** What one press of + or − (or a key) zooms by. */
const ZOOM_STEP = 1.6;
/** What one arrow key moves the picture by, as a part of the viewport. */
const PAN_STEP = 0.15;

/** The picture fitted into the viewport and centred. */
function fitted(descriptor: PyramidDescriptor, width: number, height: number): View {
  const scale = Math.min(width / descriptor.width, height / descriptor.height);
  return { scale, x: (width - descriptor.width * scale) / 2, y: (height - descriptor.height * scale) / 2 };
}

/** Keeps the picture on screen: centred along a side it does not fill, never leaving a gap along one it does. */
function held(descriptor: PyramidDescriptor, view: View, width: number, height: number): View {
  const along = (position: number, picture: number, space: number) =>
    picture <= space ? (space - picture) / 2 : Math.min(0, Math.max(space - picture, position));
  return {
    scale: view.scale,
    x: along(view.x, descriptor.width * view.scale, width),
    y: along(view.y, descriptor.height * view.scale, height),
  };
}

interface ViewerProps {
  descriptorUrl: string;
  /** What the picture shows (its alt text), for the region's name. */
  label: string;
  onClose: () => void;
}

/** The pyramid's descriptor, fetched once: null while it comes, 'failed' when it could not be read. */
function useDescriptor(url: string): PyramidDescriptor | null | 'failed' {
  const [descriptor, setDescriptor] = useState<PyramidDescriptor | null | 'failed'>(null);
  useEffect(() => {
    let current = true;
    fetch(url)
      .then((answer) => {
        if (!answer.ok) throw new Error(`descriptor ${answer.status}`);
        return answer.json() as Promise<PyramidDescriptor>;
      })
      .then((read) => current && setDescriptor(read))
      .catch(() => current && setDescriptor('failed'));
    return () => {
      current = false;
    };
  }, [url]);
  return descriptor;
}

/** The element's inner size, as the window (and so the modal) is resized. */
function useBox(element: React.RefObject<HTMLElement | null>) {
  const [box, setBox] = useState<{ width: number; height: number } | null>(null);
  useEffect(() => {
    const current = element.current;
    if (!current) return;
    const measure = () => setBox({ width: current.clientWidth, height: current.clientHeight });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(current);
    return () => observer.disconnect();
  }, [element]);
  return box;
}

/** Where the picture is, and the ways to move it: zoom about a point, pan, back to the whole picture. */
function useZoomView(descriptor: PyramidDescriptor | null, box: { width: number; height: number } | null, dpr: number) {
  const [view, setView] = useState<View | null>(null);
  const limits = useMemo(() => {
    if (!descriptor || !box) return null;
    const fit = fitted(descriptor, box.width, box.height).scale;
    // Up to the picture's own pixels, one to a device pixel; a picture smaller than the screen stays fitted.
    return { min: fit, max: Math.max(fit, 1 / dpr) };
  }, [descriptor, box, dpr]);

  // Fitted when it opens, and again when the viewport's size changes.
  useEffect(() => {
    if (descriptor && box) setView(fitted(descriptor, box.width, box.height));
  }, [descriptor, box]);

  /** Zooms by `factor` about the point (cx, cy) of the viewport, which stays where it is. */
  const zoomAbout = useCallback(
    (factor: number, cx?: number, cy?: number) => {
      if (!descriptor || !box || !limits) return;
      setView((old) => {
        if (!old) return old;
        const scale = Math.min(limits.max, Math.max(limits.min, old.scale * factor));
        const px = cx ?? box.width / 2;
        const py = cy ?? box.height / 2;
        const moved = {
          scale,
          x: px - ((px - old.x) * scale) / old.scale,
          y: py - ((py - old.y) * scale) / old.scale,
        };
        return held(descriptor, moved, box.width, box.height);
      });
    },
    [descriptor, box, limits],
  );

  const panBy = useCallback(
    (dx: number, dy: number) => {
      if (!descriptor || !box) return;
      setView((old) => old && held(descriptor, { ...old, x: old.x + dx, y: old.y + dy }, box.width, box.height));
    },
    [descriptor, box],
  );

  const reset = useCallback(() => {
    if (descriptor && box) setView(fitted(descriptor, box.width, box.height));
  }, [descriptor, box]);

  return { view, limits, zoomAbout, panBy, reset };
}

type ZoomAbout = (factor: number, cx?: number, cy?: number) => void;
type PanBy = (dx: number, dy: number) => void;

/** The wheel zooms about the pointer; React's wheel listener is passive, so the page would scroll too. */
function useWheelZoom(element: React.RefObject<HTMLElement | null>, zoomAbout: ZoomAbout) {
  useEffect(() => {
    const current = element.current;
    if (!current) return;
    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      const lines = event.deltaMode === 1 ? 40 : event.deltaMode === 2 ? 800 : 1;
      const bounds = current.getBoundingClientRect();
      zoomAbout(Math.exp(-event.deltaY * lines * 0.002), event.clientX - bounds.left, event.clientY - bounds.top);
    };
    current.addEventListener('wheel', onWheel, { passive: false });
    return () => current.removeEventListener('wheel', onWheel);
  }, [element, zoomAbout]);
}

/** Pointers down: one drags, two pinch (the zoom follows their distance, the pan their midpoint). */
function usePointerGestures(zoomAbout: ZoomAbout, panBy: PanBy) {
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const onPointerDown = (event: React.PointerEvent<HTMLDivElement>) => {
    event.currentTarget.setPointerCapture(event.pointerId);
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
  };
  const onPointerMove = (event: React.PointerEvent<HTMLDivElement>) => {
    const known = pointers.current;
    const before = known.get(event.pointerId);
    if (!before) return;
    const after = { x: event.clientX, y: event.clientY };
    if (known.size === 1) {
      known.set(event.pointerId, after);
      panBy(after.x - before.x, after.y - before.y);
      return;
    }
    const other = [...known.entries()].find(([id]) => id !== event.pointerId)?.[1];
    known.set(event.pointerId, after);
    if (!other) return;
    const bounds = event.currentTarget.getBoundingClientRect();
    const distanceBefore = Math.hypot(before.x - other.x, before.y - other.y);
    const distanceAfter = Math.hypot(after.x - other.x, after.y - other.y);
    const mid = { x: (after.x + other.x) / 2 - bounds.left, y: (after.y + other.y) / 2 - bounds.top };
    panBy((after.x - before.x) / 2, (after.y - before.y) / 2);
    if (distanceBefore > 0) zoomAbout(distanceAfter / distanceBefore, mid.x, mid.y);
  };
  const onPointerUp = (event: React.PointerEvent<HTMLDivElement>) => {
    pointers.current.delete(event.pointerId);
  };
  return { onPointerDown, onPointerMove, onPointerUp, onPointerCancel: onPointerUp };
}

/** The keys of the focused viewer: + and − (or =), 0 for the whole picture, arrows to move. */
function keyHandler(
  box: { width: number; height: number } | null,
  zoomAbout: ZoomAbout,
  panBy: PanBy,
  reset: () => void,
) {
  return (event: React.KeyboardEvent<HTMLDivElement>) => {
    if (!box) return;
    const step = { x: box.width * PAN_STEP, y: box.height * PAN_STEP };
    const actions: Record<string, () => void> = {
      '+': () => zoomAbout(ZOOM_STEP),
      '=': () => zoomAbout(ZOOM_STEP),
      '-': () => zoomAbout(1 / ZOOM_STEP),
      _: () => zoomAbout(1 / ZOOM_STEP),
      '0': reset,
      ArrowLeft: () => panBy(step.x, 0),
      ArrowRight: () => panBy(-step.x, 0),
      ArrowUp: () => panBy(0, step.y),
      ArrowDown: () => panBy(0, -step.y),
    };
    const action = actions[event.key];
    if (!action || event.ctrlKey || event.metaKey || event.altKey) return;
    event.preventDefault();
    action();
  };
}

export function DeepZoomViewer({ descriptorUrl, label, onClose }: ViewerProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const region = useRef<HTMLDivElement>(null);
  const instructionsId = useId();
  const read = useDescriptor(descriptorUrl);
  const descriptor = read === 'failed' ? null : read;
  const failed = read === 'failed';
  const box = useBox(region);
  const dpr = typeof window === 'undefined' ? 1 : window.devicePixelRatio || 1;
  const { view, limits, zoomAbout, panBy, reset } = useZoomView(descriptor, box, dpr);
  useWheelZoom(region, zoomAbout);
  const gestures = usePointerGestures(zoomAbout, panBy);
  const onKeyDown = keyHandler(box, zoomAbout, panBy, reset);

  useEffect(() => {
    dialog.current?.showModal();
    region.current?.focus();
  }, []);

  const level =
    descriptor && view && box
      ? levelOnScreen(descriptor, view, box.width, box.height, dpr, box.width * box.height * dpr ** 2)
      : 0;
  const backdrop = descriptor ? backdropLevel(descriptor) : 0;
  const layers =
    descriptor && view && box
      ? [...new Set([backdrop, level])].map((n) => ({
          level: n,
          ratio: levelSize(descriptor, n).width / descriptor.width,
          tiles: tilesOnScreen(descriptor, descriptorUrl, n, view, box.width, box.height),
        }))
      : [];
  const zoom = view && limits ? view.scale / limits.min : 1;
  const atMost = view && limits ? view.scale >= limits.max * 0.999 : false;
  const status = !descriptor
    ? failed
      ? 'The zoomable picture could not be loaded.'
      : 'Loading the zoomable picture…'
    : `Zoom ${zoom.toFixed(1)} times${atMost ? ', the picture’s own pixels' : zoom <= 1.001 ? ', the whole picture' : ''}.`;

  return (
    <dialog
      ref={dialog}
      className="deep-zoom"
      aria-label={`Zoom into ${label}`}
      onClose={onClose}
      data-testid="deep-zoom"
    >
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions -- a keyboard widget (role application) with its own focus, as the tree's canvas is */}
      <div
        ref={region}
        className="deep-zoom__region"
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- the viewer is a keyboard widget with its own focus
        tabIndex={0}
        // Its keys are the viewer's own (arrows, +, −), so a screen reader hands them over rather than reading on.
        role="application"
        aria-roledescription="zoomable picture"
        aria-label={label}
        aria-describedby={instructionsId}
        onKeyDown={onKeyDown}
        {...gestures}
        data-testid="deep-zoom-region"
        data-view={view ? `${level} ${view.scale} ${view.x} ${view.y}` : undefined}
      >
        {layers.map(({ level: n, ratio, tiles }) => (
          <div
            key={n}
            className="deep-zoom__layer"
            style={view ? { transform: `translate(${view.x}px, ${view.y}px) scale(${view.scale / ratio})` } : undefined}
          >
            {tiles.map((tile) => (
              <img
                key={tile.url}
                src={tile.url}
                alt=""
                draggable={false}
                decoding="async"
                style={{ left: tile.left, top: tile.top, width: tile.width, height: tile.height }}
              />
            ))}
          </div>
        ))}
      </div>
      <p id={instructionsId} className="deep-zoom__instructions">
        Zoom with the wheel, by pinching, or with + and −; drag or use the arrow keys to move; 0 shows the whole
        picture; Escape closes.
      </p>
      <div className="deep-zoom__controls">
        <button type="button" onClick={() => zoomAbout(ZOOM_STEP)} disabled={!view || atMost} aria-label="Zoom in">
          +
        </button>
        <button
          type="button"
          onClick={() => zoomAbout(1 / ZOOM_STEP)}
          disabled={!view || zoom <= 1.001}
          aria-label="Zoom out"
        >
          −
        </button>
        <button type="button" onClick={reset} disabled={!view}>
          Whole picture
        </button>
        <p className="deep-zoom__status" role="status" aria-live="polite" data-testid="deep-zoom-status">
          {status}
        </p>
        <button type="button" onClick={() => dialog.current?.close()} aria-label="Close the zoomed picture">
          Close
        </button>
      </div>
    </dialog>
  );
}
