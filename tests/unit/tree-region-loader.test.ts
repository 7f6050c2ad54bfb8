/**
 * Region details loaded around the view (client/tree/engine/region-loader.ts) for a tree too large for its snapshot
 * to carry tokens and titles: which aligned blocks are asked for and in what order, once the camera has settled; a
 * tapped square's block at once; at most four requests at a time; a failed block left alone for a while; nothing
 * taken in after the tree is gone. The requests go to a function that answers each block from the test's own tree
 * as the server would, and records the bounds asked for.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CellStatus } from '#shared/domain.ts';
import { blockBounds, REGION_BLOCK, regionWidth, type RegionBounds, type TreeRegionWire } from '#shared/tree/region.ts';
import { blockKey, CellDetails } from '#client/tree/engine/cell-details.ts';
import { RegionLoader, type FetchRegion } from '#client/tree/engine/region-loader.ts';
import { syntheticTreeCells } from '#tests/helpers/synthetic-tree-cells.ts';

const SETTLE_MS = 150;
const { cells } = syntheticTreeCells(20_000);

/** The answer the server gives for a block of this tree: every cell in it, a published one with its title. */
function regionOf(bounds: RegionBounds): TreeRegionWire {
  const wire: TreeRegionWire = { ...bounds, version: 1, at: [], token: [], thumb: [], title: [], artist: [] };
  for (let row = bounds.row0; row <= bounds.row1; row++) {
    for (let column = bounds.col0; column <= bounds.col1; column++) {
      const i = cells.indexOf.at(row, column);
      if (i < 0) continue;
      const published = cells.status[i] === CellStatus.Published;
      wire.at.push((row - bounds.row0) * regionWidth(bounds) + (column - bounds.col0));
      wire.token.push(`token-${row}-${column}`);
      wire.thumb.push(published ? `/media/${row}-${column}-thumb.webp` : '');
      wire.title.push(published ? `Piece ${row}/${column}` : '');
      wire.artist.push(published ? 'Ada' : '');
    }
  }
  return wire;
}

/** A region endpoint held by the test: requests wait until answered (or refused) one by one. */
function regionServer() {
  const asked: { bounds: RegionBounds; signal: AbortSignal; answer: () => void; refuse: () => void }[] = [];
  const fetchRegion: FetchRegion = (bounds, signal) =>
    new Promise((resolve, reject) => {
      asked.push({
        bounds,
        signal,
        answer: () => resolve(regionOf(bounds)),
        refuse: () => reject(new Error('503')),
      });
    });
  return { asked, fetchRegion };
}

const blockOfBounds = ({ row0, col0 }: RegionBounds) => [row0 / REGION_BLOCK, col0 / REGION_BLOCK];

