/**
 * The tree area of /observe: the canvas with its overlays (panel, popups, toast, live description, survey) and the
 * states around it (loading, no tree yet, a failed fetch with Retry). How the view is kept: decisions 010 and 029.
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
import { useCurrentUser } from '#client/app/current-user.ts';
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
import { TreeSurvey, ViewSignal } from './tree-survey.tsx';
import { TreeToast, type ToastMessage } from './tree-toast.tsx';
import { useCoveredInsets } from './use-covered-insets.ts';
import { formatTreeUrl, parseTreeUrl, TREE_PAGE_PATH, type UrlView } from '#shared/tree/tree-url.ts';
import { useLiveTree, useTreeSnapshot } from './use-tree-snapshot.ts';
import { canDrawTree } from './webgl-support.ts';
import './tree.css';

// For the benchmark's breakdown: when the tree's own code starts (everything before is the app shell's boot).
performance.mark('tree:module');

// The canvas brings PixiJS: it starts loading with this module and arrives while the snapshot is fetched.
const canvasLoader = moduleLoader(() => import('./tree-canvas.tsx').then((module) => module.TreeCanvas));
void canvasLoader.start();

/**
 * The last camera per tree while the app runs, with the address it was written as, and the square whose page the
 * tree opened (the keyboard's focus goes back to it on the way back).
 */
const rememberedViews = new Map<
  string,
  { camera: Camera; search: string; square: { row: number; column: number } | null }
