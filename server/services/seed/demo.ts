/**
 * The demo tree of a new install (DESIGN.md §9): a demo admin, thirty artists and their generated pieces, grown
 * cell by cell the way the product grows a tree. Pictures are rendered and stored first; every row is then written
 * in one transaction, so a crash leaves nothing half-seeded.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { and, count, eq } from 'drizzle-orm';
import {
  art,
  artLikes,
  artViews,
  cells,
  connections,
  follows,
  pictures,
  reservations,
  userLikes,
  users,
} from '#drizzle/schema.ts';
import {
  ART_LIMITS,
  CATEGORY_OPTIONS,
  MATERIAL_OPTIONS,
  MEDIUM_OPTIONS,
  RESERVATION_DAYS,
  STYLE_OPTIONS,
  SUBJECT_OPTIONS,
  type AiUse,
} from '#shared/constants.ts';
import { ArtStatus, CellStatus, CellType, Role } from '#shared/domain.ts';
import { bandStarts, computeBranchSlots, gridOfCells, type TreeSettings } from '#shared/tree/geometry.ts';
import sharp from 'sharp';
import { hashPassword } from '../../auth/passwords.ts';
import type { Queryable } from '../../db.ts';
import { newToken } from '../../tokens.ts';
import type { ServiceContext } from '../context.ts';
import { openNeighboursAfterPublish } from '../growth.ts';
import { storePicture, type StoredPicture } from '../images.ts';
import { reindexArt } from '../search.ts';
import { bumpTreeVersion, createTree, type TreeRow } from '../tree.ts';
import { ARTWORK_FAMILY_COUNT, familyOf, renderArtwork, Rng, titleFor, type ArtworkFamily } from './art-generator.ts';

export interface SeedDemoOptions {
  adminEmail?: string | null;
  adminPassword?: string | null;
  artists?: number;
  pieces?: number;
  /** Fixes every random choice but tokens and passwords; random when absent. */
  seed?: number;
}

export interface SeedResult {
  treeToken: string;
  admin: { email: string; password: string; generated: boolean };
  artists: number;
  published: number;
  reserved: number;
  available: number;
}

export const DEMO_TREE_NAME = 'The Gallery Tree';
export const DEFAULT_ADMIN_EMAIL = 'admin@gallery-tree.local';
const PICTURE_SIZE = 800;
const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;

// ---------------------------------------------------------------------------------------------------------------
// What each piece says about itself.

