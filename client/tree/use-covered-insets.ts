/**
 * Tells the tree's engine what the page draws over its canvas (engine/covered-insets.ts), so the keyboard's focus and
 * a find's square are revealed where they can be seen, not under the toolbar or the replay's button.
 */
import { useEffect } from 'react';
import { coveredInsets } from './engine/covered-insets.ts';
import type { TreeEngine } from './engine/tree-engine.ts';

/** Marks an element drawn over the canvas for good (the toolbar, the replay's control): its box covers squares. */
export const COVERS_TREE = { 'data-covers-tree': '' } as const;

/**
 * Measures the canvas and the elements marked COVERS_TREE beside it, once the engine is there and again whenever one
 * of them changes size (the search box opens under the toolbar, the replay's button becomes its bar, the window
 * turns), and hands the engine the insets. The marked elements live as long as the engine's tree does.
 */
export function useCoveredInsets(engine: TreeEngine | null): void {
  useEffect(() => {
    const canvas = engine?.element;
    const area = canvas?.parentElement;
    if (!engine || !canvas || !area) return;
    const overlays = Array.from(area.querySelectorAll<HTMLElement>('[data-covers-tree]'));
    const measure = () =>
      engine.setCoveredInsets(
        coveredInsets(
          canvas.getBoundingClientRect(),
          overlays.map((overlay) => overlay.getBoundingClientRect()),
        ),
      );
    const observer = new ResizeObserver(measure);
    observer.observe(canvas);
    for (const overlay of overlays) observer.observe(overlay);
    measure();
    return () => observer.disconnect();
  }, [engine]);
}
