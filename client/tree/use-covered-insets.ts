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
 * turns) or one comes, goes or is replaced (the page renders them after the engine as well as before), and hands the
 * engine the insets.
 */
export function useCoveredInsets(engine: TreeEngine | null): void {
  useEffect(() => {
    const canvas = engine?.element;
    const area = canvas?.parentElement;
    if (!engine || !canvas || !area) return;
    let overlays: HTMLElement[] = [];
    const measure = () =>
      engine.setCoveredInsets(
        coveredInsets(
          canvas.getBoundingClientRect(),
          overlays.map((overlay) => overlay.getBoundingClientRect()),
        ),
      );
    const sizes = new ResizeObserver(measure);
    sizes.observe(canvas);
    const follow = (changes: readonly MutationRecord[] = []) => {
      const now = Array.from(area.querySelectorAll<HTMLElement>('[data-covers-tree]'));
      if (now.length === overlays.length && now.every((overlay, i) => overlay === overlays[i])) {
        // A control whose content changed (the replay's button became its bar) is measured now: the size observer
        // tells only at the next frame, which a busy renderer holds back while keys already move the focus.
        if (changes.some((change) => overlays.some((overlay) => overlay.contains(change.target)))) measure();
        return;
      }
      for (const overlay of overlays) if (!now.includes(overlay)) sizes.unobserve(overlay);
      for (const overlay of now) if (!overlays.includes(overlay)) sizes.observe(overlay);
      overlays = now;
      measure();
    };
    // The survey's list changes often too: follow() measures only when the marked elements are others.
    const arrivals = new MutationObserver(follow);
    arrivals.observe(area, { childList: true, subtree: true });
    follow();
    return () => {
      sizes.disconnect();
      arrivals.disconnect();
    };
  }, [engine]);
}