>();

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
  // Once the engine shows the snapshot, changes to the tree are applied to it as they come (decision 023).
  useLiveTree(token, snapshot.data, engine);
  // The toolbar and the replay's control cover the canvas's edges: the engine reveals squares clear of them.
  useCoveredInsets(engine);
  const [scale, setScale] = useState<number>(TREE_VIEW.zoomDefault);
  const [toast, setToast] = useState<ToastMessage | null>(null);
  const [popup, setPopup] = useState<TreePopup | null>(null);
  const [focusText, setFocusText] = useState('');
  const savedCamera = useRef<Camera | null>(null);
  /** The square whose page is being opened (a tap, Enter, or the survey's link), remembered on leaving. */
  const openedSquare = useRef<{ row: number; column: number } | null>(null);
  const [viewSignal] = useState(() => new ViewSignal());
  const [drawable] = useState(canDrawTree);
  const TreeCanvas = useLoaded(canvasLoader);

  // The first view: the address's, else the remembered one, else the seed band (the engine's default).
  const [urlView] = useState<UrlView>(() => parseTreeUrl(window.location.search));
  const [linkedToken] = useState(() => new URLSearchParams(window.location.search).get('cell'));
  const [remembered] = useState(() => {
    const entry = token ? rememberedViews.get(token) : undefined;
    if (!entry) return null;
    // Back from a piece's page the address names the remembered view: restore it exactly, with the square opened.
    if (
      urlView.kind === 'none' ||
      (urlView.kind === 'position' && formatTreeUrl('', urlView) === formatTreeUrl('', parseRemembered(entry.search)))
    ) {
      return entry;
    }
    return null;
  });
  const initialCamera = remembered?.camera ?? null;

  // The viewer's own squares on this tree (find-my-slots, the reserved-by-me look, and who may edit a reserved one).
  const mine = trpc.cell.mine.useQuery(undefined, { enabled: user !== null, staleTime: 60_000, retry: false });
  const ownCells = useMemo(
    () => (user ? (mine.data ?? []).filter((cell) => cell.treeToken === token) : []),
    [mine.data, token, user],
  );
  const viewer = useMemo(
    () => ({ known: !userLoading, asker: user, ownTokens: new Set(ownCells.map((cell) => cell.token)) }),
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
      window.history.replaceState(
        window.history.state,
        '',
        `${window.location.pathname}${search}${window.location.hash}`,
      );
    }
  }, []);

  /** Keeps the view for the next visit (and in the address, for the Back button). */
  const remember = useCallback(() => {
    const current = engineRef.current;
    if (!token || !current) return;
    writeUrl();
    const camera = savedCamera.current ?? current.getCamera();
    rememberedViews.set(token, { camera, search: searchOfCamera(current, camera), square: openedSquare.current });
  }, [token, writeUrl]);

  const openPopup = useCallback(
    (next: TreePopup) => {
      savedCamera.current ??= engineRef.current?.getCamera() ?? null;
      writeUrl();
      // A find's toast names the square the popup now speaks for (and may soon be taken): the popup replaces it.
      setToast(null);
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
  // A square's popup (reserve, subscribe) gives the keyboard back to the canvas when it closes, whatever its steps did
  // meanwhile; the popup itself gives focus back to what had it first, so this comes after, once it is gone.
  const closeSquarePopup = useCallback(() => {
    closePopup();
    requestAnimationFrame(() => {
      if (!document.querySelector('dialog[open]')) engineRef.current?.focusCanvas();
    });
  }, [closePopup]);

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
        openedSquare.current = { row: hit.row, column: hit.column };
        remember();
        void navigate(action.to);
      } else if (action.kind === 'popup') {
        openPopup({
          kind: action.popup,
          cell: { token: hit.token, row: hit.row, column: hit.column, status: hit.status },
        });
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

  /** The focused square's words last said: a second look at the same square says them again only if they changed. */
  const focusWords = useRef('');
  const onFocusChange = useCallback((hit: CellHit | null, context?: { fresh: boolean; note?: string }) => {
    const described = hit ? describeCell(hit, hit.token !== null && latestViewer.current.ownTokens.has(hit.token)) : '';
    const words = context?.note && described ? `${context.note}. ${described}` : described;
    // A region arriving says the square again when it brought its title, not over what the tree's edge just said.
    if (context && !context.fresh && words === focusWords.current) return;
    focusWords.current = words;
    setFocusText(words);
  }, []);
  // The tree's edge: said even when it is the same words as last time (a no-break space tells them apart).
  const onNotice = useCallback(
    (text: string) => setFocusText((previous) => (previous === text ? `${text}\u00a0` : text)),
    [],
  );

  // The address follows the camera once it rests, and so does the survey.
  const urlTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const onCameraChange = useCallback(() => {
    viewSignal.emit();
    if (urlTimer.current) clearTimeout(urlTimer.current);
    urlTimer.current = setTimeout(() => {
      urlTimer.current = null;
      writeUrl();
    }, URL_SETTLE_MS);
  }, [viewSignal, writeUrl]);
  const onContentChange = useCallback(() => viewSignal.emit(), [viewSignal]);
  useEffect(() => () => void (urlTimer.current && clearTimeout(urlTimer.current)), []);

  // The first sketch (tree-sketch.ts) leaves with the page, and never stays over one of the notices below.
  const showsNotice = !token || !drawable || (snapshot.isError && !snapshot.data);
  useEffect(() => {
    if (showsNotice) removeSketch();
  }, [showsNotice]);
  useEffect(() => removeSketch, []);

  /**
   * Resolves once the tree on screen holds a cell (not only a branch slot) at the position, or with false if the
   * engine is replaced first. The server knows the square but the snapshot on screen is older than it: the live
   * tree's catch-up, asked for as soon as the engine shows the snapshot, brings it.
   */
  const cellArrives = useCallback(
    (created: TreeEngine, row: number, column: number) =>
      new Promise<boolean>((resolve) => {
        const settled = () => engineRef.current !== created || created.hitAtCell(row, column)?.kind === 'cell';
        if (settled()) return resolve(engineRef.current === created);
        // Every change the engine applies (and every camera move) emits the signal.
        const stop = viewSignal.subscribe(() => {
          if (!settled()) return;
          stop();
          resolve(engineRef.current === created);
        });
      }),
    [viewSignal],
  );

  /**
   * A link to a square (`?cell=`: the "square available" e-mail's, a shared one) centres it, rings it as find-free
   * does, puts the keyboard's focus on it (Enter opens it) and names it in a toast; a square not on this tree says so
   * and the default view stays.
   */
  const openLinkedSquare = useCallback(
    async (created: TreeEngine, cellToken: string, scale: number) => {
      let position: { row: number; column: number } | null = created.positionOfToken(cellToken);
      if (!position) {
        // Not among the tokens on screen: a large tree's snapshot carries none, and any snapshot may be older than the
        // square (the server keeps one while its change log can bring a page up to date, and a page shown before
        // keeps its own), so a square made since is known only to the server. Ask where it is.
        try {
          const cell = await utils.cell.get.fetch({ token: cellToken });
          position = cell.treeToken === token ? cell : null;
        } catch (error) {
          const code = errorBodyOf(error)?.error;
          if (code !== ErrorCode.CellNotFound && code !== ErrorCode.BadRequest) {
            if (engineRef.current === created)
              say('That square could not be looked up just now. Please reload the page to try again.');
            return;
          }
        }
        if (position && !(await cellArrives(created, position.row, position.column))) return;
      }
      if (engineRef.current !== created) return;
      if (!position || !created.showLinkedSquare(position.row, position.column, scale)) return say(NOT_ON_TREE);
      const square = await created.squareWithDetails(position.row, position.column);
      if (square && engineRef.current === created) say(linkedSquareText(square));
    },
    [cellArrives, say, token, utils],
  );

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

  const findCycle = useRef(-1);
  const onFindFree = useCallback(() => {
    const current = engineRef.current;
    const next = current?.nextAvailable();
    if (!current) return;
    if (!next) return say('No square is free right now. Check back soon: every new piece opens the squares around it.');
    current.setTarget(next);
    current.centreOnCell(next.row, next.column, { smooth: true });
    // The keyboard goes with it, so Enter on the canvas opens this square (the toast says where it is).
    current.focusCell(next.row, next.column, { reveal: 'none', announce: false });
    say(`A free square: row ${next.row}, column ${next.column}.`);
  }, [say]);
  const onFindMine = useCallback(() => {
    const current = engineRef.current;
    if (!current || ownCells.length === 0) return;
    findCycle.current = (findCycle.current + 1) % ownCells.length;
    const cell = ownCells[findCycle.current]!;
    current.setTarget(cell);
    current.centreOnCell(cell.row, cell.column, { smooth: true });
    current.focusCell(cell.row, cell.column, { reveal: 'none', announce: false });
    const what =
      cell.status === CellStatus.Reserved
        ? 'Your reserved square'
        : cell.status === CellStatus.Published
          ? 'Your piece'
          : 'Your piece, under review';
    say(`${what}: row ${cell.row}, column ${cell.column}.`);
  }, [ownCells, say]);

  // A piece opened from the survey is come back to as one opened on the canvas is.
  const onOpenPiece = useCallback((piece: { row: number; column: number }) => {
    openedSquare.current = { row: piece.row, column: piece.column };
  }, []);

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
          onZoom={(direction) => engineRef.current?.zoomStep(direction)}
          onPan={(dx, dy) => engineRef.current?.panScreen(dx, dy)}
          onFindFree={onFindFree}
          onSearch={(term) => openPopup({ kind: 'search', term })}
          onHelp={() => openPopup({ kind: 'help' })}
          onFindMine={ownCells.length > 0 ? onFindMine : undefined}
        />
      )}
      {data && <ReplayControl token={token} engine={engine} />}
      <TreeSurvey engine={engine} signal={viewSignal} ownTokens={viewer.ownTokens} onOpenPiece={onOpenPiece} />
      <TreeToast message={toast} onDone={() => setToast(null)} />
      <TreePopups
        popup={popup}
        hasOwnCells={ownCells.length > 0}
        onClose={popup?.kind === 'reserve' || popup?.kind === 'subscribe' ? closeSquarePopup : closePopup}
      />
    </div>
  );
}

/** The canvas's description for screen readers: every key it answers. */
const KEYBOARD_HELP =
  'Arrow keys move from square to square, Enter opens the square, plus and minus zoom. ' +
  'Home and End go to the first and last square of the row, Page Up and Page Down a screenful of rows. ' +
  'B jumps to the next band down and Shift+B to the band above; P to the next published piece and Shift+P to the one before; ' +
  'F to the next free square and Shift+F to the one before.';

/** The address for a camera: the square at the screen's middle and the zoom. */
function searchOfCamera(engine: TreeEngine, camera: Camera, currentSearch = ''): string {
  const { width, height } = engine.viewportSize();
  const centre = cameraCentre(camera, width, height);
  return formatTreeUrl(currentSearch, {
    row: Math.floor(centre.y / CELL_PITCH),
    column: Math.floor(centre.x / CELL_PITCH),
    scale: camera.scale,
  });
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
