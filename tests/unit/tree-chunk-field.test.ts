/**
 * The chunks of a tree on the canvas (client/tree/engine/chunk-field.ts), built of real PixiJS containers: culling
 * by chunk against the view, a few chunks built per frame nearest the middle first (a costly one a part a frame),
 * chunks out of view hidden and, far out of it, destroyed; changed chunks drawn again in place, before new ones. The
 * frame's clock is held still (fake `performance`), so each frame builds exactly its budget of three.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Container } from 'pixi.js';
import { CellStatus } from '#shared/domain.ts';
import type { Rect } from '#shared/tree/camera.ts';
import type { TreeCells } from '#shared/tree/snapshot.ts';
import { CellDetails } from '#client/tree/engine/cell-details.ts';
import { buildChunkIndex, chunkKey, CHUNK_WORLD } from '#client/tree/engine/chunk-index.ts';
import { BUILD_COST_BUDGET, ChunkField } from '#client/tree/engine/chunk-field.ts';
import { drawingCost } from '#client/tree/engine/chunk-view.ts';
import { drawingCostOf } from '#shared/tree/cell-look.ts';
import { TexturePool, ThumbnailCache } from '#client/tree/engine/thumbnails.ts';
import { syntheticTreeCells } from '#tests/helpers/synthetic-tree-cells.ts';

// A tall tree three chunks wide (chunk columns -1, 0 and 1) and 37 chunks high.
const { cells: tree } = syntheticTreeCells(20_000);

function field(cells: TreeCells = tree) {
  const index = buildChunkIndex(cells);
  const thumbnails = new ThumbnailCache(new TexturePool({ load: () => new Promise(() => {}), unload: async () => {} }));
  const chunks = new ChunkField(cells, [], index, new CellDetails(cells), thumbnails, () => {});
  const labels = (visible: boolean) =>
    chunks.layer.children.filter((chunk) => chunk.visible === visible).map((chunk) => chunk.label);
  return { chunks, index, labels, shown: () => labels(true).sort(), hidden: () => labels(false).sort() };
}

/** A view of the chunk rows `rowFrom` to `rowTo` (their inner parts) across the whole tree's width. */
const rows = (rowFrom: number, rowTo: number): Rect => ({
  x: -CHUNK_WORLD + 500,
  y: rowFrom * CHUNK_WORLD + 500,
  width: 3 * CHUNK_WORLD - 1000,
  height: (rowTo - rowFrom + 1) * CHUNK_WORLD - 1000,
});
const labelsOf = (rowFrom: number, rowTo: number) => {
  const out: string[] = [];
  for (let row = rowFrom; row <= rowTo; row++) for (const column of [-1, 0, 1]) out.push(`chunk ${row},${column}`);
  return out.sort();
};

