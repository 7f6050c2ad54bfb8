/**
 * The tree page's address and the views it remembers (decision 029): the view the page opens with (the address's,
 * else the one kept from the last visit), the address following the camera once it rests, and the camera kept for
 * the next visit when the page is left.
 */
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { TREE_VIEW } from '#shared/constants.ts';
import { CELL_PITCH, cameraCentre, type Camera } from '#shared/tree/camera.ts';
import { formatTreeUrl, parseTreeUrl, TREE_PAGE_PATH, type UrlView } from '#shared/tree/tree-url.ts';
import type { TreeEngine } from './engine/tree-engine.ts';

/** A square by its position. */
export interface SquarePosition {
  row: number;
  column: number;
}

/**
 * The last camera per tree while the app runs, with the address it was written as, and the square whose page the
 * tree opened (the keyboard's focus goes back to it on the way back).
 */
const rememberedViews = new Map<string, { camera: Camera; search: string; square: SquarePosition | null }>();

/** How long the camera rests before the address follows it. */
const URL_SETTLE_MS = 350;

export interface TreeAddress {
  /** The view the address named when the page opened. */
  urlView: UrlView;
  /** The raw `?cell=` of the address, when it had one (to tell a malformed token from no link at all). */
  linkedToken: string | null;
  /** The view kept from the last visit, when the address leads back to it. */
  remembered: { camera: Camera; square: SquarePosition | null } | null;
  /** Writes the view into the address now (a popup opening keeps the view it had). */
  writeUrl: () => void;
  /** Keeps the view for the next visit and in the address. */
  remember: () => void;
  /** Called on every camera move: the address follows once the camera rests. */
  cameraMoved: () => void;
  /** A ref callback for the page's element: leaving the page keeps the camera for the next visit. */
  rememberOnLeave: (node: HTMLElement | null) => void;
}

/**
 * `savedCamera` is the camera a popup saved when it opened (the address keeps naming it meanwhile); `openedSquare` is
 * the square whose page is being opened, remembered on leaving.
 */
export function useTreeAddress(
  token: string | null,
  engineRef: RefObject<TreeEngine | null>,
  savedCamera: RefObject<Camera | null>,
  openedSquare: RefObject<SquarePosition | null>,
): TreeAddress {
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
  }, [engineRef, savedCamera]);

  const remember = useCallback(() => {
    const current = engineRef.current;
    if (!token || !current) return;
    writeUrl();
    const camera = savedCamera.current ?? current.getCamera();
    rememberedViews.set(token, { camera, search: searchOfCamera(current, camera), square: openedSquare.current });
  }, [engineRef, openedSquare, savedCamera, token, writeUrl]);

  const urlTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const cameraMoved = useCallback(() => {
    if (urlTimer.current) clearTimeout(urlTimer.current);
    urlTimer.current = setTimeout(() => {
      urlTimer.current = null;
      writeUrl();
    }, URL_SETTLE_MS);
  }, [writeUrl]);
  useEffect(() => () => void (urlTimer.current && clearTimeout(urlTimer.current)), []);

  const rememberOnLeave = useCallback(
    (node: HTMLElement | null) => {
      if (!node) remember();
    },
    [remember],
  );

  return { urlView, linkedToken, remembered, writeUrl, remember, cameraMoved, rememberOnLeave };
}

/**
 * The address for a camera: the square at the screen's middle and the zoom, within the tree's range (a view deep in a
 * piece's pyramid, decision 048, is written at the tree's upper limit: addresses keep the range they always had).
 */
function searchOfCamera(engine: TreeEngine, camera: Camera, currentSearch = ''): string {
  const { width, height } = engine.viewportSize();
  const centre = cameraCentre(camera, width, height);
  return formatTreeUrl(currentSearch, {
    row: Math.floor(centre.y / CELL_PITCH),
    column: Math.floor(centre.x / CELL_PITCH),
    scale: Math.min(camera.scale, TREE_VIEW.zoomMax),
  });
}

function parseRemembered(search: string): { row: number; column: number; scale: number } {
  const view = parseTreeUrl(search);
  return view.kind === 'position' ? view : { row: NaN, column: NaN, scale: NaN };
}
