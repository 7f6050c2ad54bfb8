/**
 * Frames on demand (client/tree/engine/frame-loop.ts, decision 010): asking for a frame several times before it comes
 * schedules one; a frame runs update, render and after in that order; another follows at once only when after()
 * wants it; stopped, nothing runs. The browser's animation frames are played by the test, one at a time, and with
 * `?bench` each frame's cost goes to the frame log (stats.ts).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FrameLoop, type FrameWork } from '#client/tree/engine/frame-loop.ts';
import type { FrameLog } from '#client/tree/engine/stats.ts';

/** The browser's requestAnimationFrame, played by hand: `next()` runs the frame callbacks waiting now. */
function animationFrames() {
  let waiting = new Map<number, FrameRequestCallback>();
  let id = 0;
  vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => {
    waiting.set(++id, callback);
    return id;
  });
  vi.stubGlobal('cancelAnimationFrame', (handle: number) => waiting.delete(handle));
  return {
    get pending() {
      return waiting.size;
    },
    next() {
      const now = waiting;
      waiting = new Map();
      for (const callback of now.values()) callback(performance.now());
    },
  };
}

/** Work that records what ran, in order, and wants `more` frames after this one. */
function recordingWork(more = 0) {
  const ran: string[] = [];
  let left = more;
  const work: FrameWork = {
    update: (now) => {
      ran.push(`update ${typeof now}`);
      return 2;
    },
    render: () => void ran.push('render'),
    after: () => {
      ran.push('after');
      return left-- > 0;
    },
  };
  return { ran, work };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the frame loop', () => {
  let frames: ReturnType<typeof animationFrames>;
  beforeEach(() => {
    frames = animationFrames();
  });

  it('asks the browser for one frame however often it is asked before the frame comes', () => {
    const { ran, work } = recordingWork();
    const loop = new FrameLoop(work);
    loop.request();
    loop.request();
    loop.request();
    expect(frames.pending).toBe(1);
    frames.next();
    expect(ran).toEqual(['update number', 'render', 'after']);
    // No idle ticker: nothing is asked for after a frame that wants no other.
    expect(frames.pending).toBe(0);
  });

  it('runs frame after frame while after() wants one (chunks waiting, a flight under way)', () => {
    const { ran, work } = recordingWork(2);
    const loop = new FrameLoop(work);
    loop.request();
    for (let i = 0; i < 5; i++) frames.next();
    expect(ran.filter((step) => step === 'render')).toHaveLength(3);
    expect(frames.pending).toBe(0);
  });

  it('can be asked again once a frame has run', () => {
    const { ran, work } = recordingWork();
    const loop = new FrameLoop(work);
    loop.request();
    frames.next();
    loop.request();
    frames.next();
    expect(ran.filter((step) => step === 'render')).toHaveLength(2);
  });

  it('stopped, it gives back the frame it asked for and never asks again', () => {
    const { ran, work } = recordingWork(10);
    const loop = new FrameLoop(work);
    loop.request();
    loop.stop();
    expect(frames.pending).toBe(0);
    loop.request();
    expect(frames.pending).toBe(0);
    frames.next();
    expect(ran).toEqual([]);
  });
});

describe('the frame log (?bench)', () => {
  it('records each frame’s whole cost, its chunk building (as update answered) and its render', () => {
    const frames = animationFrames();
    const page = { location: { search: '?bench' } } as Window & { __treeFrames?: FrameLog };
    vi.stubGlobal('window', page);
    const { work } = recordingWork(1);
    const loop = new FrameLoop(work);
    loop.request();
    frames.next();
    frames.next();
    const log = page.__treeFrames!;
    expect(log.count).toBe(2);
    expect(log.build[0]).toBe(2);
    expect(log.total[1]).toBeGreaterThanOrEqual(log.render[1]!);
    expect(log.at[1]).toBeGreaterThanOrEqual(log.at[0]!);
  });
});