function buildAll(chunks: ChunkField): number {
  let frames = 0;
  while (chunks.waiting) {
    chunks.buildSome();
    frames++;
  }
  return frames;
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the chunk field', () => {
  it('builds nothing while culling: the chunks the view touches wait, and come three a frame, middle first', () => {
    const { chunks, index, shown } = field();
    chunks.cull(rows(10, 12), false);
    expect(chunks.waiting).toBe(true);
    expect(chunks.builtCount).toBe(0);
    chunks.buildSome();
    expect(chunks.builtCount).toBe(3);
    // The middle chunk, then two of the four beside it (the others wait for the next frame).
    expect(shown()).toContain('chunk 11,0');
    expect(
      shown().every((label) =>
        ['chunk 11,0', 'chunk 10,0', 'chunk 12,0', 'chunk 11,-1', 'chunk 11,1'].includes(label!),
      ),
    ).toBe(true);
    expect(buildAll(chunks)).toBe(2);
    expect(shown()).toEqual(labelsOf(10, 12));
    expect(chunks.shownCount).toBe(9);
    let squares = 0;
    for (let row = 10; row <= 12; row++)
      for (const column of [-1, 0, 1]) squares += index.get(chunkKey(row, column))!.cells.length;
    expect(chunks.squaresShown).toBe(squares);
  });

  it('draws a chunk costlier than a frame a share a frame, in parts shown as they come, and one chunk at a time', () => {
    // Reserved squares, hatched and marked: a full chunk of them is several frames' drawing budget.
    const reserved = { ...tree, status: tree.status.slice().fill(CellStatus.Reserved) };
    const { chunks, index } = field(reserved);
    const middle = index.get(chunkKey(11, 0))!;
    const perFrame = Math.floor(BUILD_COST_BUDGET / drawingCostOf(CellStatus.Reserved));
    expect(drawingCost(middle, reserved)).toBeGreaterThan(2 * BUILD_COST_BUDGET);
    chunks.cull(rows(10, 12), false);
    const partsOf = (label: string) =>
      (chunks.layer.children.find((chunk) => chunk.label === label)?.getChildByLabel('squares') as Container | null)
        ?.children.length ?? 0;
    const frames = Math.ceil(middle.cells.length / perFrame);
    for (let frame = 1; frame < frames; frame++) {
      chunks.buildSome();
      // Not built yet, but on screen as far as it is drawn: one more part a frame, nothing else started.
      expect(chunks.builtCount).toBe(0);
      expect(partsOf('chunk 11,0')).toBe(frame);
      expect(chunks.layer.children).toHaveLength(1);
    }
    chunks.buildSome();
    expect(chunks.builtCount).toBe(1);
    expect(partsOf('chunk 11,0')).toBe(frames);
    expect(chunks.squaresShown).toBe(middle.cells.length);
  });

  it('gives up a chunk drawn in parts when the view leaves it, and draws a changed one again whole before showing it', () => {
    const reserved = { ...tree, status: tree.status.slice().fill(CellStatus.Reserved) };
    const { chunks, shown } = field(reserved);
    chunks.cull(rows(11, 11), false);
    chunks.buildSome();
    expect(shown()).toEqual(['chunk 11,0']);
    chunks.cull(rows(20, 20), false);
    expect(chunks.layer.children.map((chunk) => chunk.label)).not.toContain('chunk 11,0');
    buildAll(chunks);
    expect(shown()).toEqual(labelsOf(20, 20));
    // A change to a whole chunk on screen: its old picture stays, alone, until the new one is whole.
    const before = chunks.layer.children.find((chunk) => chunk.label === 'chunk 20,0')!;
    chunks.invalidate([chunkKey(20, 0)]);
    chunks.cull(rows(20, 20), false);
    chunks.buildSome();
    expect(chunks.layer.children.filter((chunk) => chunk.label === 'chunk 20,0')).toEqual([before]);
    buildAll(chunks);
    const after = chunks.layer.children.filter((chunk) => chunk.label === 'chunk 20,0');
    expect(after).toHaveLength(1);
    expect(after[0]).not.toBe(before);
    expect(before.destroyed).toBe(true);
  });

  it('hides chunks the view left without destroying them, and shows them again without building', () => {
    const { chunks, hidden, shown } = field();
    chunks.cull(rows(10, 10), false);
    buildAll(chunks);
    chunks.cull(rows(11, 11), false);
    expect(hidden()).toEqual(labelsOf(10, 10));
    buildAll(chunks);
    expect(shown()).toEqual(labelsOf(11, 11));
    expect(chunks.builtCount).toBe(6);
    chunks.cull(rows(10, 10), false);
    expect(chunks.waiting).toBe(false);
    expect(shown()).toEqual(labelsOf(10, 10));
  });

  it('shows a chunk early when the view comes within a quarter chunk of it', () => {
    const { chunks, shown } = field();
    const view = rows(10, 10);
    // 500 world pixels clear of the next chunk row: a quarter chunk is 440.
    chunks.cull({ ...view, height: CHUNK_WORLD - 1000 }, false);
    buildAll(chunks);
    expect(shown()).toEqual(labelsOf(10, 10));
    // 400 clear of it: the next row shows.
    chunks.cull({ ...view, height: CHUNK_WORLD - 900 }, false);
    buildAll(chunks);
    expect(shown()).toEqual(labelsOf(10, 11));
  });

  it('destroys the chunks more than two chunks away from the view', () => {
    const { chunks, labels } = field();
    chunks.cull(rows(10, 10), false);
    buildAll(chunks);
    chunks.cull(rows(12, 12), false);
    buildAll(chunks);
    expect(chunks.builtCount).toBe(6);
    chunks.cull(rows(13, 13), false);
    buildAll(chunks);
    expect(chunks.builtCount).toBe(6);
    expect([...labels(true), ...labels(false)].sort()).toEqual([...labelsOf(12, 13)].sort());
  });

  it('draws a changed chunk on screen again in place, before any new one; drops a changed hidden one', () => {
    const { chunks, hidden, shown } = field();
    chunks.cull(rows(10, 10), false);
    buildAll(chunks);
    chunks.cull(rows(11, 11), false);
    buildAll(chunks);
    const before = chunks.layer.children.find((chunk) => chunk.label === 'chunk 11,0') as Container;
    // The view grows: six new chunks wait to be built.
    chunks.cull(rows(11, 13), false);
    chunks.invalidate([chunkKey(11, 0), chunkKey(10, 0)]);
    // The hidden one is gone; the one on screen stays as it was until its rebuild.
    expect(hidden()).toEqual(['chunk 10,-1', 'chunk 10,1']);
    expect(shown()).toEqual(labelsOf(11, 11));
    // The changed one goes first: the new chunks wait behind it.
    chunks.buildSome();
    const after = chunks.layer.children.find((chunk) => chunk.label === 'chunk 11,0') as Container;
    expect(after).not.toBe(before);
    expect(before.destroyed).toBe(true);
    expect(chunks.layer.children.filter((chunk) => chunk.label === 'chunk 11,0')).toHaveLength(1);
    buildAll(chunks);
    expect(shown()).toEqual(labelsOf(11, 13));
    expect(chunks.shownCount).toBe(9);
  });

  it('gives every chunk back when the tree is set aside, and builds again when shown', () => {
    const { chunks } = field();
    chunks.cull(rows(10, 11), false);
    buildAll(chunks);
    chunks.releaseAll();
    expect(chunks.builtCount).toBe(0);
    expect(chunks.shownCount).toBe(0);
    expect(chunks.waiting).toBe(false);
    expect(chunks.layer.children).toEqual([]);
    chunks.cull(rows(10, 11), false);
    expect(buildAll(chunks)).toBe(2);
  });
});
