/**
 * Frames on demand (decision 010): one animation frame is asked for when something changed, never an idle ticker.
 * Each frame's main-thread cost is timed: the update (culling, chunk building) and the render, for the benchmark's
 * frame log (stats.ts, on with `?bench`).
 */
import { createFrameLog, recordFrame, type FrameLog } from './stats.ts';

export interface FrameWork {
  /** Brings the scene up to date; answers the milliseconds spent building chunks. */
  update: (now: number) => number;
  render: () => void;
  /** After the frame: whether another one is wanted at once (chunks still waiting, a flight under way). */
  after: () => boolean;
}

export class FrameLoop {
  private readonly log: FrameLog | null = createFrameLog();
  private frameId = 0;
  private stopped = false;

  constructor(private readonly work: FrameWork) {}

  request(): void {
    if (this.frameId || this.stopped) return;
    this.frameId = requestAnimationFrame(this.frame);
  }

  stop(): void {
    this.stopped = true;
    if (this.frameId) cancelAnimationFrame(this.frameId);
    this.frameId = 0;
  }

  private frame = (): void => {
    this.frameId = 0;
    if (this.stopped) return;
    const started = performance.now();
    const buildMs = this.work.update(started);
    const rendering = performance.now();
    this.work.render();
    const ended = performance.now();
    if (this.log) recordFrame(this.log, started, ended - started, buildMs, ended - rendering);
    if (this.work.after()) this.request();
  };
}