/** Lets the loader's promise chains run (an answer is taken in over a few microtasks). */
const settle = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the region loader', () => {
  it('waits for the camera to settle, then asks for the blocks of the last view only', async () => {
    const details = new CellDetails(cells);
    const server = regionServer();
    const loader = new RegionLoader(details, server.fetchRegion, () => {});
    loader.wantView(0, 10, 0, 10);
    vi.advanceTimersByTime(SETTLE_MS - 1);
    loader.wantView(40, 50, 0, 10);
    vi.advanceTimersByTime(SETTLE_MS - 1);
    expect(server.asked).toEqual([]);
    vi.advanceTimersByTime(1);
    // Rows 40 to 50 lie in block row 1; columns 0 to 10 in block column 0.
    expect(server.asked.map(({ bounds }) => bounds)).toEqual([blockBounds(1, 0)]);
    loader.destroy();
  });

  it('asks for aligned blocks covering the view, nearest the middle first, four at a time', async () => {
    const details = new CellDetails(cells);
    const server = regionServer();
    const loaded: number[] = [];
    const loader = new RegionLoader(details, server.fetchRegion, (key) => loaded.push(key));
    // Block rows 0 to 2 and block columns -1 to 1: nine blocks, the middle one (1, 0) first.
    loader.wantView(10, 70, -20, 40);
    vi.advanceTimersByTime(SETTLE_MS);
    expect(server.asked.map(({ bounds }) => blockOfBounds(bounds))).toEqual([
      [1, 0],
      [0, 0],
      [1, -1],
      [1, 1],
    ]);
    expect(loader.loading).toBe(4);
    for (const { bounds } of server.asked) {
      expect(bounds.row1 - bounds.row0 + 1).toBe(REGION_BLOCK);
      expect(bounds.col1 - bounds.col0 + 1).toBe(REGION_BLOCK);
    }

    server.asked[0]!.answer();
    await settle();
    expect(loaded).toEqual([blockKey(1, 0)]);
    expect(details.hasBlock(blockKey(1, 0))).toBe(true);
    // One answered: the next waiting block (a corner, farther out) goes.
    expect(server.asked).toHaveLength(5);
    expect(loader.loading).toBe(4);
    // Answered one after another, the rest follow, never more than four on their way, each block asked for once.
    for (let k = 1; k < server.asked.length; k++) {
      server.asked[k]!.answer();
      await settle();
      expect(loader.loading).toBeLessThanOrEqual(4);
    }
    expect(new Set(server.asked.map(({ bounds }) => keyOf(bounds))).size).toBe(9);
    expect(server.asked).toHaveLength(9);
    loader.destroy();
  });

  it('does not ask again for blocks it holds or is waiting for', async () => {
    const details = new CellDetails(cells);
    const server = regionServer();
    const loader = new RegionLoader(details, server.fetchRegion, () => {});
    loader.wantView(0, 10, 0, 10);
    vi.advanceTimersByTime(SETTLE_MS);
    loader.wantView(0, 10, 0, 10);
    vi.advanceTimersByTime(SETTLE_MS);
    expect(server.asked).toHaveLength(1);
    server.asked[0]!.answer();
    await settle();
    loader.wantView(0, 10, 0, 10);
    vi.advanceTimersByTime(SETTLE_MS);
    expect(server.asked).toHaveLength(1);
    loader.destroy();
  });

  it('loads a tapped square’s block at once, and resolves once its token and title are known', async () => {
    const details = new CellDetails(cells);
    const server = regionServer();
    const loader = new RegionLoader(details, server.fetchRegion, () => {});
    const i = firstPublished();
    const row = cells.row[i]!;
    const column = cells.col[i]!;
    expect(details.tokenOf(i)).toBeNull();
    let done = false;
    const ensured = loader.ensure(row, column).then(() => (done = true));
    expect(server.asked.map(({ bounds }) => bounds)).toEqual([
      blockBounds(Math.floor(row / REGION_BLOCK), Math.floor(column / REGION_BLOCK)),
    ]);
    // Asked again while on its way: the same request.
    void loader.ensure(row, column);
    expect(server.asked).toHaveLength(1);
    await settle();
    expect(done).toBe(false);
    server.asked[0]!.answer();
    await ensured;
    expect(details.tokenOf(i)).toBe(`token-${row}-${column}`);
    expect(details.pieceOf(i)).toEqual({ title: `Piece ${row}/${column}`, artist: 'Ada' });
    // Held: nothing more to ask.
    await loader.ensure(row, column);
    expect(server.asked).toHaveLength(1);
    loader.destroy();
  });

  it('leaves a block that failed alone for five seconds, then asks for it again', async () => {
    const details = new CellDetails(cells);
    const server = regionServer();
    const loader = new RegionLoader(details, server.fetchRegion, () => {});
    loader.wantView(0, 10, 0, 10);
    vi.advanceTimersByTime(SETTLE_MS);
    server.asked[0]!.refuse();
    await settle();
    expect(loader.loading).toBe(0);
    // Four seconds after the failure, the view wants it again: not yet.
    await vi.advanceTimersByTimeAsync(4_000 - SETTLE_MS);
    loader.wantView(0, 10, 0, 10);
    vi.advanceTimersByTime(SETTLE_MS);
    expect(server.asked).toHaveLength(1);
    // Five seconds after: asked again.
    await vi.advanceTimersByTimeAsync(1_000 - SETTLE_MS);
    loader.wantView(0, 10, 0, 10);
    vi.advanceTimersByTime(SETTLE_MS);
    expect(server.asked).toHaveLength(2);
    loader.destroy();
  });

  it('once destroyed, aborts its requests, takes in no late answer and asks for nothing more', async () => {
    const details = new CellDetails(cells);
    const server = regionServer();
    const loaded: number[] = [];
    const loader = new RegionLoader(details, server.fetchRegion, (key) => loaded.push(key));
    loader.wantView(10, 70, -20, 40);
    vi.advanceTimersByTime(SETTLE_MS);
    loader.wantView(100, 110, 0, 10);
    loader.destroy();
    expect(server.asked.every(({ signal }) => signal.aborted)).toBe(true);
    server.asked[0]!.answer();
    await settle();
    vi.advanceTimersByTime(SETTLE_MS);
    expect(loaded).toEqual([]);
    expect(details.blockCount).toBe(0);
    expect(server.asked).toHaveLength(4);
  });
});

function keyOf(bounds: RegionBounds): number {
  const [blockRow, blockColumn] = blockOfBounds(bounds);
  return blockKey(blockRow!, blockColumn!);
}

function firstPublished(): number {
  for (let i = 0; i < cells.count; i++) if (cells.status[i] === CellStatus.Published && cells.row[i]! > 40) return i;
  throw new Error('The synthetic tree has no published piece.');
}
