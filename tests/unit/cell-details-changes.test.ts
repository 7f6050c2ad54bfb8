/**
 * A large tree's details after live changes: a changed cell's token and thumbnail come from the change,
 * its title is forgotten, and its region block is asked for again while the rest of the block stays in use.
 */
import { describe, expect, it } from 'vitest';
import { CellStatus } from '#shared/domain.ts';
import { encodeChanges } from '#shared/tree/changes.ts';
import { blockOf } from '#shared/tree/region.ts';
import { blockKey, CellDetails } from '#client/tree/engine/cell-details.ts';
import { syntheticTreeCells } from '#tests/helpers/synthetic-tree-cells.ts';

describe('details after live changes', () => {
  it('takes the change’s token and thumbnail, forgets the title, and keeps the rest of the block', () => {
    const { cells } = syntheticTreeCells(5_000);
    const details = new CellDetails(cells);
    const [a, b] = [cells.indexOf.at(40, 1), cells.indexOf.at(40, 2)];
    details.addRegion({
      version: 1,
      row0: 32,
      row1: 63,
      col0: 0,
      col1: 31,
      at: [8 * 32 + 1, 8 * 32 + 2],
      token: ['old-a', 'old-b'],
      thumb: ['/a.webp', '/b.webp'],
      title: ['Old title', 'Kept title'],
      artist: ['Ann', 'Bo'],
    });
    const key = blockKey(blockOf(40, 1).blockRow, blockOf(40, 1).blockColumn);
    expect(details.hasBlock(key)).toBe(true);
    details.noteChanged(
      encodeChanges(1, 2, [
        {
          row: 40,
          column: 1,
          status: CellStatus.Published,
          type: 1,
          color: 0x123456,
          token: 'new-a',
          thumb: '/new-a.webp',
        },
      ]),
    );
    expect(details.tokenOf(a)).toBe('new-a');
    expect(details.thumbOf(a)).toBe('/new-a.webp');
    expect(details.pieceOf(a)).toBeNull();
    expect(details.pieceOf(b)).toEqual({ title: 'Kept title', artist: 'Bo' });
    expect(details.thumbOf(b)).toBe('/b.webp');
    // Asked for again when next wanted.
    expect(details.hasBlock(key)).toBe(false);
    expect(details.regionLoadedFor(a)).toBe(false);
  });
});
