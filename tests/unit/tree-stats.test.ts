/**
 * The engine's live record (client/tree/engine/stats.ts): window.__treeStats, which the browser tests and the
 * benchmarks read, and the frame log a `?bench` page keeps in a ring.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createFrameLog,
  createTreeStats,
  FRAME_LOG_SIZE,
  recordFrame,
  type FrameLog,
} from '#client/tree/engine/stats.ts';

afterEach(() => {
  vi.unstubAllGlobals();
});

const pageAt = (search: string) => {
  const page = { location: { search } } as Window;
  vi.stubGlobal('window', page);
  return page;
};

describe('the tree stats', () => {
  it('start empty: no cells, nothing drawn, no focus, the camera at the origin at zoom 1', () => {
    expect(createTreeStats()).toEqual({
      cells: 0,
      chunksBuilt: 0,
      chunksVisible: 0,
      cellsDrawn: 0,
      thumbnailsLoaded: 0,
      thumbnailsDrawn: 0,
      regionsLoaded: 0,
      scale: 1,
      x: 0,
      y: 0,
      flying: false,
      focusRow: null,
      focusColumn: null,
      targetRow: null,
      targetColumn: null,
      firstFrameAt: null,
      frames: 0,
      lastApplyMs: 0,
      changesApplied: 0,
      applyCount: 0,
      replaying: false,
      deepZoomRow: null,
      deepZoomColumn: null,
      deepZoomLevel: null,
      deepZoomTiles: 0,
      marksShown: true,
    });
  });

  it('are the very object the page shows as window.__treeStats, so updating them in place is enough', () => {
    const page = pageAt('');
    const stats = createTreeStats();
    expect(page.__treeStats).toBe(stats);
    stats.frames = 3;
    expect(page.__treeStats!.frames).toBe(3);
  });
});

describe('the frame log', () => {
  it('costs nothing on a page opened without ?bench', () => {
    expect(createFrameLog()).toBeNull();
    const page = pageAt('?row=3&col=1');
    expect(createFrameLog()).toBeNull();
    expect(page.__treeFrames).toBeUndefined();
  });

  it('is window.__treeFrames on a ?bench page, and records frames in order', () => {
    const page = pageAt('?bench');
    const log = createFrameLog()!;
    expect(page.__treeFrames).toBe(log);
    recordFrame(log, 100, 5, 1, 3);
    recordFrame(log, 116, 6, 0, 4);
    expect(log.count).toBe(2);
    expect([log.at[0], log.total[0], log.build[0], log.render[0]]).toEqual([100, 5, 1, 3]);
    expect([log.at[1], log.total[1], log.build[1], log.render[1]]).toEqual([116, 6, 0, 4]);
  });

  it('keeps the last FRAME_LOG_SIZE frames, the newest overwriting the oldest, and forgets them on reset', () => {
    pageAt('?bench');
    const log: FrameLog = createFrameLog()!;
    for (let frame = 0; frame < FRAME_LOG_SIZE + 3; frame++) recordFrame(log, frame, frame % 7, 0, 0);
    expect(log.count).toBe(FRAME_LOG_SIZE + 3);
    expect(log.at[0]).toBe(FRAME_LOG_SIZE);
    expect(log.at[2]).toBe(FRAME_LOG_SIZE + 2);
    expect(log.at[3]).toBe(3);
    log.reset();
    expect(log.count).toBe(0);
    recordFrame(log, 5000, 1, 0, 0);
    expect(log.at[0]).toBe(5000);
  });
});
