/**
 * The growth replay's clock, without React: which time the tree shows, playing from the first publish to now in
 * about PLAY_MS, and moving the engine's replay tree there a bounded number of pieces per frame (a jump across the
 * whole history converges over a few frames instead of stalling one). At the end, now, the live tree shows instead.
 */
import type { TreeHistoryWire } from '#shared/tree/history.ts';
import type { TreeEngine } from '../engine/tree-engine.ts';
import {
  buildTimeline,
  deriveReplayCells,
  publishedBy,
  replayChanges,
  showsLiveTree,
  type ReplayTimeline,
} from './replay-timeline.ts';

/** How long playing from the first publish to now takes. */
export const PLAY_MS = 20_000;
/**
 * The tree moves in slices of this many pieces until the frame's budget is spent: playing a million pieces in 20 s
 * needs about 850 a frame; a jump across the history, or a slow machine, catches up over the next frames instead.
 */
const SLICE = 200;
const FRAME_BUDGET_MS = 2;

export interface ReplayListener {
  /** The time shown (the clock moved, or a seek). */
  time: (ms: number) => void;
  playing: (playing: boolean) => void;
}

export class GrowthReplay {
  readonly timeline: ReplayTimeline;
  private shown: number;
  private target: number;
  private timeMs: number;
  private playingNow = false;
  private lastTick = 0;
  private ended = false;
  /** Playing over a set time by the wall clock (playOver): when it began and how long it takes. */
  private timed: { began: number; ms: number } | null = null;

  /** Starts showing the tree as it was at `time` (clamped to the history), paused. */
  constructor(
    private readonly engine: TreeEngine,
    history: TreeHistoryWire,
    time: number,
    private readonly listener: ReplayListener,
  ) {
    const started = performance.now();
    const live = engine.liveCells!;
    this.timeline = buildTimeline(history, live);
    this.timeMs = this.clamp(time);
    this.shown = this.target = publishedBy(this.timeline, this.timeMs);
    engine.beginReplay(deriveReplayCells(live, this.timeline, this.shown));
    this.showTreeOfTime();
    // For the benchmark: what entering the replay cost the main thread (the history's fetch aside).
    performance.measure('tree:replay-enter', { start: started, end: performance.now() });
  }

  get time(): number {
    return this.timeMs;
  }

  get playing(): boolean {
    return this.playingNow;
  }

  /** Shows the tree at `time` (a scrub); playing goes on from there if it was. */
  seek(time: number): void {
    this.timeMs = this.clamp(time);
    this.target = publishedBy(this.timeline, this.timeMs);
    this.showTreeOfTime();
    this.listener.time(this.timeMs);
    this.schedule();
  }

  play(): void {
    if (this.ended || this.playingNow) return;
    // At the end, playing starts again from the beginning.
    if (this.timeMs >= this.timeline.end) this.seek(this.timeline.start);
    this.playingNow = true;
    this.lastTick = performance.now();
    this.listener.playing(true);
    this.schedule();
  }

  /**
   * Plays from the first publish to now in `ms` by the wall clock, however slow the frames: a recording of the growth
   * (growth-video.ts) must end on time. Playing as usual moves at most 100 ms of the clock a frame, so that a stalled
   * frame does not skip part of the growth; here a slow frame skips instead (the tree catches up in the next ones).
   */
  playOver(ms: number): void {
    this.pause();
    this.seek(this.timeline.start);
    this.play();
    this.timed = { began: this.lastTick, ms };
  }

  pause(): void {
    this.timed = null;
    if (!this.playingNow) return;
    this.playingNow = false;
    this.listener.playing(false);
  }

  /** Back to the live tree. */
  exit(): void {
    if (this.ended) return;
    this.ended = true;
    this.playingNow = false;
    this.engine.setFrameHook(null);
    this.engine.endReplay();
  }

  /** The live tree at the end (now), the replay's own before it (moved on in the frames whichever is shown). */
  private showTreeOfTime(): void {
    this.engine.showLiveInReplay(showsLiveTree(this.timeline, this.timeMs));
  }

  private clamp(time: number): number {
    return Math.min(this.timeline.end, Math.max(this.timeline.start, time));
  }

  /** The clock runs in the engine's frames, so the frame log times its work too. */
  private schedule(): void {
    if (!this.ended) this.engine.setFrameHook(this.frame);
  }

  /** One frame: the clock moves on if playing, and the tree a bounded step towards it; true while more is to do. */
  private frame = (now: number): boolean => {
    if (this.ended) return false;
    if (this.playingNow) {
      const span = Math.max(1, this.timeline.end - this.timeline.start);
      const elapsed = Math.min(100, now - this.lastTick);
      this.lastTick = now;
      if (this.timed) this.seek(this.timeline.start + Math.min(1, (now - this.timed.began) / this.timed.ms) * span);
      else this.seek(this.timeMs + (elapsed * span) / PLAY_MS);
      if (this.timeMs >= this.timeline.end) this.pause();
    }
    const started = performance.now();
    while (this.shown !== this.target && performance.now() - started < FRAME_BUDGET_MS) {
      const step = Math.max(-SLICE, Math.min(SLICE, this.target - this.shown));
      this.engine.applyReplayChanges(replayChanges(this.timeline, this.shown, this.shown + step));
      this.shown += step;
    }
    return this.playingNow || this.shown !== this.target;
  };

  /** The tree on screen is the one of the time shown (a seek or a jump has caught up). */
  get caughtUp(): boolean {
    return this.shown === this.target;
  }

  /** Pieces drawn as published right now (tests read it through the engine's stats instead). */
  get piecesShown(): number {
    return this.shown;
  }
}
