/** The demo's pieces: what each one says about itself (medium, size, keywords, description), planned from a seed. */
import {
  ART_LIMITS,
  CATEGORY_OPTIONS,
  MATERIAL_OPTIONS,
  MEDIUM_OPTIONS,
  STYLE_OPTIONS,
  SUBJECT_OPTIONS,
  type AiUse,
} from '#shared/constants.ts';
import { familyOf, titleFor, type ArtworkFamily, type Rng } from './art-generator.ts';

export interface PlannedPiece {
  seed: number;
  family: ArtworkFamily;
  title: string;
  year: number;
  category: string;
  subject: string;
  style: string;
  medium: string[];
  materials: string[];
  keywords: string[];
  description: string;
  width: string;
  height: string;
  depth: string;
  units: 'in' | 'cm';
  noSize: boolean;
  aiUse: AiUse;
  /** Extra pictures after the main one: a detail of it, or a study in the same series. */
  extras: ('detail' | 'study')[];
}

interface MediumRecipe {
  category: (typeof CATEGORY_OPTIONS)[number];
  weight: number;
  media: (typeof MEDIUM_OPTIONS)[number][];
  materials: (typeof MATERIAL_OPTIONS)[number][];
  /** How many media a piece of this kind names. */
  mediumCount: [number, number];
  sized: 'flat' | 'deep' | 'none';
}

const RECIPES: MediumRecipe[] = [
  {
    category: 'Painting',
    weight: 34,
    media: ['Acrylic', 'Oil', 'Gouache', 'Watercolor', 'Tempera', 'Encaustic', 'Spray Paint'],
    materials: ['Canvas', 'Paper', 'Wood'],
    mediumCount: [1, 2],
    sized: 'flat',
  },
  {
    category: 'Digital',
    weight: 18,
    media: ['Digital'],
    materials: ['Not Applicable'],
    mediumCount: [1, 1],
    sized: 'none',
  },
  {
    category: 'Printmaking',
    weight: 10,
    media: ['Ink/Pen', 'Paper'],
    materials: ['Paper'],
    mediumCount: [1, 2],
    sized: 'flat',
  },
  {
    category: 'Mixed Media',
    weight: 12,
    media: ['Acrylic', 'Paper', 'Ink/Pen', 'Wax', 'Fabric', 'Graphite/Pencil', 'Spray Paint'],
    materials: ['Canvas', 'Paper', 'Wood', 'Plastic'],
    mediumCount: [2, 3],
    sized: 'flat',
  },
  {
    category: 'Drawing',
    weight: 8,
    media: ['Charcoal', 'Graphite/Pencil', 'Ink/Pen', 'Pastel'],
    materials: ['Paper'],
    mediumCount: [1, 2],
    sized: 'flat',
  },
  {
    category: 'Textile',
    weight: 6,
    media: ['Fabric'],
    materials: ['Soft (Cotton, yarn, etc)'],
    mediumCount: [1, 1],
    sized: 'flat',
  },
  {
    category: 'Ceramics',
    weight: 4,
    media: ['Clay', 'Enamel'],
    materials: ['Ceramic'],
    mediumCount: [1, 2],
    sized: 'deep',
  },
  {
    category: 'Sculpture',
    weight: 4,
    media: ['Metal', 'Wood', 'Stone'],
    materials: ['Steel', 'Bronze', 'Wood', 'Marble', 'Aluminum'],
    mediumCount: [1, 2],
    sized: 'deep',
  },
  {
    category: 'Photography',
    weight: 4,
    media: ['Photo'],
    materials: ['Paper', 'Aluminum'],
    mediumCount: [1, 1],
    sized: 'flat',
  },
];

const STYLES_BY_FAMILY: Record<ArtworkFamily, (typeof STYLE_OPTIONS)[number][]> = {
  orbits: ['Abstract', 'Modernism', 'Pop Art', 'Contemporary'],
  strata: ['Contemporary', 'Minimalism', 'Romanticism', 'Impressionism'],
  tiles: ['Art Deco', 'Modernism', 'Folk', 'Contemporary'],
  lights: ['Impressionism', 'Abstract', 'Contemporary', 'Abstract Expressionism'],
  tides: ['Pop Art', 'Art Nouveau', 'Contemporary', 'Abstract'],
  construction: ['Constructivism', 'Modernism', 'Futurism', 'Cubism'],
  radiance: ['Art Deco', 'Pop Art', 'Futurism', 'Street Art'],
  partition: ['Modernism', 'Minimalism', 'Abstract', 'Conceptual'],
  topography: ['Contemporary', 'Abstract', 'Surrealism', 'Minimalism'],
};

