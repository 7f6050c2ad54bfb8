/**
 * The tree's WebGL canvas: @pixi/react's <Application> with two layers (the world, a render group, and a screen-space
 * overlay) and the plain-TypeScript TreeEngine over them, handed to the page through a ref. React never sees a cell.
 */
// PixiJS piece by piece (decision 043): the Application is told to skip PixiJS's own imports of its default extensions
// (skipExtensionImports below: events, accessibility, DOM elements, filters, none of which the tree uses), and these
// register what the engine draws with: graphics and text (for whichever renderer PixiJS picks at run time) and,
// through the app, its ticker and resize plugins (sprites and containers are PixiJS's core). The build brings the
// WebGL renderer with these; the WebGPU and 2D canvas ones are chunks of their own, asked for only where PixiJS picks
// them (vite.config.ts, pixiPieceByPiece).
import 'pixi.js/app';
import 'pixi.js/graphics';
import 'pixi.js/text';
// Pixi compiles shader sync code with new Function() unless this polyfill is loaded; the site's CSP forbids eval.
import 'pixi.js/unsafe-eval';
import { Application, extend, useApplication } from '@pixi/react';
import { Container } from 'pixi.js';
import { memo, useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import type { TreeSettings } from '#shared/tree/geometry.ts';
import type { TreeCells } from '#shared/tree/snapshot.ts';
import type { Camera } from '#shared/tree/camera.ts';
import { PALETTE } from '#shared/tree/cell-look.ts';
import { fetchPiecePyramid } from '#client/api/piece-pyramid.ts';
import { firstViewShown } from '#client/app/module-loader.ts';
import type { WorkedLayout } from './engine/chunk-index.ts';
import type { FetchRegion } from './engine/region-loader.ts';
import { TreeEngine, type CellHit } from './engine/tree-engine.ts';
import { warmUpRenderer } from './engine/warm-up.ts';
import { removeSketch } from './tree-sketch.ts';

extend({ Container });

export interface TreeCanvasProps {
  /** Null while the snapshot is on its way: the canvas gets ready meanwhile. */
  cells: TreeCells | null;
  settings: TreeSettings | null;
  /** The branch slots and chunk lists, when already worked out with the snapshot. */
  layout?: WorkedLayout;
  /** A remembered camera to restore; null opens on the seed band. */
  initialCamera: Camera | null;
  engineRef: RefObject<TreeEngine | null>;
  /** Loads region details of a large tree. */
  fetchRegion?: FetchRegion;
  /** Names the canvas's keyboard help and live description for screen readers. */
  describedBy?: string;
  onCellTap: (hit: CellHit) => void;
  onScaleChange: (scale: number) => void;
  /** How far the + key and button may zoom now (the engine's onZoomLimitChange). */
  onZoomLimitChange?: (max: number) => void;
  onCameraChange?: (camera: Camera) => void;
  onFocusChange?: (hit: CellHit | null, context?: { fresh: boolean; note?: string }) => void;
  /** The keyboard found nowhere further to go: what to say. */
  onNotice?: (text: string) => void;
  /** What the tree on screen holds or knows changed. */
  onContentChange?: () => void;
  /** The engine exists (it is also in engineRef): the page may now apply marks and views. */
  onEngine?: (engine: TreeEngine | null) => void;
}

/**
 * Loaded by the tree view with PixiJS, and mounted before the snapshot arrives, so the renderer starts while the tree
 * is fetched and decoded.
 */
export const TreeCanvas = memo(function TreeCanvas(props: TreeCanvasProps) {
  const hostRef = useRef<HTMLDivElement>(null);
  const [ready, setReady] = useState(false);
  const [dragging, setDragging] = useState(false);
  const [resolution] = useState(() => Math.min(2, Math.max(1, window.devicePixelRatio || 1)));
  // The first sketch (tree-sketch.ts), if the visit drew one, lies over the canvas until the engine's first frame.
  const onFirstFrame = () => {
    removeSketch();
    setReady(true);
    // The first view is on screen: the rest of the app comes in the background now (decision 043).
    firstViewShown();
  };
  return (
    <div
      ref={hostRef}
      className={dragging ? 'tree-canvas is-dragging' : 'tree-canvas'}
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- the canvas is a keyboard widget (role application) with its own focus
      tabIndex={0}
      role="application"
      aria-roledescription="tree of artworks"
      aria-label="The gallery tree"
      aria-describedby={props.describedBy}
      data-tree-ready={ready ? 'true' : undefined}
      onFocus={(event) => {
        if (event.target === event.currentTarget)
          props.engineRef.current?.setFocusShown(event.currentTarget.matches(':focus-visible'));
      }}
      onBlur={(event) => {
        if (event.target === event.currentTarget) props.engineRef.current?.setFocusShown(false);
      }}
    >
      <Application
        className="tree-canvas__surface"
        resizeTo={hostRef}
        background={PALETTE.background}
        preference="webgl"
        antialias
        autoDensity
        resolution={resolution}
        autoStart={false}
        preserveDrawingBuffer
        skipExtensionImports
      >
        <TreeScene {...props} hostRef={hostRef} onFirstFrame={onFirstFrame} onDraggingChange={setDragging} />
      </Application>
    </div>
  );
});

interface TreeSceneProps extends TreeCanvasProps {
  hostRef: RefObject<HTMLDivElement | null>;
  onFirstFrame: () => void;
  onDraggingChange: (dragging: boolean) => void;
}

/** Lives inside <Application>: creates the engine once the app is ready and feeds it the tree. */
function TreeScene(props: TreeSceneProps) {
  const { app, isInitialised } = useApplication();
  const worldRef = useRef<Container>(null);
  const overlayRef = useRef<Container>(null);
  const [engine, setEngine] = useState<TreeEngine | null>(null);
  // The engine calls back through this ref, so new callback props never rebuild it.
  const latest = useRef(props);
  latest.current = props;
  /** The cells last handed to the engine: each snapshot is set once, as soon as both it and the engine are here. */
  const applied = useRef<TreeCells | null>(null);

  /** Hands the engine the page's tree if it is new; the remembered camera applies to the first tree only. */
  const applyTree = (target: TreeEngine): void => {
    const { cells, settings, layout, initialCamera, onEngine } = latest.current;
    if (!cells || !settings || applied.current === cells) return;
    const first = applied.current === null;
    applied.current = cells;
    target.setTree(cells, settings, first ? initialCamera : null, layout);
    if (first) onEngine?.(target);
  };

  // A layout effect: its cleanup runs inside the Pixi root's unmount commit, before @pixi/react destroys the app.
  useLayoutEffect(() => {
    const world = worldRef.current;
    const overlay = overlayRef.current;
    const host = props.hostRef.current;
    if (!isInitialised || !world || !overlay || !host) return;
    performance.mark('tree:canvas-ready');
    const created = new TreeEngine({
      app,
      world,
      overlay,
      keyTarget: host,
      fetchRegion: latest.current.fetchRegion,
      fetchPyramid: fetchPiecePyramid,
      onCellTap: (hit) => latest.current.onCellTap(hit),
      onScaleChange: (scale) => latest.current.onScaleChange(scale),
      onZoomLimitChange: (max) => latest.current.onZoomLimitChange?.(max),
      onCameraChange: (camera) => latest.current.onCameraChange?.(camera),
      onFocusChange: (hit, context) => latest.current.onFocusChange?.(hit, context),
      onNotice: (text) => latest.current.onNotice?.(text),
      onContentChange: () => latest.current.onContentChange?.(),
      onDraggingChange: (active) => latest.current.onDraggingChange(active),
      onFirstFrame: () => latest.current.onFirstFrame(),
    });
    // The resize plugin follows the window; the host also changes size when the header reflows.
    const observer = new ResizeObserver(() => {
      if (app.renderer) app.queueResize();
    });
    observer.observe(host);
    latest.current.engineRef.current = created;
    // A snapshot already here is drawn at once; otherwise the renderer compiles its shaders while it comes.
    if (latest.current.cells) applyTree(created);
    else warmUpRenderer(app, world);
    setEngine(created);
    return () => {
      applied.current = null;
      observer.disconnect();
      if (latest.current.engineRef.current === created) {
        latest.current.engineRef.current = null;
        latest.current.onEngine?.(null);
      }
      created.destroy();
    };
  }, [app, isInitialised, props.hostRef]);

  const { cells, settings, layout } = props;
  useEffect(() => {
    if (engine) applyTree(engine);
    // applyTree reads the props through `latest`; these are what a new tree changes.
  }, [engine, cells, settings, layout]);

  return (
    <>
      <pixiContainer ref={worldRef} label="world" isRenderGroup />
      <pixiContainer ref={overlayRef} label="overlay" />
    </>
  );
}