interface PlannedPiece {
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
  { category: 'Painting', weight: 34, media: ['Acrylic', 'Oil', 'Gouache', 'Watercolor', 'Tempera', 'Encaustic', 'Spray Paint'], materials: ['Canvas', 'Paper', 'Wood'], mediumCount: [1, 2], sized: 'flat' },
  { category: 'Digital', weight: 18, media: ['Digital'], materials: ['Not Applicable'], mediumCount: [1, 1], sized: 'none' },
  { category: 'Printmaking', weight: 10, media: ['Ink/Pen', 'Paper'], materials: ['Paper'], mediumCount: [1, 2], sized: 'flat' },
  { category: 'Mixed Media', weight: 12, media: ['Acrylic', 'Paper', 'Ink/Pen', 'Wax', 'Fabric', 'Graphite/Pencil', 'Spray Paint'], materials: ['Canvas', 'Paper', 'Wood', 'Plastic'], mediumCount: [2, 3], sized: 'flat' },
  { category: 'Drawing', weight: 8, media: ['Charcoal', 'Graphite/Pencil', 'Ink/Pen', 'Pastel'], materials: ['Paper'], mediumCount: [1, 2], sized: 'flat' },
  { category: 'Textile', weight: 6, media: ['Fabric'], materials: ['Soft (Cotton, yarn, etc)'], mediumCount: [1, 1], sized: 'flat' },
  { category: 'Ceramics', weight: 4, media: ['Clay', 'Enamel'], materials: ['Ceramic'], mediumCount: [1, 2], sized: 'deep' },
  { category: 'Sculpture', weight: 4, media: ['Metal', 'Wood', 'Stone'], materials: ['Steel', 'Bronze', 'Wood', 'Marble', 'Aluminum'], mediumCount: [1, 2], sized: 'deep' },
  { category: 'Photography', weight: 4, media: ['Photo'], materials: ['Paper', 'Aluminum'], mediumCount: [1, 1], sized: 'flat' },
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
  Textile: ['Stitched and appliquéd by hand from dyed cotton offcuts.', 'Woven on a small floor loom from yarn dyed in the studio.'],
  Ceramics: ['Glazed in several firings; the colours shifted a little in the kiln each time.'],
  Sculpture: ['Cut and welded from sheet metal, then painted in flat colour.', 'Carved from reclaimed timber and painted by hand.'],
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

const CONNECTION_SENTENCES = [
  (title: string) => `The colour at my edge carries on into “${title}”.`,
  (title: string) => `A line in this piece seems to continue in “${title}”.`,
  (title: string) => `Placed beside “${title}” because the two share a horizon.`,
  (title: string) => `Answers the rhythm of “${title}” with a slower one.`,
  (title: string) => `“${title}” and this piece were both made in the same cold month.`,
  (title: string) => `The warm corner here leans towards “${title}”.`,
  (title: string) => `I chose this square to sit next to “${title}”, whose shapes I admire.`,
];

function pickWeighted<T extends { weight: number }>(rng: Rng, items: readonly T[]): T {
  let total = 0;
  for (const item of items) total += item.weight;
  let roll = rng.range(0, total);
  for (const item of items) {
    roll -= item.weight;
    if (roll <= 0) return item;
  }
  return items[items.length - 1]!;
}

function pickSome<T>(rng: Rng, items: readonly T[], min: number, max: number): T[] {
  return rng.shuffle(items).slice(0, Math.min(items.length, rng.int(min, max)));
}

function planPiece(rng: Rng, seed: number, currentYear: number): PlannedPiece {
  const { name: family, motif } = familyOf(seed);
  const recipe = pickWeighted(rng, RECIPES);
  const ageRoll = rng.float();
  const age = ageRoll < 0.8 ? rng.int(0, 8) : ageRoll < 0.95 ? rng.int(9, 40) : rng.int(41, ART_LIMITS.yearsBack - 1);
  const units = rng.chance(0.6) ? 'in' : 'cm';
  const flatSizes = units === 'in' ? [8, 10, 12, 16, 18, 20, 24, 30, 36, 40, 48] : [20, 25, 30, 40, 50, 60, 70, 80, 100, 120];
  let width = '';
  let height = '';
  let depth = '';
  if (recipe.sized !== 'none') {
    const side = rng.pick(flatSizes);
    width = String(side);
    height = String(rng.chance(0.6) ? side : rng.pick(flatSizes));
    if (recipe.sized === 'deep') depth = String(units === 'in' ? rng.int(4, 30) : rng.int(10, 80));
    else if (recipe.category === 'Painting' && recipe.media.length > 0) depth = units === 'in' ? rng.pick(['0.75', '1.5']) : rng.pick(['2', '4']);
  }
  const aiRoll = rng.float();
  const aiUse: AiUse = recipe.category === 'Digital' && aiRoll < 0.35 ? (aiRoll < 0.1 ? 'generated' : 'assisted') : aiRoll < 0.05 ? 'assisted' : 'none';
  const process = rng.pick(PROCESS_SENTENCES[recipe.category] ?? PROCESS_SENTENCES.Painting!);
  const aiNote =
    aiUse === 'generated'
      ? ' The composition was generated with an AI tool from my own sketches and then chosen and cropped by hand.'
      : aiUse === 'assisted'
        ? ' An AI tool helped me try colour variations; every shape is my own.'
        : '';
  const description = `${capitalise(motif)}, in ${rng.pick(['warm', 'cool', 'bright', 'muted', 'deep', 'sunlit'])} colours. ${process} ${rng.pick(INTENT_SENTENCES)}${aiNote}`;
  const keywords = [...new Set([...pickSome(rng, KEYWORDS_BY_FAMILY[family], 1, 3), ...pickSome(rng, COMMON_KEYWORDS, 1, 3)])];
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

// ---------------------------------------------------------------------------------------------------------------
// The demo artists: invented people with invented careers.

export const DEMO_EMAIL_DOMAIN = 'demo.gallery-tree.local';

const FIRST_NAMES = [
  'Maya', 'Tomás', 'Inès', 'Kwame', 'Hana', 'Elliot', 'Priya', 'Lucía', 'Dmitri', 'Amara', 'Jonah', 'Sofia', 'Mateo',
  'Yuki', 'Noor', 'Felix', 'Adaeze', 'Oskar', 'Camille', 'Rafael', 'Leila', 'Theo', 'Ingrid', 'Malik', 'Beatriz',
  'Arjun', 'Clara', 'Emeka', 'Rosa', 'Sam', 'Aiyana', 'Wen', 'Elena', 'Kofi', 'Mira', 'Ravi', 'Greta', 'Idris',
];
const LAST_NAMES = [
  'Okafor', 'Lindqvist', 'Moreau', 'Tanaka', 'Haddad', 'Reyes', 'Kowalski', 'Mensah', 'Fischer', 'Castillo', 'Novak',
  'Sato', 'Brennan', 'Quintero', 'Abara', 'Halvorsen', 'Ferreira', 'Park', 'Nakamura', 'Osei', 'Rahman', 'Whitfield',
  'Sørensen', 'Ibarra', 'Chen', 'Almeida', 'Duarte', 'Varga', 'Mwangi', 'Petrov', 'Lund', 'Serrano', 'Kaur', 'Aydin',
];

interface Place {
  city: string;
  country: string;
  state: string;
  zipcode: string;
}

const PLACES: Place[] = [
  { city: 'Portland', country: 'US', state: 'OR', zipcode: '97209' },
  { city: 'Austin', country: 'US', state: 'TX', zipcode: '78702' },
  { city: 'Chicago', country: 'US', state: 'IL', zipcode: '60622' },
  { city: 'Asheville', country: 'US', state: 'NC', zipcode: '28801' },
  { city: 'Santa Fe', country: 'US', state: 'NM', zipcode: '87501' },
  { city: 'Oakland', country: 'US', state: 'CA', zipcode: '94607' },
  { city: 'Brooklyn', country: 'US', state: 'NY', zipcode: '11211' },
  { city: 'Minneapolis', country: 'US', state: 'MN', zipcode: '55408' },
  { city: 'Savannah', country: 'US', state: 'GA', zipcode: '31401' },
  { city: 'Providence', country: 'US', state: 'RI', zipcode: '02903' },
  { city: 'Detroit', country: 'US', state: 'MI', zipcode: '48201' },
  { city: 'Tucson', country: 'US', state: 'AZ', zipcode: '85701' },
  { city: 'Lisbon', country: 'PT', state: '', zipcode: '1100-148' },
  { city: 'Glasgow', country: 'GB', state: '', zipcode: 'G3 6AX' },
  { city: 'Montréal', country: 'CA', state: '', zipcode: 'H2T 1S6' },
  { city: 'Mexico City', country: 'MX', state: '', zipcode: '06700' },
  { city: 'Kyoto', country: 'JP', state: '', zipcode: '604-8005' },
  { city: 'Accra', country: 'GH', state: '', zipcode: '' },
  { city: 'Melbourne', country: 'AU', state: '', zipcode: '3065' },
  { city: 'Berlin', country: 'DE', state: '', zipcode: '10999' },
  { city: 'Oaxaca', country: 'MX', state: '', zipcode: '68000' },
  { city: 'Reykjavík', country: 'IS', state: '', zipcode: '101' },
  { city: 'Bogotá', country: 'CO', state: '', zipcode: '' },
  { city: 'Marseille', country: 'FR', state: '', zipcode: '13001' },
  { city: 'Seoul', country: 'KR', state: '', zipcode: '04524' },
  { city: 'Cape Town', country: 'ZA', state: '', zipcode: '8001' },
  { city: 'Lagos', country: 'NG', state: '', zipcode: '' },
  { city: 'Tbilisi', country: 'GE', state: '', zipcode: '0105' },
  { city: 'Valparaíso', country: 'CL', state: '', zipcode: '' },
  { city: 'Bergen', country: 'NO', state: '', zipcode: '5003' },
];

const PRACTICES = [
  'a painter', 'a printmaker', 'a textile artist', 'a self-taught painter', 'a muralist', 'an illustrator',
  'a ceramicist who also paints', 'a digital artist', 'a collage artist', 'a former architect turned painter',
];
const BIO_SUBJECTS = [
  'colour and the way it changes with the weather', 'maps, both real and imagined', 'the geometry hidden in everyday objects',
  'light on water', 'the rhythm of the city at night', 'quilts and the women who made them', 'old signage and faded posters',
  'the landscapes of childhood summers', 'music, especially the moment before a song begins', 'gardens and their patient order',
];
const BIO_CLOSINGS = [
  'When not in the studio, they teach weekend classes for children.',
  'They work from a shared studio above a bakery.',
  'Their work has been shown in small galleries and one very large laundromat.',
  'They keep a sketchbook for every year since they were twelve.',
  'They are currently learning to build their own frames.',
  'They believe every neighbourhood deserves a gallery.',
];
const VENUES = [
  'Harbour Street Gallery', 'The Long Room', 'Northlight Project Space', 'Riverside Arts Centre', 'Studio 9 Collective',
  'The Old Mill', 'Cedar Hall', 'Open Door Gallery', 'Lantern Works', 'The Annex',
];
const SCHOOLS = [
  'Riverside School of Art', 'Northfield College of Design', 'the Lakeshore Art Institute', 'Westbrook University',
  'the Hillcrest Academy of Fine Arts', 'Eastgate Polytechnic',
];
const DEGREES = ['BFA, Painting', 'MFA, Studio Art', 'BA, Graphic Design', 'Certificate in Printmaking', 'BA, Art History', 'MA, Textile Design'];

export interface PlannedArtist {
  row: Omit<typeof users.$inferInsert, 'token' | 'passwordHash' | 'role'> & { createdAt: number };
  /** Signed up recently: holds a reservation, has published nothing yet. */
  newcomer: boolean;
}

function emailPart(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ø/g, 'o')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');
}

/** Invented artists, sign-ups spread over the year; the last few joined in the past three weeks. */
function planArtists(rng: Rng, count: number, planted: number, now: number): PlannedArtist[] {
  const firsts = rng.shuffle(FIRST_NAMES);
  const lasts = rng.shuffle(LAST_NAMES);
  const newcomers = Math.min(5, Math.floor(count / 4));
  const seen = new Set<string>();
  const artists: PlannedArtist[] = [];
  for (let i = 0; i < count; i++) {
    const firstname = firsts[i % firsts.length]!;
    const lastname = lasts[(i + Math.floor(i / lasts.length)) % lasts.length]!;
    let local = `${emailPart(firstname)}.${emailPart(lastname)}`;
    for (let n = 2; seen.has(local); n++) local = `${emailPart(firstname)}.${emailPart(lastname)}${n}`;
    seen.add(local);
    const newcomer = i >= count - newcomers;
    const createdAt = newcomer
      ? now - rng.range(8, 21) * DAY
      : Math.round(planted + ((i + rng.range(0, 0.9)) / Math.max(1, count - newcomers)) * (now - 40 * DAY - planted));
    const place = rng.pick(PLACES);
    const shows = Array.from({ length: rng.int(0, 4) }, () => {
      const year = new Date(createdAt).getUTCFullYear() - rng.int(0, 12);
      return `${year}: ${titleFor(rng.int(0, 1e9))}, ${rng.pick(['group show', 'solo show', 'two-person show', 'open call'])}, ${rng.pick(VENUES)}, ${rng.pick(PLACES).city}`;
    }).sort().reverse();
    const slug = `${emailPart(firstname)}-${emailPart(lastname)}`;
    artists.push({
      newcomer,
      row: {
        email: `${local}@${DEMO_EMAIL_DOMAIN}`,
        firstname,
        lastname,
        showEmail: rng.chance(0.3),
        description: `${firstname} is ${rng.pick(PRACTICES)} based in ${place.city}, drawn to ${rng.pick(BIO_SUBJECTS)}. ${rng.pick(BIO_CLOSINGS)}`,
        exhibitions: shows.join('\n'),
        education: rng.chance(0.8) ? `${rng.pick(DEGREES)}, ${rng.pick(SCHOOLS)}` : 'Self-taught; years of evening classes.',
        personalUrl: rng.chance(0.5) ? `https://www.${slug}.example` : '',
        zipcode: place.zipcode,
        country: place.country,
        state: place.state,
        city: place.city,
        createdAt,
        updatedAt: createdAt,
      },
    });
  }
  return artists;
}

// ---------------------------------------------------------------------------------------------------------------
// Pictures: rendered and stored before any row is written.

async function renderPictures(ctx: ServiceContext, piece: PlannedPiece): Promise<StoredPicture[]> {
  const main = await renderArtwork(piece.seed, PICTURE_SIZE, 0);
  const stored = [await storePicture(ctx.media, main)];
  for (const [index, extra] of piece.extras.entries()) {
    let png: Buffer;
    if (extra === 'study') {
      png = await renderArtwork(piece.seed, PICTURE_SIZE, index + 1);
    } else {
      // A close-up of part of the main picture, as an artist photographs a detail.
      const side = Math.round(PICTURE_SIZE * 0.45);
      const left = (piece.seed * 131 + index * 37) % (PICTURE_SIZE - side);
      const top = (piece.seed * 71 + index * 53) % (PICTURE_SIZE - side);
      png = await sharp(main).extract({ left, top, width: side, height: side }).resize(PICTURE_SIZE, PICTURE_SIZE).png().toBuffer();
    }
    stored.push(await storePicture(ctx.media, png));
  }
  return stored;
}

async function mapConcurrently<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

// ---------------------------------------------------------------------------------------------------------------
// The seed.

type GrowthCell = { id: number; row: number; column: number; status: number; type: number };
type NextCell = { kind: 'branch'; row: number; column: number } | { kind: 'trunk'; id: number; row: number; column: number };

/**
 * Where the next piece goes: a branch slot when branches are behind their third of the pieces (keeping the two
 * sides even), otherwise an available trunk cell, leaning upwards and towards the side whose branches lag.
 */
function chooseNextCell(
  rng: Rng,
  settings: TreeSettings,
  current: readonly GrowthCell[],
  sideCount: { left: number; right: number },
  branchesBehind: boolean,
): NextCell | null {
  const slots = computeBranchSlots(settings, gridOfCells(current));
  const openTrunk = current.filter((c) => c.type === CellType.Trunk && c.status === CellStatus.Available);
  const left = slots.filter((s) => s.column < 0);
  const right = slots.filter((s) => s.column >= settings.trunk.columns);
  const lagging = sideCount.left <= sideCount.right ? 'left' : 'right';
  const lagSlots = lagging === 'left' ? left : right;
  const leadSlots = lagging === 'left' ? right : left;
  if (branchesBehind || openTrunk.length === 0) {
    if (lagSlots.length > 0) return { kind: 'branch', ...rng.pick(lagSlots) };
    const gap = Math.abs(sideCount.left - sideCount.right);
    if (leadSlots.length > 0 && (gap < 2 || openTrunk.length === 0)) return { kind: 'branch', ...rng.pick(leadSlots) };
  }
  if (openTrunk.length === 0) return null;
  const bands = bandStarts(settings);
  const lagEdge = lagging === 'left' ? 0 : settings.trunk.columns - 1;
  const weighted = openTrunk.map((cell) => {
    const height = bands.seed - cell.row;
    let weight = cell.row < bands.seed ? 2 + 0.6 * height : cell.row < bands.roots ? 1.2 : 0.4;
    if (cell.column === lagEdge && lagSlots.length === 0 && cell.row < bands.seed) weight *= 2.5;
    return { cell, weight };
  });
  const chosen = pickWeighted(rng, weighted).cell;
  return { kind: 'trunk', id: chosen.id, row: chosen.row, column: chosen.column };
}

/** A strong password for the demo admin when ADMIN_PASSWORD is not set: 24 URL-safe characters. */
function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}