const SUBJECTS_BY_FAMILY: Record<ArtworkFamily, (typeof SUBJECT_OPTIONS)[number][]> = {
  orbits: ['Abstract'],
  strata: ['Landscape', 'Landscape', 'Nature'],
  tiles: ['Abstract', 'Still Life'],
  lights: ['Abstract', 'Genre/Historic'],
  tides: ['Seascape', 'Abstract'],
  construction: ['Abstract', 'Figure'],
  radiance: ['Abstract', 'Nature'],
  partition: ['Abstract', 'Still Life'],
  topography: ['Landscape', 'Nature', 'Abstract'],
};

const KEYWORDS_BY_FAMILY: Record<ArtworkFamily, string[]> = {
  orbits: ['circles', 'rings', 'target', 'rhythm', 'orbit'],
  strata: ['hills', 'horizon', 'sunset', 'distance', 'layers'],
  tiles: ['pattern', 'grid', 'geometry', 'tiles', 'repetition'],
  lights: ['bokeh', 'night', 'city lights', 'glow', 'blur'],
  tides: ['waves', 'water', 'stripes', 'movement', 'sea'],
  construction: ['constructivism', 'diagonal', 'balance', 'bars', 'tension'],
  radiance: ['sun', 'rays', 'optimism', 'radial', 'dawn'],
  partition: ['rectangles', 'structure', 'order', 'colour blocks', 'architecture'],
  topography: ['contours', 'maps', 'islands', 'terrain', 'memory'],
};
const COMMON_KEYWORDS = ['colour', 'abstract', 'geometry', 'calm', 'joy', 'home', 'seasons', 'light', 'memory', 'play'];

const PROCESS_SENTENCES: Record<string, string[]> = {
  Painting: [
    'Painted in thin layers over several weeks, letting each colour dry before the next.',
    'Built up slowly with a palette knife and soft brushes, then sanded back in places.',
    'Made in one long session and left almost untouched afterwards.',
  ],
  Digital: [
    'Drawn on a tablet with a limited palette and printed only on request.',
    'Composed as vector shapes, then rearranged many times until nothing could be removed.',
  ],
  Printmaking: [
    'Printed by hand from cut blocks, one colour at a time, in a small edition.',
    'A screen print in an edition of twenty, each pull slightly different.',
  ],
  'Mixed Media': [
    'Layered from cut paper, paint and wax, with pencil lines left visible on purpose.',
    'Collaged from old exhibition flyers, then painted over until only the edges show.',
  ],
  Drawing: [
    'Drawn slowly, with the paper turned often so no side is the top for long.',
    'Worked in soft pastel, smudged with the fingers and fixed between layers.',
  ],
  Textile: [
    'Stitched and appliquéd by hand from dyed cotton offcuts.',
    'Woven on a small floor loom from yarn dyed in the studio.',
  ],
  Ceramics: ['Glazed in several firings; the colours shifted a little in the kiln each time.'],
  Sculpture: [
    'Cut and welded from sheet metal, then painted in flat colour.',
    'Carved from reclaimed timber and painted by hand.',
  ],
  Photography: ['Photographed through coloured glass and printed without retouching.'],
};

const INTENT_SENTENCES = [
  'It is about the way a familiar place changes when you stop looking at it directly.',
  'I wanted the colours to argue a little and then make peace.',
  'The piece started as a sketch on a train and kept its speed.',
  'It is one of a series about the hours just before and after sunrise.',
  'I think of it as a map of a place that only exists in conversation.',
  'The shapes repeat the way a song returns to its chorus.',
  'It was made for my grandmother, who taught me to mix colours on a saucer.',
  'I kept asking what the smallest change was that would still change everything.',
  'The work is quiet at a distance and busy up close; both are true.',
  'It borrows the rhythm of the street outside my studio window.',
];

