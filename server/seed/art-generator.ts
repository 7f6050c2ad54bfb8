/**
 * Generated abstract artworks for the demo tree: a seed picks a composition family, a palette and every shape, so
 * the same seed always gives the same picture. Pieces are SVG, rendered to PNG by sharp.
 */
import sharp from 'sharp';
import { ARTWORK_FAMILY_COUNT, FAMILIES, VIEW, type ArtworkFamily } from './art-families.ts';
import { hashSeed, mulberry32, paletteFor, Rng } from './palette.ts';

export { ARTWORK_FAMILY_COUNT, Rng, mulberry32, type ArtworkFamily };

function familyIndex(seed: number): number {
  // Consecutive seeds walk through the families, so neighbouring pieces never look alike.
  const n = FAMILIES.length;
  return ((Math.trunc(seed) % n) + n) % n;
}

/** The composition family of a seed and a phrase describing its motif, for descriptions. */
export function familyOf(seed: number): { name: ArtworkFamily; motif: string } {
  const family = FAMILIES[familyIndex(seed)]!;
  return { name: family.name, motif: family.motif };
}

/**
 * The SVG of one artwork. `variant` 0 is the piece itself; other variants are studies in the same family and
 * palette with a different layout (the extra pictures of a piece).
 */
export function artworkSvg(seed: number, size = 800, variant = 0): string {
  const palette = paletteFor(seed);
  const rng = new Rng(hashSeed(seed, variant, 0x51ed));
  const defs: string[] = [];
  const body = FAMILIES[familyIndex(seed)]!.draw({ rng, palette, defs });
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${VIEW} ${VIEW}">` +
    (defs.length ? `<defs>${defs.join('')}</defs>` : '') +
    `<g>${body}</g></svg>`
  );
}

const grainBySize = new Map<number, Buffer>();

/**
 * A fine grey-and-alpha speckle laid over every piece, so flat vector colour reads as ink on paper. SVG's own
 * turbulence filter would do it too, but costs ten times as much to render.
 */
function grainOf(size: number): Buffer {
  let grain = grainBySize.get(size);
  if (!grain) {
    const random = mulberry32(0x6a11);
    grain = Buffer.alloc(size * size * 2);
    for (let i = 0; i < size * size; i++) {
      grain[i * 2] = random() < 0.5 ? 0 : 255;
      grain[i * 2 + 1] = Math.floor(random() * 9);
    }
    if (grainBySize.size > 4) grainBySize.clear();
    grainBySize.set(size, grain);
  }
  return grain;
}

/**
 * Renders one artwork to a square PNG of `size` pixels, with a paper grain unless `grain` is false; as a JPEG with
 * `jpeg`, as a camera would give a large picture (a tenth of the PNG's bytes, and decoded faster).
 */
export async function renderArtwork(
  seed: number,
  size = 800,
  variant = 0,
  options: { grain?: boolean; jpeg?: boolean } = {},
): Promise<Buffer> {
  const image = sharp(Buffer.from(artworkSvg(seed, size, variant)));
  if (options.grain !== false)
    image.composite([{ input: grainOf(size), raw: { width: size, height: size, channels: 2 }, blend: 'over' }]);
  if (options.jpeg) return image.jpeg({ quality: 90 }).toBuffer();
  // Light compression: the PNG is only a hand-over to the image pipeline, which re-encodes it.
  return image.png({ compressionLevel: 1 }).toBuffer();
}

// ---------------------------------------------------------------------------------------------------------------
// Titles.

const ADJECTIVES = [
  'Quiet',
  'Burning',
  'Folded',
  'Distant',
  'Borrowed',
  'Restless',
  'Salted',
  'Hollow',
  'Gilded',
  'Slow',
  'Weightless',
  'Unfinished',
  'Sunken',
  'Tender',
  'Northern',
  'Copper',
  'Patient',
  'Broken',
  'Half-Remembered',
  'Small',
  'Open',
  'Evening',
  'Paper',
  'Wild',
  'Inland',
  'Silent',
  'Second',
  'Wandering',
  'Midsummer',
  'Lantern',
];
const NOUNS = [
  'Harbour',
  'Orchard',
  'Signal',
  'Threshold',
  'Meridian',
  'Garden',
  'Tide',
  'Vessel',
  'Horizon',
  'Chorus',
  'Weather',
  'Lantern',
  'Archive',
  'Field',
  'Window',
  'River',
  'Ember',
  'Station',
  'Island',
  'Bridge',
  'Staircase',
  'Morning',
  'Constellation',
  'Quarry',
  'Pasture',
  'Kite',
  'Compass',
  'Lighthouse',
  'Mirror',
  'Shoreline',
];
const PLURALS = [
  'Birds',
  'Bells',
  'Rooms',
  'Rivers',
  'Lamps',
  'Letters',
  'Stones',
  'Voices',
  'Summers',
  'Windows',
  'Tides',
  'Orchards',
  'Hours',
  'Maps',
  'Flags',
];
const COLOURS = [
  'Ochre',
  'Cobalt',
  'Vermilion',
  'Indigo',
  'Saffron',
  'Umber',
  'Teal',
  'Rose',
  'Slate',
  'Amber',
  'Viridian',
  'Madder',
];
const FORMS = ['Composition', 'Study', 'Nocturne', 'Variation', 'Fugue', 'Interior', 'Score', 'Field Notes'];
const TIMES = [
  'Late September',
  'After Rain',
  'Before Noon',
  'First Frost',
  'Low Tide',
  'Blue Hour',
  'Midwinter',
  'Dusk',
];
const VERBS = ['Bends', 'Waits', 'Turns', 'Listens', 'Returns', 'Sleeps', 'Opens', 'Burns'];

/** An evocative title for a seed, always the same for the same seed. */
/** "a" or "an" before a word, by its first sound as far as its spelling tells ("an Unfinished", "a Half-Remembered"). */
export function withArticle(word: string): string {
  return `${/^[aeiou]/i.test(word) ? 'an' : 'a'} ${word}`;
}

export function titleFor(seed: number): string {
  const rng = new Rng(hashSeed(seed, 0x7171e));
  switch (rng.int(0, 7)) {
    case 0:
      return `${rng.pick(ADJECTIVES)} ${rng.pick(NOUNS)}`;
    case 1:
      return `The ${rng.pick(NOUNS)} of ${rng.pick(ADJECTIVES)} ${rng.pick(PLURALS)}`;
    case 2:
      return `${rng.pick(FORMS)} in ${rng.pick(COLOURS)}`;
    case 3:
      return `${rng.pick(NOUNS)}, ${rng.pick(TIMES)}`;
    case 4:
      return `${rng.pick(FORMS)} No. ${rng.int(2, 48)}`;
    case 5:
      return `Where the ${rng.pick(NOUNS)} ${rng.pick(VERBS)}`;
    case 6:
      return `${rng.pick(COLOURS)} ${rng.pick(NOUNS)} (${rng.pick(TIMES)})`;
    default:
      return `${rng.pick(PLURALS)} for ${withArticle(rng.pick(ADJECTIVES))} ${rng.pick(NOUNS)}`;
  }
}
