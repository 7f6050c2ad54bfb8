/**
 * The tree area of /observe: the canvas with its overlays (panel, popups, toast, live description, survey) and the
 * states around it (loading, no tree yet, a failed fetch with Retry). How the view is kept: decisions 010 and 029.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { TREE_VIEW } from '#shared/constants.ts';
import type { Camera } from '#shared/tree/camera.ts';
import { TOKEN_PATTERN } from '#shared/validation/common.ts';
import { initialParams } from '#client/api/initial-params.ts';
import { fetchTreeRegion } from '#client/api/tree-region.ts';
import { lazyComponent } from '#client/app/lazy-component.tsx';
import { Signal } from '#client/app/signal.ts';
import { firstViewShown, moduleLoader } from '#client/app/module-loader.ts';
import { useLoaded } from '#client/app/use-loaded.ts';
import type { FetchRegion } from './engine/region-loader.ts';
import type { TreeEngine } from './engine/tree-engine.ts';
import { ReplayControl } from './replay/replay-control.tsx';
import { TreePanel } from './tree-panel.tsx';
import { removeSketch } from './tree-sketch.ts';
import { LatestValue } from './signals.ts';
import { TreeSurvey } from './tree-survey.tsx';
import { TreeToast, type ToastMessage } from './tree-toast.tsx';
import { useCellTaps } from './use-cell-taps.ts';
import { useCoveredInsets } from './use-covered-insets.ts';
import { useFocusWords } from './use-focus-words.ts';
import { NOT_ON_TREE, useLinkedSquare } from './use-linked-square.ts';
import { useTreeAddress, type SquarePosition } from './use-tree-address.ts';
import { useTreeFinds } from './use-tree-finds.ts';
import { useTreePopups } from './use-tree-popups.ts';
import { useLiveTree, useTreeSnapshot } from './use-tree-snapshot.ts';
import { useTreeViewer } from './use-tree-viewer.ts';
import { canDrawTree } from './webgl-support.ts';
import './tree.css';

// For the benchmark's breakdown: when the tree's own code starts (everything before is the app shell's boot).
performance.mark('tree:module');

// The canvas brings PixiJS: it starts loading with this module and arrives while the snapshot is fetched.
const canvasLoader = moduleLoader(() => import('./tree-canvas.tsx').then((module) => module.TreeCanvas));
void canvasLoader.start();

// The popups are a module of their own (decision 043): asked for when one opens, or after the first frame.
const TreePopups = lazyComponent(() => import('#client/popups/tree-popups.tsx').then((module) => module.TreePopups));

export function TreeView() {
  const token = initialParams().treeToken;
  const snapshot = useTreeSnapshot(token);
  const engineRef = useRef<TreeEngine | null>(null);
  const [engine, setEngine] = useState<TreeEngine | null>(null);
  // Once the engine shows the snapshot, changes to the tree are applied to it as they come (decision 023).
  useLiveTree(token, snapshot.data, engine);
  // The toolbar and the replay's control cover the canvas's edges: the engine reveals squares clear of them.
  useCoveredInsets(engine);
  // The zoom, for the panel alone: it changes at every frame of a zoom, and the page around need not re-render.
  const [scale] = useState(() => new LatestValue<number>(TREE_VIEW.zoomDefault));
  // Past the tree's limit when the + button would zoom into a piece's pyramid (decision 048).
  const [zoomLimit] = useState(() => new LatestValue<number>(TREE_VIEW.zoomMax));
  const [toast, setToast] = useState<ToastMessage | null>(null);
  const say = useCallback((text: string) => setToast((previous) => ({ id: (previous?.id ?? 0) + 1, text })), []);
  const clearToast = useCallback(() => setToast(null), []);
  /** The camera a popup opened over, put back when it closes. */
  const savedCamera = useRef<Camera | null>(null);
  /** The square whose page is being opened (a tap, Enter, or the survey's link), remembered on leaving. */
  const openedSquare = useRef<SquarePosition | null>(null);
  const [viewSignal] = useState(() => new Signal());
  const [drawable] = useState(canDrawTree);
  const TreeCanvas = useLoaded(canvasLoader);

  const address = useTreeAddress(token, engineRef, savedCamera, openedSquare);
  const { urlView, remembered, linkedToken } = address;
  const initialCamera = remembered?.camera ?? null;
  const { ownCells, viewer, latestViewer } = useTreeViewer(token, engine);
  const { popup, openPopup, closePopup } = useTreePopups(engineRef, savedCamera, address.writeUrl, clearToast);
  const onCellTap = useCellTaps({ viewer, latestViewer, openedSquare, remember: address.remember, openPopup, say });
  const { focusText, onFocusChange, onNotice } = useFocusWords(latestViewer);
  const { findFree, findMine } = useTreeFinds(engineRef, ownCells, say);
  const openLinkedSquare = useLinkedSquare(token, engineRef, viewSignal, say);

  // The address and the survey follow the camera.
  const { cameraMoved } = address;
  const onCameraChange = useCallback(() => {
    viewSignal.emit();
    cameraMoved();
  }, [cameraMoved, viewSignal]);
  const onContentChange = useCallback(() => viewSignal.emit(), [viewSignal]);

  // The first sketch (tree-sketch.ts) leaves with the page, and never stays over one of the notices below.
  const showsNotice = !token || !drawable || (snapshot.isError && !snapshot.data);
  useEffect(() => {
    if (!showsNotice) return;
    removeSketch();
    // A notice is this page's first view: the rest of the app may come now (the tree's first frame says so otherwise).
    firstViewShown();
  }, [showsNotice]);
  useEffect(() => removeSketch, []);

  // The engine is ready with its first tree: open the address's view, if it names one that exists.
  const onEngine = useCallback(
    (created: TreeEngine | null) => {
      setEngine(created);
      if (!created) return;
      if (remembered?.square) {
        // Back from the piece's page: the keyboard is on it again (once; a later visit starts afresh).
        created.returnToSquare(remembered.square.row, remembered.square.column);
        remembered.square = null;
      }
      if (urlView.kind === 'position' && !initialCamera && created.containsPosition(urlView.row, urlView.column)) {
        created.showCell(urlView.row, urlView.column, urlView.scale);
      } else if (urlView.kind === 'cell') {
        void openLinkedSquare(created, urlView.token, urlView.scale);
      } else if (urlView.kind === 'invalid' && linkedToken !== null && !TOKEN_PATTERN.test(linkedToken)) {
        say(NOT_ON_TREE);
      }
    },
    [initialCamera, linkedToken, openLinkedSquare, remembered, say, urlView],
  );

  const fetchRegion = useMemo<FetchRegion | undefined>(
    () => (token ? (bounds, signal) => fetchTreeRegion(token, bounds, signal) : undefined),
    [token],
  );

  // A piece opened from the survey is come back to as one opened on the canvas is.
  const onOpenPiece = useCallback((piece: SquarePosition) => {
    openedSquare.current = { row: piece.row, column: piece.column };
  }, []);

  const notice = treeNotice(token, drawable, snapshot);
  if (notice || !token) return notice;

  const data = snapshot.data ?? null;
  return (
    <div className="tree-area" ref={address.rememberOnLeave} aria-busy={data ? undefined : true}>
      {TreeCanvas && (
        <TreeCanvas
          cells={data?.cells ?? null}
          settings={data?.settings ?? null}
          layout={data?.layout}
          initialCamera={initialCamera}
          engineRef={engineRef}
          fetchRegion={fetchRegion}
          describedBy="tree-keyboard-help"
          onCellTap={onCellTap}
          onScaleChange={scale.set}
          onZoomLimitChange={zoomLimit.set}
          onCameraChange={onCameraChange}
          onFocusChange={onFocusChange}
          onNotice={onNotice}
          onContentChange={onContentChange}
          onEngine={onEngine}
        />
      )}
      {!data && <p className="tree-area__status tree-area__status--over">Loading the tree…</p>}
      <p id="tree-keyboard-help" className="visually-hidden">
        {KEYBOARD_HELP}
      </p>
      <p className="visually-hidden" aria-live="polite" data-testid="tree-focus-description">
        {focusText}
      </p>
      {data && (
        <TreePanel
          scale={scale}
          zoomLimit={zoomLimit}
          onZoom={(direction) => engineRef.current?.zoomStep(direction)}
          onPan={(dx, dy) => engineRef.current?.panScreen(dx, dy)}
          onFindFree={findFree}
          onSearch={(term) => openPopup({ kind: 'search', term })}
          onHelp={() => openPopup({ kind: 'help' })}
          onFindMine={findMine}
        />
      )}
      {data && <ReplayControl token={token} engine={engine} />}
      <TreeSurvey engine={engine} signal={viewSignal} ownTokens={viewer.ownTokens} onOpenPiece={onOpenPiece} />
      <TreeToast message={toast} onDone={clearToast} />
      {popup && <TreePopups popup={popup} hasOwnCells={ownCells.length > 0} onClose={closePopup} />}
    </div>
  );
}

