/**
 * What the canvas knows about each cell beyond its position, status and colour: its token and thumbnail, and a
 * published piece's title and artist (decision 010, details by region).
 */
import { positionKey } from '#shared/tree/geometry.ts';
import { REGION_BLOCK, blockOf, regionCells, type TreeRegionWire } from '#shared/tree/region.ts';
import type { TreeChangesWire } from '#shared/tree/changes.ts';
import type { TreeCells } from '#shared/tree/snapshot.ts';

/** Region blocks kept at most (each up to REGION_BLOCK² cells). */
const MAX_BLOCKS = 160;

interface Block {
  /** Index into the block's lists for each position of the block, -1 where there is no cell. */
  slot: Int16Array;
  token: string[];
  thumb: (string | null)[];
  title: (string | null)[];
  artist: (string | null)[];
}

export function blockKey(blockRow: number, blockColumn: number): number {
  return positionKey(blockRow, blockColumn);
}

/**
 * Tokens and thumbnails come from the snapshot when the tree is small, otherwise from region answers near the view;
 * titles and artists always from region answers (the snapshot never carries them). Region blocks are kept in a small
 * LRU, so memory follows where the visitor has looked, not the tree's size.
 */
export class CellDetails {
  private readonly blocks = new Map<number, Block>();
  /** Tokens and thumbnails that live changes brought, by cell index (a large tree's snapshot has none). */
  private readonly changed = new Map<number, { token: string; thumb: string }>();
  /** Blocks holding a changed cell: still used, but asked for again when next wanted (titles may have changed). */
  private readonly stale = new Set<number>();
  /** Bumped whenever a block arrives, so chunks know to look again. */
  version = 0;

  constructor(private cells: TreeCells) {}

  /** The cells object changed (cells were added: its arrays grew). */
  setCells(cells: TreeCells): void {
    this.cells = cells;
  }

  /**
   * Cells changed (shared/tree/changes.ts): a small tree's arrays already hold their tokens and thumbnails; a large
   * tree keeps them here and in its loaded blocks. Their titles are forgotten, and their blocks loaded again when
   * next wanted (the rest of a block stays in use meanwhile, so no thumbnail blinks).
   */
  noteChanged(changes: TreeChangesWire): void {
    for (let k = 0; k < changes.count; k++) {
      const row = changes.row[k]!;
      const column = changes.col[k]!;
      const i = this.cells.indexOf.at(row, column);
      if (!this.cells.token && i >= 0 && changes.cell[k])
        this.changed.set(i, { token: changes.cell[k]!, thumb: changes.thumb[k]! });
      const { blockRow, blockColumn } = blockOf(row, column);
      const key = blockKey(blockRow, blockColumn);
      const block = this.blocks.get(key);
      if (!block) continue;
      this.stale.add(key);
      const at = block.slot[(row - blockRow * REGION_BLOCK) * REGION_BLOCK + (column - blockColumn * REGION_BLOCK)]!;
      if (at < 0) continue;
      block.token[at] = changes.cell[k]!;
      block.thumb[at] = changes.thumb[k] || null;
      block.title[at] = null;
      block.artist[at] = null;
    }
    this.version++;
  }

  /** Whether the snapshot itself carries tokens and thumbnails (small trees). */
  get inSnapshot(): boolean {
    return this.cells.token !== null;
  }

  get blockCount(): number {
    return this.blocks.size;
  }

  hasBlock(key: number): boolean {
    const block = this.blocks.get(key);
    if (!block || this.stale.has(key)) return false;
    // Touch it: recently wanted blocks stay.
    this.blocks.delete(key);
    this.blocks.set(key, block);
    return true;
  }

  /** Takes in one region answer (an aligned block); returns its block key. */
  addRegion(wire: TreeRegionWire): number {
    const { blockRow, blockColumn } = blockOf(wire.row0, wire.col0);
    const key = blockKey(blockRow, blockColumn);
    const slot = new Int16Array(REGION_BLOCK * REGION_BLOCK).fill(-1);
    const block: Block = { slot, token: [], thumb: [], title: [], artist: [] };
    for (const cell of regionCells(wire)) {
      const r = cell.row - blockRow * REGION_BLOCK;
      const c = cell.column - blockColumn * REGION_BLOCK;
      if (r < 0 || c < 0 || r >= REGION_BLOCK || c >= REGION_BLOCK) continue;
      slot[r * REGION_BLOCK + c] = block.token.length;
      block.token.push(cell.token);
      block.thumb.push(cell.thumb);
      block.title.push(cell.title);
      block.artist.push(cell.artist);
    }
    this.blocks.delete(key);
    this.blocks.set(key, block);
    this.stale.delete(key);
    while (this.blocks.size > MAX_BLOCKS) {
      const oldest = this.blocks.keys().next().value!;
      this.blocks.delete(oldest);
      this.stale.delete(oldest);
    }
    this.version++;
    return key;
  }

  private lookup(i: number): { block: Block; at: number } | null {
    const row = this.cells.row[i]!;
    const column = this.cells.col[i]!;
    const { blockRow, blockColumn } = blockOf(row, column);
    const block = this.blocks.get(blockKey(blockRow, blockColumn));
    if (!block) return null;
    const at = block.slot[(row - blockRow * REGION_BLOCK) * REGION_BLOCK + (column - blockColumn * REGION_BLOCK)]!;
    return at < 0 ? null : { block, at };
  }

  tokenOf(i: number): string | null {
    if (this.cells.token) return this.cells.token[i] || null;
    const changed = this.changed.get(i);
    if (changed) return changed.token;
    const found = this.lookup(i);
    return found ? found.block.token[found.at]! : null;
  }

  thumbOf(i: number): string | null {
    if (this.cells.thumb) return this.cells.thumb[i] || null;
    const changed = this.changed.get(i);
    if (changed) return changed.thumb || null;
    const found = this.lookup(i);
    return found ? found.block.thumb[found.at]! : null;
  }

  /** Title and artist of a published piece, once its region has been loaded. */
  pieceOf(i: number): { title: string; artist: string } | null {
    const found = this.lookup(i);
    const title = found?.block.title[found.at];
    return found && title ? { title, artist: found.block.artist[found.at] ?? '' } : null;
  }

  /** Whether the region holding cell i has been loaded (its title, if any, is then known). */
  regionLoadedFor(i: number): boolean {
    const { blockRow, blockColumn } = blockOf(this.cells.row[i]!, this.cells.col[i]!);
    const key = blockKey(blockRow, blockColumn);
    return this.blocks.has(key) && !this.stale.has(key);
  }
}