function inChunks<T>(rows: readonly T[], write: (chunk: T[]) => void): void {
  for (let i = 0; i < rows.length; i += 500) write(rows.slice(i, i + 500));
}

interface Publisher {
  id: number;
  since: number;
  pieces: number;
}

interface PublishedPiece {
  artId: number;
  authorId: number;
  publishedAt: number;
}

interface GrowthPlan {
  pieces: readonly PlannedPiece[];
  stored: readonly StoredPicture[][];
  publishers: Publisher[];
  firstPublish: number;
  lastPublish: number;
}

/**
 * Publishes the pieces one by one as the product would: each takes an available trunk cell or a branch slot,
 * links to published neighbours, then opens the trunk around it.
 */
function growTree(tx: Queryable, rng: Rng, tree: TreeRow, plan: GrowthPlan): PublishedPiece[] {
  const settings = tree.settings as TreeSettings;
  const published: PublishedPiece[] = [];
  const publishedAtByArt = new Map<number, number>();
  const sideCount = { left: 0, right: 0 };
  let branchCount = 0;
  for (const [i, piece] of plan.pieces.entries()) {
    const publishedAt = Math.round(
      plan.firstPublish + ((i + rng.range(0.2, 0.8)) / plan.pieces.length) * (plan.lastPublish - plan.firstPublish),
    );
    const current = tx
      .select({ id: cells.id, row: cells.row, column: cells.column, status: cells.status, type: cells.type, artId: cells.artId })
      .from(cells)
      .where(eq(cells.treeId, tree.id))
      .all();
    const next = chooseNextCell(rng, settings, current, sideCount, branchCount < (i + 1) / 3);
    if (!next) break;

    const position = { row: next.row, column: next.column };
    let cellId: number;
    if (next.kind === 'branch') {
      sideCount[next.column < 0 ? 'left' : 'right']++;
      branchCount++;
      // As in the product: the branch cell is created when someone reserves the slot, then published.
      const reservedAt = publishedAt - 10 * DAY;
      cellId = tx
        .insert(cells)
        .values({ token: newToken(), treeId: tree.id, ...position, type: CellType.Branch, status: CellStatus.Reserved, createdAt: reservedAt, updatedAt: reservedAt })
        .returning({ id: cells.id })
        .get().id;
    } else {
      cellId = next.id;
    }

    // Authors had joined a fortnight before; pieces spread over many artists rather than piling on a few.
    const eligible = plan.publishers.filter((p) => p.since < publishedAt - 14 * DAY);
    const pool = eligible.length > 0 ? eligible : plan.publishers;
    const author = pickWeighted(rng, pool.map((p) => ({ p, weight: 1 / (1 + p.pieces) ** 2 }))).p;
    author.pieces++;

    const pics = plan.stored[i]!;
    const createdAt = publishedAt - rng.int(5, 12) * DAY;
    const submittedAt = publishedAt - rng.int(1, 4) * DAY - rng.int(0, 20) * HOUR;
    const { id: artId } = tx
      .insert(art)
      .values({
        token: newToken(),
        cellId,
        authorId: author.id,
        status: ArtStatus.Published,
        title: piece.title,
        year: Math.min(piece.year, new Date(publishedAt).getUTCFullYear()),
        category: piece.category,
        subject: piece.subject,
        style: piece.style,
        medium: piece.medium,
        materials: piece.materials,
        keywords: piece.keywords,
        description: piece.description,
        width: piece.width,
        height: piece.height,
        depth: piece.depth,
        units: piece.units,
        noSize: piece.noSize,
        aiUse: piece.aiUse,
        dominantColor: pics[0]!.dominantColor,
        submittedAt,
        publishedAt,
        createdAt,
        updatedAt: publishedAt,
      })
      .returning({ id: art.id })
      .get();
    tx.insert(pictures)
      .values(pics.map((pic, index) => ({ token: newToken(), artId, position: index, mediaKey: pic.key, width: pic.width, height: pic.height, createdAt })))
      .run();

    const neighbours = current.filter(
      (c) => c.status === CellStatus.Published && Math.abs(c.row - position.row) <= 1 && Math.abs(c.column - position.column) <= 1,
    );
    for (const neighbour of pickSome(rng, neighbours, 1, 3)) {
      const title = tx.select({ title: art.title }).from(art).where(eq(art.id, neighbour.artId!)).get()?.title ?? 'its neighbour';
      const linkedAt = Math.min(publishedAt, Math.max(submittedAt, (publishedAtByArt.get(neighbour.artId!) ?? 0) + HOUR));
      tx.insert(connections)
        .values({ token: newToken(), artId, nextCellId: neighbour.id, description: rng.pick(CONNECTION_SENTENCES)(title), status: 1, createdAt: linkedAt, updatedAt: linkedAt })
        .run();
    }

    tx.update(cells).set({ status: CellStatus.Published, artId, updatedAt: publishedAt }).where(eq(cells.id, cellId)).run();
    openNeighboursAfterPublish(tx, tree.id, position.row, position.column, publishedAt);
    reindexArt(tx, artId);
    published.push({ artId, authorId: author.id, publishedAt });
    publishedAtByArt.set(artId, publishedAt);
  }
  return published;
}

