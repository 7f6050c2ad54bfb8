/**
 * The trees the engine holds: the live one, and the growth replay's (client/tree/replay/) while it is on. The replay's
 * tree is on screen, and the live one set aside, except at the replay's end (now), where the live tree shows in its
 * place. Live changes and new snapshots always go to the live tree, wherever it is.
 */
import type { CanvasTree } from './canvas-tree.ts';

export class TreeStage {
  private liveTree: CanvasTree | null = null;
  private replayTree: CanvasTree | null = null;
  /** The replay is at its end: the live tree is on screen in its place. */
  private liveInReplay = false;

  /** The tree on screen. */
  get shown(): CanvasTree | null {
    return this.replayTree && !this.liveInReplay ? this.replayTree : this.liveTree;
  }

  /** The live tree: on screen, or behind the replay. */
  get live(): CanvasTree | null {
    return this.liveTree;
  }

  /** The replay's tree, on screen or (at its end) set aside; null when no replay is on. */
  get replay(): CanvasTree | null {
    return this.replayTree;
  }

  get replaying(): boolean {
    return this.replayTree !== null;
  }

  /** A new live tree replaces the old one; true when it went on screen, false when it waits behind the replay. */
  setLive(tree: CanvasTree): boolean {
    const onScreen = this.shown === this.liveTree;
    this.liveTree?.destroy();
    this.liveTree = tree;
    if (!onScreen) tree.setShown(false);
    return onScreen;
  }

  /** Shows a replay's tree; the live one is set aside (its chunks given back), an earlier replay's destroyed. */
  showReplay(tree: CanvasTree): void {
    if (this.shown === this.liveTree) this.liveTree?.setShown(false);
    this.replayTree?.destroy();
    this.replayTree = tree;
    this.liveInReplay = false;
  }

  /**
   * The replay reached its end (true: the live tree goes on screen) or left it (false: its own tree comes back); the
   * tree set aside gives its chunks back. False when nothing changed on screen.
   */
  showLiveInReplay(live: boolean): boolean {
    if (!this.replayTree || !this.liveTree || live === this.liveInReplay) return false;
    this.shown!.setShown(false);
    this.liveInReplay = live;
    this.shown!.setShown(true);
    return true;
  }

  /** Back to the live tree; false when no replay was on. */
  endReplay(): boolean {
    const replay = this.replayTree;
    if (!replay) return false;
    const liveWasShown = this.liveInReplay;
    replay.destroy();
    this.replayTree = null;
    this.liveInReplay = false;
    if (!liveWasShown) this.liveTree?.setShown(true);
    return true;
  }

  clear(): void {
    this.liveTree?.destroy();
    this.replayTree?.destroy();
    this.liveTree = null;
    this.replayTree = null;
    this.liveInReplay = false;
  }
}