/** The page instead of the tree when there is none to draw: no tree yet, no canvas, or a failed fetch with Retry. */
function treeNotice(token: string | null, drawable: boolean, snapshot: ReturnType<typeof useTreeSnapshot>): ReactNode {
  if (!token) {
    return (
      <TreeNotice title="No tree yet.">
        The gallery has not planted its tree. Once it has, every square appears here.
      </TreeNotice>
    );
  }
  if (!drawable) {
    return (
      <TreeNotice title="The tree cannot be drawn here.">
        This browser offers no canvas to draw on, and the tree needs one to draw its squares.
      </TreeNotice>
    );
  }
  if (snapshot.isError && !snapshot.data) {
    return (
      <TreeNotice title="The tree could not be loaded.">
        <span>{snapshot.error instanceof Error ? snapshot.error.message : 'Something went wrong.'}</span>
        <button type="button" className="button" onClick={() => void snapshot.refetch()} disabled={snapshot.isFetching}>
          {snapshot.isFetching ? 'Trying…' : 'Retry'}
        </button>
      </TreeNotice>
    );
  }
  return null;
}

/** The canvas's description for screen readers: every key it answers. */
const KEYBOARD_HELP =
  'Arrow keys move from square to square, Enter opens the square, plus and minus zoom. ' +
  'Home and End go to the first and last square of the row, Page Up and Page Down a screenful of rows. ' +
  'B jumps to the next band down and Shift+B to the band above; P to the next published piece and Shift+P to the one before; ' +
  'F to the next free square and Shift+F to the one before.';

function TreeNotice({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="tree-area tree-area--notice">
      <div className="tree-notice" role="alert">
        <h2 className="tree-notice__title">{title}</h2>
        <p className="tree-notice__body">{children}</p>
      </div>
    </div>
  );
}