/** Newcomers hold a few available trunk squares, each with a draft that has only a title so far. */
function reserveForNewcomers(tx: Queryable, rng: Rng, treeId: number, newcomerIds: readonly number[], titleSeed: number, now: number): void {
  const open = tx
    .select({ id: cells.id })
    .from(cells)
    .where(and(eq(cells.treeId, treeId), eq(cells.type, CellType.Trunk), eq(cells.status, CellStatus.Available)))
    .all();
  const holders = newcomerIds.slice(0, Math.min(rng.int(3, 5), open.length));
  const held = rng.shuffle(open).slice(0, holders.length);
  for (const [i, userId] of holders.entries()) {
    const cellId = held[i]!.id;
    const reservedAt = now - rng.int(1, 6) * DAY - rng.int(0, 23) * HOUR;
    const draftAt = reservedAt + HOUR;
    const draft = tx
      .insert(art)
      .values({ token: newToken(), cellId, authorId: userId, status: ArtStatus.Draft, title: titleFor(titleSeed + i), createdAt: draftAt, updatedAt: draftAt })
      .returning({ id: art.id })
      .get();
    tx.insert(reservations)
      .values({ token: newToken(), userId, cellId, state: 'active', expiresAt: reservedAt + RESERVATION_DAYS * DAY, reminderCount: 0, createdAt: reservedAt, updatedAt: reservedAt })
      .run();
    tx.update(cells).set({ status: CellStatus.Reserved, artId: draft.id, updatedAt: reservedAt }).where(eq(cells.id, cellId)).run();
  }
}

