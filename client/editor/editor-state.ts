/**
 * The art editor's state: the text fields, the image slots, the connections, the step and the errors, with the
 * wizard's rules as pure functions (decision 011).
 */
import type { ArtConnection, ArtForEdit } from '#shared/art-api.ts';
import { ART_LIMITS, NOT_APPLICABLE } from '#shared/constants.ts';

export const STEPS = ['IMAGE', 'CATEGORY', 'MEDIUM', 'SIZE', 'DESCRIPTION', 'CONNECTION', 'CONFIRM'] as const;
export type StepName = (typeof STEPS)[number];
export const CONFIRM_STEP = STEPS.indexOf('CONFIRM');
const SIZE_STEP = STEPS.indexOf('SIZE');

const DIGITAL = 'Digital';

/** One image slot: a chosen file with its preview, or a picture already stored, with its own error. */
export interface ImageSlot {
  file: File | null;
  /** Object URL of the chosen file, or the stored picture's large image. */
  preview: string | null;
  /** Token of a stored picture this slot keeps. */
  picture: string | null;
  /** What the picture shows, for people who cannot see it (sent as descriptions[i], its alt text). */
  description: string;
  error: string | null;
}

export interface ArtValues {
  title: string;
  category: string;
  subject: string;
  style: string;
  year: string;
  medium: string[];
  materials: string[];
  width: string;
  height: string;
  depth: string;
  units: string;
  no_size: boolean;
  keywords: string[];
  description: string;
  ai_use: string;
}

export interface EditorState {
  values: ArtValues;
  slots: ImageSlot[];
  connections: ArtConnection[];
  step: number;
  /** The furthest step reached: the step menu opens any step up to it. */
  furthest: number;
  /** Whether the size step has been shown once (its Digital preset runs only on the first visit). */
  sizeVisited: boolean;
  /** Field name (as the server names them: title, files.0, connections.2.description…) to its message. */
  errors: Record<string, string>;
}

export const EMPTY_SLOT: ImageSlot = { file: null, preview: null, picture: null, description: '', error: null };

export const slotIsFilled = (slot: ImageSlot) => slot.file !== null || slot.picture !== null;

/** The slots as shown: the filled ones in order, then one empty slot (with its error, if any) while there is room. */
export function withOneEmptySlot(slots: readonly ImageSlot[]): ImageSlot[] {
  const filled = slots.filter(slotIsFilled).slice(0, ART_LIMITS.maxImages);
  if (filled.length === ART_LIMITS.maxImages) return filled;
  const empty = slots.find((slot) => !slotIsFilled(slot) && slot.error !== null) ?? EMPTY_SLOT;
  return [...filled, { ...empty }];
}

export function initialEditorState(data: ArtForEdit): EditorState {
  const piece = data.art;
  const values: ArtValues = piece
    ? {
        title: piece.title,
        category: piece.category,
        subject: piece.subject,
        style: piece.style,
        year: piece.year === null ? '' : String(piece.year),
        medium: [...piece.medium],
        materials: [...piece.materials],
        width: piece.width,
        height: piece.height,
        depth: piece.depth,
        units: piece.units || 'in',
        no_size: piece.no_size,
        keywords: [...piece.keywords],
        description: piece.description,
        // A piece saved before the AI question existed still has to answer it.
        ai_use: data.isNew ? '' : piece.ai_use,
      }
    : emptyValues();
  const slots = (piece?.pictures ?? []).map((p) => ({
    file: null,
    preview: p.image,
    picture: p.token,
    description: p.description,
    error: null,
  }));
  return {
    values,
    slots: withOneEmptySlot(slots),
    connections: [],
    step: 0,
    furthest: data.isNew ? 0 : CONFIRM_STEP,
    // A saved piece's size is a choice already made: the Digital preset is for a new one.
    sizeVisited: !data.isNew,
    errors: {},
  };
}

function emptyValues(): ArtValues {
  return {
    title: '',
    category: '',
    subject: '',
    style: '',
    year: '',
    medium: [],
    materials: [],
    width: '',
    height: '',
    depth: '',
    units: 'in',
    no_size: false,
    keywords: [],
    description: '',
    ai_use: '',
  };
}

/** Sets fields and clears their errors. */
export function setValues(state: EditorState, patch: Partial<ArtValues>): EditorState {
  const errors = { ...state.errors };
  for (const key of Object.keys(patch)) delete errors[key];
  return { ...state, values: { ...state.values, ...patch }, errors };
}

/**
 * The medium list after a tick or untick: choosing Digital sets materials to 'Not Applicable' (decision 011), and
 * unticking it takes that 'Not Applicable' away again, so a painting is not left with no material.
 */
export function setMedium(state: EditorState, medium: string[]): EditorState {
  const hadDigital = state.values.medium.includes(DIGITAL);
  const hasDigital = medium.includes(DIGITAL);
  if (hasDigital && !hadDigital) return setValues(state, { medium, materials: [NOT_APPLICABLE] });
  if (hadDigital && !hasDigital)
    return setValues(state, { medium, materials: state.values.materials.filter((m) => m !== NOT_APPLICABLE) });
  return setValues(state, { medium });
}

/** Ticking no_size hides the dimensions and sends them empty with units 'in'. */
export function setNoSize(state: EditorState, noSize: boolean): EditorState {
  const patch: Partial<ArtValues> = noSize
    ? { no_size: true, width: '', height: '', depth: '', units: 'in' }
    : { no_size: false };
  return setValues(state, patch);
}

/** Shows a step; the first visit of SIZE presets no_size when the medium has Digital (decision 011). */
export function goToStep(state: EditorState, step: number): EditorState {
  let next: EditorState = { ...state, step, furthest: Math.max(state.furthest, step) };
  if (step === SIZE_STEP && !state.sizeVisited) {
    next = { ...next, sizeVisited: true };
    if (next.values.medium.includes(DIGITAL) && !next.values.no_size) next = setNoSize(next, true);
  }
  return next;
}

/** Puts (or clears) one slot, keeping one empty slot, and drops the image list's own errors. */
export function setSlot(state: EditorState, index: number, slot: ImageSlot): EditorState {
  const slots = [...state.slots];
  slots[index] = slot;
  const errors = Object.fromEntries(
    Object.entries(state.errors).filter(
      ([key]) => key !== 'files' && !key.startsWith('files.') && !key.startsWith('descriptions.'),
    ),
  );
  return { ...state, slots: withOneEmptySlot(slots), errors };
}

export function setConnection(
  state: EditorState,
  token: string,
  change: Partial<Pick<ArtConnection, 'status' | 'description'>>,
): EditorState {
  const index = state.connections.findIndex((c) => c.token === token);
  if (index < 0) return state;
  const connections = state.connections.map((c, i) => (i === index ? { ...c, ...change } : c));
  const errors = { ...state.errors };
  delete errors[`connections.${index}.description`];
  return { ...state, connections, errors };
}
