/**
 * The tree's popups (reserve, subscribe, search, help): opening one keeps the camera it opened over and the address
 * naming it, and takes the place of a find's toast; closing one puts the camera back, and a square's popup gives the
 * keyboard back to the canvas.
 */
import { useCallback, useState, type RefObject } from 'react';
import type { TreePopup } from '#client/popups/tree-popups.tsx';
import type { Camera } from '#shared/tree/camera.ts';
import type { TreeEngine } from './engine/tree-engine.ts';

export interface TreePopups {
  popup: TreePopup | null;
  openPopup: (next: TreePopup) => void;
  /** What closes the popup open now (a square's popup also hands the keyboard back to the canvas). */
  closePopup: () => void;
}

export function useTreePopups(
  engineRef: RefObject<TreeEngine | null>,
  savedCamera: RefObject<Camera | null>,
  writeUrl: () => void,
  clearToast: () => void,
): TreePopups {
  const [popup, setPopup] = useState<TreePopup | null>(null);
  const openPopup = useCallback(
    (next: TreePopup) => {
      savedCamera.current ??= engineRef.current?.getCamera() ?? null;
      writeUrl();
      // A find's toast names the square the popup now speaks for (and may soon be taken): the popup replaces it.
      clearToast();
      setPopup(next);
    },
    [clearToast, engineRef, savedCamera, writeUrl],
  );
  const closePopup = useCallback(() => {
    setPopup(null);
    const saved = savedCamera.current;
    savedCamera.current = null;
    if (saved) engineRef.current?.setCamera(saved);
  }, [engineRef, savedCamera]);
  // A square's popup (reserve, subscribe) gives the keyboard back to the canvas when it closes, whatever its steps did
  // meanwhile; the popup itself gives focus back to what had it first, so this comes after, once it is gone.
  const closeSquarePopup = useCallback(() => {
    closePopup();
    requestAnimationFrame(() => {
      if (!document.querySelector('dialog[open]')) engineRef.current?.focusCanvas();
    });
  }, [closePopup, engineRef]);
  const squarePopup = popup?.kind === 'reserve' || popup?.kind === 'subscribe';
  return { popup, openPopup, closePopup: squarePopup ? closeSquarePopup : closePopup };
}