/** Likes, follows and views, each dated after both sides existed, so every count on the site is above zero. */
function addActivity(tx: Queryable, rng: Rng, people: readonly { id: number; since: number }[], published: readonly PublishedPiece[], now: number): void {
  const after = (from: number) => Math.round(from + rng.range(0.05, 1) * Math.max(HOUR, now - from));
  const likeRows: (typeof artLikes.$inferInsert)[] = [];
  const followRows: (typeof follows.$inferInsert)[] = [];
  const userLikeRows: (typeof userLikes.$inferInsert)[] = [];
  for (const person of people) {
    const likeable = published.filter((p) => p.authorId !== person.id);
    for (const piece of pickSome(rng, likeable, 0, 10)) {
      likeRows.push({ userId: person.id, artId: piece.artId, createdAt: after(Math.max(piece.publishedAt, person.since)) });
    }
    const others = people.filter((o) => o.id !== person.id);
    for (const other of pickSome(rng, others, 0, 4)) {
      followRows.push({ followerId: person.id, followedId: other.id, createdAt: after(Math.max(person.since, other.since)) });
    }
    for (const other of pickSome(rng, others, 0, 2)) {
      userLikeRows.push({ userId: person.id, likedUserId: other.id, createdAt: after(Math.max(person.since, other.since)) });
    }
  }
  const viewRows: (typeof artViews.$inferInsert)[] = [];
  for (const piece of published) {
    for (let v = rng.int(3, 40); v > 0; v--) {
      viewRows.push({ artId: piece.artId, viewerKey: `visitor:${randomBytes(12).toString('hex')}`, createdAt: after(piece.publishedAt) });
    }
  }
  inChunks(likeRows, (chunk) => tx.insert(artLikes).values(chunk).run());
  inChunks(followRows, (chunk) => tx.insert(follows).values(chunk).run());
  inChunks(userLikeRows, (chunk) => tx.insert(userLikes).values(chunk).run());
  inChunks(viewRows, (chunk) => tx.insert(artViews).values(chunk).run());
}

