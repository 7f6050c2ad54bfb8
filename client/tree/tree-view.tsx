/**
 * The tree area of /observe: the canvas with its DOM overlays (top panel, popups, toast, the screen reader's live
 * description) and the honest states around it (loading, no tree yet, a failed fetch with Retry).
 *
 * The view (spec §2): the camera is saved when a popup opens and restored when it closes; leaving the page keeps it
 * for the next visit; and the address carries it (`?row=&col=&zoom=`, see tree-url.ts) so a shared link opens there.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { TREE_VIEW } from '#shared/constants.ts';
import { CellStatus } from '#shared/domain.ts';
import { ErrorCode } from '#shared/errors.ts';
import { TOKEN_PATTERN } from '#shared/validation/common.ts';
import { initialParams } from '#client/api/initial-params.ts';
import { fetchTreeRegion } from '#client/api/tree-region.ts';
import { trpc } from '#client/api/trpc.ts';
import { errorBodyOf } from '#client/forms/form-state.ts';
import { isAdmin, useCurrentUser } from '#client/app/current-user.ts';
import { moduleLoader } from '#client/app/module-loader.ts';
import { useLoaded } from '#client/app/use-loaded.ts';
import { TreePopups, type TreePopup } from '#client/popups/tree-popups.tsx';
import { actionForCell, describeCell, linkedSquareText } from './cell-actions.ts';
import { CELL_PITCH, cameraCentre, type Camera } from '#shared/tree/camera.ts';
import type { FetchRegion } from './engine/region-loader.ts';
import type { CellHit, TreeEngine } from './engine/tree-engine.ts';
import { ReplayControl } from './replay/replay-control.tsx';
import { TreePanel } from './tree-panel.tsx';
import { removeSketch } from './tree-sketch.ts';
import { TreeToast, type ToastMessage } from './tree-toast.tsx';
import { formatTreeUrl, parseTreeUrl, TREE_PAGE_PATH, type UrlView } from '#shared/tree/tree-url.ts';
import { useLiveTree, useTreeSnapshot } from './use-tree-snapshot.ts';
import { canDrawTree } from './webgl-support.ts';
import './tree.css';

// For the benchmark's breakdown: when the tree's own code starts (everything before is the app shell's boot).
performance.mark('tree:module');

// The canvas brings PixiJS: it starts loading with this module and arrives while the snapshot is fetched.
const canvasLoader = moduleLoader(() => import('./tree-canvas.tsx').then((module) => module.TreeCanvas));
canvasLoader.start();

/** The last camera per tree while the app runs, with the address it was written as. */
const rememberedViews = new Map<string, { camera: Camera; search: string }>();

/** How long the camera rests before the address follows it. */
const URL_SETTLE_MS = 350;

const NOT_ON_TREE = 'That square is not on the tree.';

