/** The demo's planned pieces (server/seed/demo-pieces.ts), over many seeds: what the seed test checks of a few. */
import { describe, expect, it } from 'vitest';
import { planPiece } from '#server/seed/demo-pieces.ts';
import { Rng } from '#server/seed/palette.ts';

describe('a planned demo piece', () => {
  it('has two to six different keywords and a medium, whatever the seed', () => {
    const faults: string[] = [];
    for (let seed = 1; seed <= 5_000; seed++) {
      const piece = planPiece(new Rng(seed), seed, 2026);
      const distinct = new Set(piece.keywords).size;
      if (distinct !== piece.keywords.length || distinct < 2 || distinct > 6 || piece.medium.length < 1)
        faults.push(`seed ${seed}: keywords ${piece.keywords.join(', ')}; medium ${piece.medium.join(', ')}`);
    }
    expect(faults.slice(0, 5)).toEqual([]);
  });
});