/** Seeds the demo tree into a database with no tree yet; see the module summary. */
export async function seedDemo(ctx: ServiceContext, options: SeedDemoOptions = {}): Promise<SeedResult> {
  const { db, log } = ctx;
  const started = performance.now();
  const now = ctx.clock.now();
  const rng = new Rng(options.seed ?? randomInt(0, 2 ** 31));
  const artistCount = Math.max(1, options.artists ?? 30);
  const pieceCount = Math.max(0, options.pieces ?? 72);

  const adminEmail = (options.adminEmail ?? DEFAULT_ADMIN_EMAIL).trim().toLowerCase();
  const generated = !options.adminPassword;
  const adminPassword = options.adminPassword || generatePassword();

  // The demo's history spans the past year: the tree is planted, artists join, pieces are published in turn.
  const planted = now - 365 * DAY;
  const artists = planArtists(rng, artistCount, planted, now);
  const currentYear = new Date(now).getUTCFullYear();
  // Consecutive seeds walk through the composition families, so the demo shows all of them.
  const artBase = rng.int(0, 1_000_000) * ARTWORK_FAMILY_COUNT;
  const pieces = Array.from({ length: pieceCount }, (_, i) => planPiece(rng, artBase + i, currentYear));

  log.info(`seed: rendering ${pieceCount} artworks`);
  // sharp's work is CPU-bound: about one picture in flight a core.
  const concurrency = Math.min(4, Math.max(2, availableParallelism()));
  const [stored, adminHash, artistHashes] = await Promise.all([
    mapConcurrently(pieces, concurrency, (piece) => renderPictures(ctx, piece)),
    hashPassword(adminPassword),
    // Nobody logs in as a demo artist: each gets a long random password nobody knows.
    Promise.all(artists.map(() => hashPassword(generatePassword()))),
  ]);
  log.info(`seed: pictures stored in ${Math.round(performance.now() - started)} ms, writing rows`);

  const treeToken = db.transaction((tx) => {
    // createTree and bumpTreeVersion take the database: on this one connection they join this transaction.
    const tree = createTree(db, planted, DEMO_TREE_NAME);
    const admin = tx
      .insert(users)
      .values({
        token: newToken(),
        email: adminEmail,
        passwordHash: adminHash,
        firstname: 'Gallery',
        lastname: 'Staff',
        role: Role.Admin,
        description: 'Keeps the tree tidy: reviews new pieces and answers questions.',
        createdAt: planted,
        updatedAt: planted,
      })
      .returning({ id: users.id })
      .get();
    const people = artists.map((artist, i) => ({
      artist,
      id: tx
        .insert(users)
        .values({ ...artist.row, token: newToken(), passwordHash: artistHashes[i]!, role: Role.Artist })
        .returning({ id: users.id })
        .get().id,
      since: artist.row.createdAt,
      pieces: 0,
    }));
    // The newest sign-ups hold reservations and have published nothing yet.
    const publishers = people.filter((p) => !p.artist.newcomer);
    const newcomerIds = people.filter((p) => p.artist.newcomer).map((p) => p.id);

    const published = growTree(tx, rng, tree, {
      pieces,
      stored,
      publishers: publishers.length > 0 ? publishers : [{ id: admin.id, since: planted, pieces: 0 }],
      firstPublish: planted + 21 * DAY,
      lastPublish: now - 8 * DAY,
    });
    reserveForNewcomers(tx, rng, tree.id, newcomerIds, artBase + pieceCount, now);
    addActivity(tx, rng, [{ id: admin.id, since: planted }, ...people], published, now);
    bumpTreeVersion(db, tree.id);
    return tree.token;
  });

  const result = countSeed(ctx, treeToken, { email: adminEmail, password: adminPassword, generated });
  log.info(`seed: done in ${Math.round(performance.now() - started)} ms (${result.published} published, ${result.available} available)`);
  return result;
}

