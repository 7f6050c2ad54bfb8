/** The tree's top panel (spec §2): zoom in and out, each disabled at its end of the range. */
import { canZoomIn, canZoomOut } from './engine/camera.ts';

export interface ZoomPanelProps {
  scale: number;
  onZoom(direction: 1 | -1): void;
}

export function ZoomPanel({ scale, onZoom }: ZoomPanelProps) {
  const atMax = !canZoomIn(scale);
  const atMin = !canZoomOut(scale);
  return (
    <div className="tree-panel" role="toolbar" aria-label="Tree view">
      <button type="button" className="tree-panel__button" onClick={() => onZoom(-1)} disabled={atMin} aria-label="Zoom out" title="Zoom out">
        −
      </button>
      <output className="tree-panel__scale" aria-live="polite" aria-label="Zoom level">
        {Math.round(scale * 100)}%
      </output>
      <button type="button" className="tree-panel__button" onClick={() => onZoom(1)} disabled={atMax} aria-label="Zoom in" title="Zoom in">
        +
      </button>
    </div>
  );
}
