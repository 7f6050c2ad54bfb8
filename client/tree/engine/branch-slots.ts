/**
 * The branch slots of a tree on the canvas, kept up to date as cells change (decision 023): a change at (r, c) can only
 * alter the slot rule's answer in its 3 × 3 neighbourhood, so only those nine positions are asked again.
 */
import { branchSlotRefusal, positionKey, type CellGrid, type TreeSettings } from '#shared/tree/geometry.ts';
import type { Position } from './focus.ts';

export interface SlotChange {
  index: number;
  appeared: boolean;
}

/**
 * Each position that was ever a slot keeps one index in `positions` (chunks refer to slots by index), so the list
 * never needs renumbering; `alive` says which are slots now.
 */
export class BranchSlots {
  /** Every position that is or was a slot; chunk entries hold indices into it. */
  readonly positions: Position[] = [];
  private readonly indexByKey = new Map<number, number>();
  private readonly alive = new Set<number>();
  private sorted: Position[] | null = null;

  /**
   * `followsRule` false: the tree has no slots, whatever its cells do (the growth replay's past, where whether a
   * position was free is not known).
   */
  constructor(
    initial: readonly Position[],
    private readonly followsRule = true,
  ) {
    for (const slot of initial) this.add(slot.row, slot.column);
  }

  get count(): number {
    return this.alive.size;
  }

  has(row: number, column: number): boolean {
    const index = this.indexByKey.get(positionKey(row, column));
    return index !== undefined && this.alive.has(index);
  }

  isAlive(index: number): boolean {
    return this.alive.has(index);
  }

  /** The slots now, in row-then-column order (found again only after a change). */
  list(): Position[] {
    if (!this.sorted) {
      const found: Position[] = [];
      for (const index of this.alive) found.push(this.positions[index]!);
      this.sorted = found.sort((a, b) => a.row - b.row || a.column - b.column);
    }
    return this.sorted;
  }

  /**
   * Asks the slot rule again at the nine positions round (row, column); answers the slots that came or went. `seen`
   * holds the positions a batch already asked about (neighbouring changes share most of their neighbourhoods).
   */
  recheckAround(
    settings: TreeSettings,
    grid: CellGrid,
    row: number,
    column: number,
    into: SlotChange[],
    seen: Set<number>,
  ): void {
    if (!this.followsRule) return;
    for (let r = row - 1; r <= row + 1; r++) {
      for (let c = column - 1; c <= column + 1; c++) {
        const key = positionKey(r, c);
        if (seen.has(key)) continue;
        seen.add(key);
        const slot = branchSlotRefusal(settings, grid, r, c) === null;
        if (slot === this.has(r, c)) continue;
        into.push({ index: slot ? this.add(r, c) : this.remove(r, c), appeared: slot });
      }
    }
  }

  private add(row: number, column: number): number {
    const key = positionKey(row, column);
    let index = this.indexByKey.get(key);
    if (index === undefined) {
      index = this.positions.length;
      this.positions.push({ row, column });
      this.indexByKey.set(key, index);
    }
    this.alive.add(index);
    this.sorted = null;
    return index;
  }

  private remove(row: number, column: number): number {
    const index = this.indexByKey.get(positionKey(row, column))!;
    this.alive.delete(index);
    this.sorted = null;
    return index;
  }
}