export function TreeView() {
  const token = initialParams().treeToken;
  const snapshot = useTreeSnapshot(token);
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const { user, isLoading: userLoading } = useCurrentUser();
  const engineRef = useRef<TreeEngine | null>(null);
  const [engine, setEngine] = useState<TreeEngine | null>(null);
  // Once the engine shows the snapshot, changes to the tree are applied to it as they come (issue 17).
  useLiveTree(token, snapshot.data, engine);
  const [scale, setScale] = useState<number>(TREE_VIEW.zoomDefault);
  const [toast, setToast] = useState<ToastMessage | null>(null);
  const [popup, setPopup] = useState<TreePopup | null>(null);
  const [focusText, setFocusText] = useState('');
  const savedCamera = useRef<Camera | null>(null);
  const [drawable] = useState(canDrawTree);
  const TreeCanvas = useLoaded(canvasLoader);

  // The first view: the address's, else the remembered one, else the seed band (the engine's default).
  const [urlView] = useState<UrlView>(() => parseTreeUrl(window.location.search));
  const [linkedToken] = useState(() => new URLSearchParams(window.location.search).get('cell'));
  const [initialCamera] = useState<Camera | null>(() => {
    const remembered = token ? rememberedViews.get(token) : undefined;
    if (!remembered) return null;
    // Back from a piece's page the address names the remembered view: restore it exactly.
    if (urlView.kind === 'none' || (urlView.kind === 'position' && formatTreeUrl('', urlView) === formatTreeUrl('', parseRemembered(remembered.search)))) {
      return remembered.camera;
    }
    return null;
  });

  // The viewer's own squares on this tree (find-my-slots, the reserved-by-me look, and who may edit a reserved one).
  const mine = trpc.cell.mine.useQuery(undefined, { enabled: user !== null, staleTime: 60_000, retry: false });
  const ownCells = useMemo(() => (user ? (mine.data ?? []).filter((cell) => cell.treeToken === token) : []), [mine.data, token, user]);
  const viewer = useMemo(
    () => ({ known: !userLoading, isAdmin: isAdmin(user), ownTokens: new Set(ownCells.map((cell) => cell.token)) }),
    [userLoading, user, ownCells],
  );
  const latestViewer = useRef(viewer);
  latestViewer.current = viewer;
  useEffect(() => engine?.setOwnCells(ownCells), [engine, ownCells]);

  const say = useCallback((text: string) => setToast((previous) => ({ id: (previous?.id ?? 0) + 1, text })), []);

  /**
   * Writes the view into the address, replacing the history entry in place (no router navigation: panning must not
   * re-render the page). While a popup is open the view is the one saved when it opened.
   */
  const writeUrl = useCallback(() => {
    const current = engineRef.current;
    if (!current || window.location.pathname !== TREE_PAGE_PATH) return;
    const search = searchOfCamera(current, savedCamera.current ?? current.getCamera(), window.location.search);
    if (search !== window.location.search) {
      window.history.replaceState(window.history.state, '', `${window.location.pathname}${search}${window.location.hash}`);
    }
  }, []);

  /** Keeps the view for the next visit (and in the address, for the Back button). */
  const remember = useCallback(() => {
    const current = engineRef.current;
    if (!token || !current) return;
    writeUrl();
    const camera = savedCamera.current ?? current.getCamera();
    rememberedViews.set(token, { camera, search: searchOfCamera(current, camera) });
  }, [token, writeUrl]);

  const openPopup = useCallback(
    (next: TreePopup) => {
      savedCamera.current ??= engineRef.current?.getCamera() ?? null;
      writeUrl();
      setPopup(next);
    },
    [writeUrl],
  );
  const closePopup = useCallback(() => {
    setPopup(null);
    const saved = savedCamera.current;
    savedCamera.current = null;
    if (saved) engineRef.current?.setCamera(saved);
  }, []);

  /** A tap (or Enter) made before the visitor is known, run once they are. */
  const waitingTap = useRef<CellHit | null>(null);
  const onCellTap = useCallback(
    (hit: CellHit) => {
      // The tree draws before the signed-in user is known; what a click does depends on who clicks.
      if (!latestViewer.current.known) {
        waitingTap.current = hit;
        return;
      }
      const action = actionForCell(hit, latestViewer.current);
      if (action.kind === 'navigate') {
        remember();
        void navigate(action.to);
      } else if (action.kind === 'popup') {
        openPopup({ kind: action.popup, cell: { token: hit.token, row: hit.row, column: hit.column, status: hit.status } });
      } else {
        say(`The piece at row ${hit.row}, column ${hit.column} could not be reached just now. Please try again.`);
      }
    },
    [navigate, openPopup, remember, say],
  );

  useEffect(() => {
    const hit = waitingTap.current;
    if (!viewer.known || !hit) return;
    waitingTap.current = null;
    onCellTap(hit);
  }, [viewer.known, onCellTap]);

  const onFocusChange = useCallback((hit: CellHit | null) => {
    setFocusText(hit ? describeCell(hit, hit.token !== null && latestViewer.current.ownTokens.has(hit.token)) : '');
  }, []);

  // The address follows the camera once it rests.
  const urlTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const onCameraChange = useCallback(() => {
    if (urlTimer.current) clearTimeout(urlTimer.current);
    urlTimer.current = setTimeout(() => {
      urlTimer.current = null;
      writeUrl();
    }, URL_SETTLE_MS);
  }, [writeUrl]);
  useEffect(() => () => void (urlTimer.current && clearTimeout(urlTimer.current)), []);

  // The first sketch (tree-sketch.ts) leaves with the page, and never stays over one of the notices below.
  const showsNotice = !token || !drawable || (snapshot.isError && !snapshot.data);
  useEffect(() => {
    if (showsNotice) removeSketch();
  }, [showsNotice]);
  useEffect(() => removeSketch, []);

  /**
   * A link to a square (`?cell=`: the "square available" e-mail's, a shared one) centres it, rings it as find-free
   * does, puts the keyboard's focus on it (Enter opens it) and names it in a toast; a square not on this tree says so
   * and the default view stays.
   */
  const openLinkedSquare = useCallback(
    async (created: TreeEngine, cellToken: string, scale: number) => {
      let position: { row: number; column: number } | null = created.positionOfToken(cellToken);
      if (!position && !created.tokensInSnapshot) {
        // A large tree's snapshot has no tokens: ask where the square is.
        try {
          const cell = await utils.cell.get.fetch({ token: cellToken });
          position = cell.treeToken === token ? cell : null;
        } catch (error) {
          const code = errorBodyOf(error)?.error;
          if (code !== ErrorCode.CellNotFound && code !== ErrorCode.BadRequest) {
            if (engineRef.current === created) say('That square could not be looked up just now. Please reload the page to try again.');
            return;
          }
        }
      }
      if (engineRef.current !== created) return;
      if (!position || !created.showLinkedSquare(position.row, position.column, scale)) return say(NOT_ON_TREE);
      const square = await created.squareWithDetails(position.row, position.column);
      if (square && engineRef.current === created) say(linkedSquareText(square));
    },
    [say, token, utils],
  );

  // The engine is ready with its first tree: open the address's view, if it names one that exists.
  const onEngine = useCallback(
    (created: TreeEngine | null) => {
      setEngine(created);
      if (!created) return;
      if (urlView.kind === 'position' && !initialCamera && created.containsPosition(urlView.row, urlView.column)) {
        created.showCell(urlView.row, urlView.column, urlView.scale);
      } else if (urlView.kind === 'cell') {
        void openLinkedSquare(created, urlView.token, urlView.scale);
      } else if (urlView.kind === 'invalid' && linkedToken !== null && !TOKEN_PATTERN.test(linkedToken)) {
        say(NOT_ON_TREE);
      }
    },
    [initialCamera, linkedToken, openLinkedSquare, say, urlView],
  );

  const fetchRegion = useMemo<FetchRegion | undefined>(
    () => (token ? (bounds, signal) => fetchTreeRegion(token, bounds, signal) : undefined),
    [token],
  );

  const findCycle = useRef(-1);
  const onFindFree = useCallback(() => {
    const current = engineRef.current;
    const next = current?.nextAvailable();
    if (!current) return;
    if (!next) return say('No square is free right now. Check back soon: every new piece opens the squares around it.');
    current.setTarget(next);
    current.centreOnCell(next.row, next.column, { smooth: true });
    say(`A free square: row ${next.row}, column ${next.column}.`);
  }, [say]);
  const onFindMine = useCallback(() => {
    const current = engineRef.current;
    if (!current || ownCells.length === 0) return;
    findCycle.current = (findCycle.current + 1) % ownCells.length;
    const cell = ownCells[findCycle.current]!;
    current.setTarget(cell);
    current.centreOnCell(cell.row, cell.column, { smooth: true });
    const what = cell.status === CellStatus.Reserved ? 'Your reserved square' : cell.status === CellStatus.Published ? 'Your piece' : 'Your piece, under review';
    say(`${what}: row ${cell.row}, column ${cell.column}.`);
  }, [ownCells, say]);

  // Leaving the page keeps the camera for the next visit.
  const rememberOnLeave = useCallback(
    (node: HTMLElement | null) => {
      if (!node) remember();
    },
    [remember],
  );

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

  const data = snapshot.data ?? null;
  return (
    <div className="tree-area" ref={rememberOnLeave} aria-busy={data ? undefined : true}>
      {drawable && TreeCanvas && (
        <TreeCanvas
          cells={data?.cells ?? null}
          settings={data?.settings ?? null}
          slots={data?.slots}
          initialCamera={initialCamera}
          engineRef={engineRef}
          fetchRegion={fetchRegion}
          describedBy="tree-keyboard-help"
          onCellTap={onCellTap}
          onScaleChange={setScale}
          onCameraChange={onCameraChange}
          onFocusChange={onFocusChange}
          onEngine={onEngine}
        />
      )}
      {!data && <p className="tree-area__status tree-area__status--over">Loading the tree…</p>}
      <p id="tree-keyboard-help" className="visually-hidden">
        Arrow keys move from square to square, Enter opens the square, plus and minus zoom.
      </p>
      <p className="visually-hidden" aria-live="polite" data-testid="tree-focus-description">
        {focusText}
      </p>
      {data && (
        <TreePanel
          scale={scale}
          onZoom={(direction) => engineRef.current?.zoomStep(direction)}
          onPan={(dx, dy) => engineRef.current?.panScreen(dx, dy)}
          onFindFree={onFindFree}
          onSearch={(term) => openPopup({ kind: 'search', term })}
          onHelp={() => openPopup({ kind: 'help' })}
          onFindMine={ownCells.length > 0 ? onFindMine : undefined}
        />
      )}
      {data && <ReplayControl token={token} engine={engine} />}
      <TreeToast message={toast} onDone={() => setToast(null)} />
      <TreePopups popup={popup} hasOwnCells={ownCells.length > 0} onClose={closePopup} />
    </div>
  );
}

/** The address for a camera: the square at the screen's middle and the zoom. */
function searchOfCamera(engine: TreeEngine, camera: Camera, currentSearch = ''): string {
  const { width, height } = engine.viewportSize();
  const centre = cameraCentre(camera, width, height);
  return formatTreeUrl(currentSearch, { row: Math.floor(centre.y / CELL_PITCH), column: Math.floor(centre.x / CELL_PITCH), scale: camera.scale });
}

function parseRemembered(search: string): { row: number; column: number; scale: number } {
  const view = parseTreeUrl(search);
  return view.kind === 'position' ? view : { row: NaN, column: NaN, scale: NaN };
}

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
