/** What the tree engine (tree-engine.ts) is given: the Pixi application and its layers, and the page's callbacks. */
import type { Application, Container } from 'pixi.js';
import type { Camera } from '#shared/tree/camera.ts';
import type { CellHit } from './canvas-tree.ts';
import type { FetchPyramid } from './pyramid-book.ts';
import type { FetchRegion } from './region-loader.ts';

export interface TreeEngineOptions {
  app: Application;
  /** The world layer: a render group, so pan and zoom move one GPU transform. */
  world: Container;
  /** The screen-space layer above the world (band labels). */
  overlay: Container;
  /** The element that receives keyboard input (the canvas's focusable wrapper). */
  keyTarget: HTMLElement;
  /** Loads region details; without it a large tree has no tokens, thumbnails or titles. */
  fetchRegion?: FetchRegion;
  /** Reads a piece's deep-zoom pyramid; without it the zoom stops at the tree's limit over every piece. */
  fetchPyramid?: FetchPyramid;
  onCellTap?: (hit: CellHit) => void;
  onScaleChange?: (scale: number) => void;
  /**
   * How far the + key and button may zoom now: the tree's upper limit, or past it into the picture's own pixels of the
   * piece they would zoom into (decision 048).
   */
  onZoomLimitChange?: (max: number) => void;
  /** Every camera move (the page debounces what it does with it). */
  onCameraChange?: (camera: Camera) => void;
  onDraggingChange?: (dragging: boolean) => void;
  /**
   * The keyboard's focus cell changed (`fresh`), or what is known about it may have (null: no focus); `note` goes
   * before it (the band a jump reached).
   */
  onFocusChange?: (hit: CellHit | null, context?: { fresh: boolean; note?: string }) => void;
  /** The keyboard found nowhere further to go: what to say ("Edge of the tree: …"). */
  onNotice?: (text: string) => void;
  /** What the tree on screen holds or knows changed (live changes, a region's titles, the replay): the survey looks again. */
  onContentChange?: () => void;
  /** Once, after the first frame that shows cells. */
  onFirstFrame?: () => void;
}
