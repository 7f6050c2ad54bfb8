import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import {
  ARTWORK_FAMILY_COUNT,
  artworkSvg,
  familyOf,
  mulberry32,
  renderArtwork,
  titleFor,
} from '#server/seed/art-generator.ts';

describe('the artwork generator', () => {
  it('gives 30 seeds 30 different pictures', () => {
    const svgs = new Set(Array.from({ length: 30 }, (_, seed) => artworkSvg(seed)));
    expect(svgs.size).toBe(30);
  });

  it('draws the same picture for the same seed, and a different study for another variant', () => {
    expect(artworkSvg(1234)).toBe(artworkSvg(1234));
    expect(artworkSvg(1234, 800, 1)).not.toBe(artworkSvg(1234));
  });

  it('walks consecutive seeds through every composition family', () => {
    const families = new Set(Array.from({ length: ARTWORK_FAMILY_COUNT }, (_, i) => familyOf(500 + i).name));
    expect(families.size).toBe(ARTWORK_FAMILY_COUNT);
    expect(ARTWORK_FAMILY_COUNT).toBeGreaterThanOrEqual(6);
  });

  it('renders valid PNGs of the requested size', async () => {
    for (let seed = 0; seed < 30; seed++) {
      const size = seed % 3 === 0 ? 800 : 240;
      const png = await renderArtwork(seed, size);
      const metadata = await sharp(png).metadata();
      expect(metadata.format).toBe('png');
      expect(metadata.width).toBe(size);
      expect(metadata.height).toBe(size);
    }
  });

  it('makes a title for every seed, the same each time, and many different ones', () => {
    const titles = Array.from({ length: 200 }, (_, seed) => titleFor(seed));
    for (const title of titles) expect(title.trim().length).toBeGreaterThan(3);
    expect(titleFor(77)).toBe(titleFor(77));
    expect(new Set(titles).size).toBeGreaterThan(150);
  });

  it('has a deterministic random source', () => {
    const a = mulberry32(9);
    const b = mulberry32(9);
    const values = Array.from({ length: 5 }, () => a());
    expect(values).toEqual(Array.from({ length: 5 }, () => b()));
    for (const value of values) {
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThan(1);
    }
  });
});

describe('seeded titles read as English', () => {
  it('use "an" before a vowel and "a" before a consonant, over 5,000 titles', () => {
    const titles = Array.from({ length: 5000 }, (_, seed) => titleFor(seed));
    expect(titles.filter((title) => /\ba [AEIOU]/.test(title))).toEqual([]);
    expect(titles.filter((title) => /\ban [^AEIOU]/.test(title))).toEqual([]);
    expect(titles.some((title) => /\ban [AEIOU]/.test(title))).toBe(true);
  });
});