export const CONNECTION_SENTENCES = [
  (title: string) => `The colour at my edge carries on into “${title}”.`,
  (title: string) => `A line in this piece seems to continue in “${title}”.`,
  (title: string) => `Placed beside “${title}” because the two share a horizon.`,
  (title: string) => `Answers the rhythm of “${title}” with a slower one.`,
  (title: string) => `“${title}” and this piece were both made in the same cold month.`,
  (title: string) => `The warm corner here leans towards “${title}”.`,
  (title: string) => `I chose this square to sit next to “${title}”, whose shapes I admire.`,
];

export function pickWeighted<T extends { weight: number }>(rng: Rng, items: readonly T[]): T {
  let total = 0;
  for (const item of items) total += item.weight;
  let roll = rng.range(0, total);
  for (const item of items) {
    roll -= item.weight;
    if (roll <= 0) return item;
  }
  return items[items.length - 1]!;
}

export function pickSome<T>(rng: Rng, items: readonly T[], min: number, max: number): T[] {
  return rng.shuffle(items).slice(0, Math.min(items.length, rng.int(min, max)));
}

export function planPiece(rng: Rng, seed: number, currentYear: number): PlannedPiece {
  const { name: family, motif } = familyOf(seed);
  const recipe = pickWeighted(rng, RECIPES);
  const ageRoll = rng.float();
  const age = ageRoll < 0.8 ? rng.int(0, 8) : ageRoll < 0.95 ? rng.int(9, 40) : rng.int(41, ART_LIMITS.yearsBack - 1);
  const units = rng.chance(0.6) ? 'in' : 'cm';
  const flatSizes =
    units === 'in' ? [8, 10, 12, 16, 18, 20, 24, 30, 36, 40, 48] : [20, 25, 30, 40, 50, 60, 70, 80, 100, 120];
  let width = '';
  let height = '';
  let depth = '';
  if (recipe.sized !== 'none') {
    const side = rng.pick(flatSizes);
    width = String(side);
    height = String(rng.chance(0.6) ? side : rng.pick(flatSizes));
    if (recipe.sized === 'deep') depth = String(units === 'in' ? rng.int(4, 30) : rng.int(10, 80));
    else if (recipe.category === 'Painting' && recipe.media.length > 0)
      depth = units === 'in' ? rng.pick(['0.75', '1.5']) : rng.pick(['2', '4']);
  }
  const aiRoll = rng.float();
  const aiUse: AiUse =
    recipe.category === 'Digital' && aiRoll < 0.35
      ? aiRoll < 0.1
        ? 'generated'
        : 'assisted'
      : aiRoll < 0.05
        ? 'assisted'
        : 'none';
  const process = rng.pick(PROCESS_SENTENCES[recipe.category] ?? PROCESS_SENTENCES.Painting!);
  const aiNote =
    aiUse === 'generated'
      ? ' The composition was generated with an AI tool from my own sketches and then chosen and cropped by hand.'
      : aiUse === 'assisted'
        ? ' An AI tool helped me try colour variations; every shape is my own.'
        : '';
  const description = `${capitalise(motif)}, in ${rng.pick(['warm', 'cool', 'bright', 'muted', 'deep', 'sunlit'])} colours. ${process} ${rng.pick(INTENT_SENTENCES)}${aiNote}`;
  const keywords = [
    ...new Set([...pickSome(rng, KEYWORDS_BY_FAMILY[family], 1, 3), ...pickSome(rng, COMMON_KEYWORDS, 1, 3)]),
  ];
  // The two lists share a few words: when the picks met on one, another common word makes the second.
  for (const word of COMMON_KEYWORDS) if (keywords.length < 2 && !keywords.includes(word)) keywords.push(word);
  const extraCount = rng.pick([0, 0, 1, 1, 1, 2]);
  return {
    seed,
    family,
    title: titleFor(seed),
    year: currentYear - age,
    category: recipe.category,
    subject: rng.pick(SUBJECTS_BY_FAMILY[family]),
    style: rng.pick(STYLES_BY_FAMILY[family]),
    medium: pickSome(rng, recipe.media, recipe.mediumCount[0], recipe.mediumCount[1]),
    materials: pickSome(rng, recipe.materials, 1, recipe.materials.length > 2 ? 2 : 1),
    keywords: keywords.slice(0, 6),
    description,
    width,
    height,
    depth,
    units: recipe.sized === 'none' ? 'in' : units,
    noSize: recipe.sized === 'none',
    aiUse,
    extras: Array.from({ length: extraCount }, () => (rng.chance(0.5) ? 'detail' : 'study')),
  };
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
