/**
 * The trees the engine holds: the one on screen, and the live one set aside while the growth replay
 * (client/tree/replay/) shows its own. Live changes and new snapshots always go to the live tree, wherever it is.
 */
import type { CanvasTree } from './canvas-tree.ts';

export class TreeStage {
  /** The tree on screen. */
  shown: CanvasTree | null = null;
  private aside: CanvasTree | null = null;

  /** The live tree: on screen, or behind the replay. */
  get live(): CanvasTree | null {
    return this.aside ?? this.shown;
  }

  get replaying(): boolean {
    return this.aside !== null;
  }

  /** A new live tree replaces the old one; true when it went on screen, false when it waits behind the replay. */
  setLive(tree: CanvasTree): boolean {
    if (this.aside) {
      this.aside.destroy();
      this.aside = tree;
      tree.setShown(false);
      return false;
    }
    this.shown?.destroy();
    this.shown = tree;
    return true;
  }

  /** Shows a replay's tree; the live one is set aside (its chunks given back), an earlier replay's destroyed. */
  showReplay(tree: CanvasTree): void {
    if (this.aside) this.shown?.destroy();
    else this.shown?.setShown(false);
    this.aside ??= this.shown;
    this.shown = tree;
  }

  /** Back to the live tree; false when no replay was on screen. */
  endReplay(): boolean {
    const live = this.aside;
    if (!live) return false;
    this.shown?.destroy();
    this.aside = null;
    this.shown = live;
    live.setShown(true);
    return true;
  }

  clear(): void {
    this.shown?.destroy();
    this.aside?.destroy();
    this.shown = null;
    this.aside = null;
  }
}
