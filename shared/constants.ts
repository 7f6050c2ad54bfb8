/** The business constants and limits (docs/product.md, Limits), in one place for the client and the server. */

export const RESERVATION_DAYS = 14;
export const EXTENSION_DAYS = 7;
/**
 * The reminders of a held square, in order: `daysBefore` the deadline (null: on its last day, docs/product.md,
 * Reservations), and the time left that the e-mail's subject names.
 */
export const RESERVATION_REMINDERS = [
  { daysBefore: 7, left: '7 days' },
  { daysBefore: 3, left: '3 days' },
  { daysBefore: 1, left: '1 day' },
  { daysBefore: null, left: 'last day' },
] as const;
/** An extension may be asked for while no more reminders than there are steps have gone out. */
export const MAX_REMINDERS_FOR_EXTENSION = RESERVATION_REMINDERS.length;

export const TREE_VIEW = {
  cellSize: 100,
  gap: 10,
  zoomStep: 0.5,
  zoomMin: 0.5,
  zoomMax: 2.5,
  zoomDefault: 1,
  cellScrollOffset: 250,
} as const;

export const SEARCH_MIN_LENGTH = 3;

export const CONTACT_LIMITS = { subject: 255, email: 128, message: 4096 } as const;

export const ACCOUNT_LIMITS = {
  name: 64,
  email: 128,
  passwordMin: 6,
  passwordMax: 64,
} as const;

export const PROFILE_LIMITS = {
  url: 255,
  longText: 8192,
  zipcode: 16,
  place: 127,
  zipLookupMin: 5,
} as const;

export const AVATAR_LIMITS = {
  size: 300,
  maxBytes: 8 * 1024 * 1024,
  cropMin: 5,
  cropMax: 3000,
  types: ['image/jpeg', 'image/png', 'image/gif'],
} as const;

export const ART_LIMITS = {
  maxImages: 3,
  maxImageBytes: 16 * 1024 * 1024,
  title: 255,
  /** A picture's description (its alt text): a sentence or two. */
  pictureDescription: 250,
  description: 4095,
  connectionDescription: 4095,
  maxKeywords: 10,
  keyword: 48,
  maxMedium: 5,
  dimension: 8,
  units: ['in', 'cm'],
  yearsBack: 100,
  imageTypes: ['image/jpeg', 'image/png', 'image/gif'],
} as const;

export const TIMINGS = {
  successMessageMs: 4000,
  preloaderHideMs: 200,
} as const;

export const MEDIUM_OPTIONS = [
  'Acrylic',
  'Charcoal',
  'Clay',
  'Digital',
  'Encaustic',
  'Enamel',
  'Fabric',
  'Fresco',
  'Gouache',
  'Graphite/Pencil',
  'Ink/Pen',
  'Metal',
  'Oil',
  'Paper',
  'Pastel',
  'Photo',
  'Spray Paint',
  'Stone',
  'Tempera',
  'Watercolor',
  'Wax',
  'Wood',
  'Other',
] as const;

/** The material of a piece that has none (a digital piece); never chosen together with a material. */
export const NOT_APPLICABLE = 'Not Applicable';

export const MATERIAL_OPTIONS = [
  'Aluminum',
  'Bronze',
  'Canvas',
  'Carbon Fiber',
  'Ceramic',
  'Glass',
  'Iron',
  'Marble',
  'Not Applicable',
  'Paper',
  'Plastic',
  'Wood',
  'Soft (Cotton, yarn, etc)',
  'Steel',
  'Stone',
] as const;

export const STYLE_OPTIONS = [
  'Abstract',
  'Abstract Expressionism',
  'Art Deco',
  'Art Nouveau',
  'Baroque',
  'Contemporary',
  'Cubism',
  'Conceptual',
  'Constructivism',
  'Dada',
  'Expressionism',
  'Fauvism',
  'Folk',
  'Futurism',
  'Impressionism',
  'Minimalism',
  'Modernism',
  'Photorealism',
  'Pop Art',
  'Post-Impressionism',
  'Rococo',
  'Romanticism',
  'Street Art',
  'Surrealism',
] as const;

export const SUBJECT_OPTIONS = [
  'Abstract',
  'Genre/Historic',
  'Figure',
  'Landscape',
  'Nature',
  'Portrait',
  'Seascape',
  'Still Life',
  'Wildlife/Animals',
] as const;

/** Our own list of categories: the original written rules left it open (docs/product.md, Limits). */
export const CATEGORY_OPTIONS = [
  'Painting',
  'Drawing',
  'Sculpture',
  'Photography',
  'Digital',
  'Printmaking',
  'Mixed Media',
  'Textile',
  'Ceramics',
  'Installation',
  'Other',
] as const;

export const CONTACT_REASONS = [
  'Question',
  'Technical Issue',
  'Comment/Critique',
  'Feature Request',
  'General Request',
  'Other',
] as const;

/** Honesty, the first principle of The Ground: every piece says whether and how AI was used. */
export const AI_USE_OPTIONS = ['none', 'assisted', 'generated'] as const;
export type AiUse = (typeof AI_USE_OPTIONS)[number];

/**
 * Calls one batched tRPC request may carry (the client's batch link sends no more): a batch of costly calls would
 * otherwise multiply one request's work (decision 024). Each call still counts against its own rate limit.
 */
export const TRPC_MAX_BATCH = 10;
