/**
 * The tree area of /observe: the canvas with its DOM overlays (top panel, toast) and the honest states around it
 * (loading, no tree yet, a failed fetch with Retry). Remembers the camera per tree while the app runs, so leaving
 * and coming back restores zoom and position (spec §2).
 */
import { useCallback, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { TREE_VIEW } from '#shared/constants.ts';
import { initialParams } from '#client/api/initial-params.ts';
import { actionForCell, describeAction } from './cell-actions.ts';
import type { Camera } from './engine/camera.ts';
import type { CellHit, TreeEngine } from './engine/tree-engine.ts';
import { canDrawTree, TreeCanvas } from './tree-canvas.tsx';
import { TreeToast, type ToastMessage } from './tree-toast.tsx';
import { useTreeSnapshot } from './use-tree-snapshot.ts';
import { ZoomPanel } from './zoom-panel.tsx';
import './tree.css';

const rememberedViews = new Map<string, Camera>();

export function TreeView() {
  const token = initialParams().treeToken;
  const snapshot = useTreeSnapshot(token);
  const navigate = useNavigate();
  const engineRef = useRef<TreeEngine | null>(null);
  const [scale, setScale] = useState<number>(TREE_VIEW.zoomDefault);
  const [toast, setToast] = useState<ToastMessage | null>(null);
  const [initialCamera] = useState(() => (token ? (rememberedViews.get(token) ?? null) : null));
  const [drawable] = useState(canDrawTree);

  const onCellTap = useCallback(
    (hit: CellHit) => {
      const action = actionForCell(hit);
      if (action.kind === 'navigate') {
        if (token && engineRef.current) rememberedViews.set(token, engineRef.current.getCamera());
        navigate(action.to);
        return;
      }
      setToast((previous) => ({ id: (previous?.id ?? 0) + 1, text: describeAction(action, hit) }));
    },
    [navigate, token],
  );
  const onScaleChange = useCallback((next: number) => setScale(next), []);
  const clearToast = useCallback(() => setToast(null), []);

  // Leaving the page keeps the camera for the next visit.
  const rememberView = useCallback(
    (node: HTMLElement | null) => {
      if (node) return;
      if (token && engineRef.current) rememberedViews.set(token, engineRef.current.getCamera());
    },
    [token],
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
        This browser has WebGL turned off or does not support it, and the tree needs it to draw its squares.
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

  if (!snapshot.data) {
    return (
      <div className="tree-area tree-area--loading" aria-busy="true">
        <p className="tree-area__status">Loading the tree…</p>
      </div>
    );
  }

  return (
    <div className="tree-area" ref={rememberView}>
      <TreeCanvas
        cells={snapshot.data.cells}
        settings={snapshot.data.settings}
        initialCamera={initialCamera}
        engineRef={engineRef}
        onCellTap={onCellTap}
        onScaleChange={onScaleChange}
      />
      <ZoomPanel scale={scale} onZoom={(direction) => engineRef.current?.zoomStep(direction)} />
      <TreeToast message={toast} onDone={clearToast} />
    </div>
  );
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