function countSeed(ctx: ServiceContext, treeToken: string, admin: SeedResult['admin']): SeedResult {
  const { db } = ctx;
  const tree = db.query.trees.findFirst({ where: (t, { eq: equals }) => equals(t.token, treeToken) }).sync();
  const treeId = tree!.id;
  const cellsWith = (status: CellStatus) =>
    db.select({ n: count() }).from(cells).where(and(eq(cells.treeId, treeId), eq(cells.status, status))).get()!.n;
  const artists = db.select({ n: count() }).from(users).where(eq(users.role, Role.Artist)).get()!.n;
  return {
    treeToken,
    admin,
    artists,
    published: cellsWith(CellStatus.Published),
    reserved: cellsWith(CellStatus.Reserved),
    available: cellsWith(CellStatus.Available),
  };
}

/** Tells the operator what was seeded and how to sign in as the demo admin, once. */
export function printSeedSummary(result: SeedResult, log: (line: string) => void = console.log): void {
  const passwordLine = result.admin.generated
    ? `  password: ${result.admin.password}`
    : '  password: the one set in ADMIN_PASSWORD';
  const note = result.admin.generated
    ? '  This password is shown only this once: write it down now.'
    : '  (not printed: it came from the environment)';
  const lines = ['  Demo admin', `  email:    ${result.admin.email}`, passwordLine, note];
  const width = Math.max(...lines.map((l) => l.length)) + 2;
  log(
    `Seeded the demo tree: ${result.published} pieces by ${result.artists} artists, ` +
      `${result.reserved} squares reserved, ${result.available} open for new art.`,
  );
  log(`+${'-'.repeat(width)}+`);
  for (const line of lines) log(`|${line.padEnd(width)}|`);
  log(`+${'-'.repeat(width)}+`);
}
