/**
 * The art form's rules (docs/product.md, Limits), written once for the seven-step wizard (a schema per step) and the
 * server (POST /api/cell/{cellToken}, the connection save). Years depend on "now", so the schemas come from factories
 * taking the current year; images are files, checked by the pure helpers at the end.
 */
import * as v from 'valibot';
import {
  AI_USE_OPTIONS,
  ART_LIMITS as L,
  CATEGORY_OPTIONS,
  MATERIAL_OPTIONS,
  MEDIUM_OPTIONS,
  NOT_APPLICABLE,
  STYLE_OPTIONS,
  SUBJECT_OPTIONS,
} from '../constants.ts';
import { tokenSchema } from './common.ts';
import { MESSAGES, flag, hasNoControlCharacters, optionalText, requiredText, text } from './rules.ts';
import { ConnectionStatus } from '../domain.ts';

export const ART_MESSAGES = {
  imageBlank: 'Image cannot be blank.',
  imageTooBig: 'File size should not be more than 16Mb.',
  imageType: 'File type is not allowed.',
  imageUnreadable: 'This image is damaged and cannot be read.',
  imageTooManyPixels: 'This image has too many pixels (at most 40 megapixels).',
  tooManyImages: `You can add at most ${L.maxImages} images.`,
  tooManyMedium: `Choose at most ${L.maxMedium} mediums.`,
  tooManyKeywords: `Add at most ${L.maxKeywords} keywords.`,
  keywordTooLong: `Each keyword can be at most ${L.keyword} characters.`,
  year: 'Choose a year from the list.',
  units: 'Units must be in or cm.',
  dimension: 'Enter a positive number.',
  connectionDescription: 'You must add a description of the connection with each piece to which you wish to connect.',
  notApplicableAlone: `"${NOT_APPLICABLE}" cannot be chosen together with a material: untick one of them.`,
} as const;

const requiredChoice = (name: string, options: readonly string[]) =>
  v.pipe(
    text(),
    v.trim(),
    v.nonEmpty(MESSAGES.blank(name)),
    v.check((s) => options.includes(s), MESSAGES.invalid),
  );

/** A list of strings (or one string, as a single multipart field arrives), trimmed, blanks and repeats dropped. */
const stringList = () =>
  v.pipe(
    v.optional(v.nullable(v.union([v.array(v.string(MESSAGES.invalid)), v.string(MESSAGES.invalid)])), []),
    v.transform((value) => uniqueTrimmed(value == null ? [] : Array.isArray(value) ? value : [value])),
    v.check((items) => items.every(hasNoControlCharacters), MESSAGES.controlCharacters),
  );

function uniqueTrimmed(items: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of items) {
    const item = raw.trim();
    const key = item.toLowerCase();
    if (item && !seen.has(key)) {
      seen.add(key);
      out.push(item);
    }
  }
  return out;
}

/** Keywords as the wizard enters them: comma-separated entries are split, duplicates ignored. */
export function splitKeywords(entries: string[]): string[] {
  return uniqueTrimmed(entries.flatMap((entry) => entry.split(',')));
}

/** The years the year select offers: this year back 100, newest first. */
export function yearOptions(currentYear: number): number[] {
  return Array.from({ length: L.yearsBack + 1 }, (_, i) => currentYear - i);
}

const yearSchema = (currentYear: number) =>
  v.pipe(
    v.optional(v.nullable(v.union([v.string(MESSAGES.invalid), v.number(MESSAGES.invalid)])), ''),
    v.transform((value) => (value == null ? '' : String(value).trim())),
    v.nonEmpty(MESSAGES.blank('Year')),
    v.regex(/^\d{1,4}$/, ART_MESSAGES.year),
    v.transform(Number),
    v.minValue(currentYear - L.yearsBack, ART_MESSAGES.year),
    v.maxValue(currentYear, ART_MESSAGES.year),
  );

const POSITIVE_NUMBER = /^(\d+\.?\d*|\.\d+)$/;
const dimension = () => v.pipe(text(), v.trim(), v.maxLength(L.dimension, MESSAGES.maxLength(L.dimension)));

export const imageStepEntries = { title: requiredText('Title', L.title) };

export const categoryStepEntries = (currentYear: number) => ({
  category: requiredChoice('Category', CATEGORY_OPTIONS),
  subject: requiredChoice('Subject', SUBJECT_OPTIONS),
  style: requiredChoice('Style', STYLE_OPTIONS),
  year: yearSchema(currentYear),
});

export const mediumStepEntries = {
  medium: v.pipe(
    stringList(),
    v.minLength(1, MESSAGES.blank('Medium')),
    v.maxLength(L.maxMedium, ART_MESSAGES.tooManyMedium),
    v.check((list) => list.every((item) => (MEDIUM_OPTIONS as readonly string[]).includes(item)), MESSAGES.invalid),
  ),
  materials: v.pipe(
    stringList(),
    v.minLength(1, MESSAGES.blank('Materials')),
    v.check((list) => list.every((item) => (MATERIAL_OPTIONS as readonly string[]).includes(item)), MESSAGES.invalid),
    v.check((list) => !list.includes(NOT_APPLICABLE) || list.length === 1, ART_MESSAGES.notApplicableAlone),
  ),
};

export const sizeStepEntries = {
  width: dimension(),
  height: dimension(),
  depth: dimension(),
  units: v.pipe(
    text(),
    v.trim(),
    v.check((s) => s === '' || (L.units as readonly string[]).includes(s), ART_MESSAGES.units),
  ),
  no_size: flag(),
};

type SizeFields = { width: string; height: string; depth: string; units: string; no_size: boolean };

/** Unless no_size, each dimension is required and a positive number, and units are required. */
function sizeChecks<T extends SizeFields>() {
  return [
    v.rawCheck<T>(({ dataset, addIssue }) => {
      // Runs even when other fields failed (the dataset is then untyped), so every field error shows at once.
      const value = dataset.value as Partial<Record<keyof SizeFields, unknown>> | undefined;
      if (typeof value !== 'object' || value === null || value.no_size === true) return;
      const textOf = (key: keyof SizeFields) => (typeof value[key] === 'string' ? value[key].trim() : '');
      const fail = (key: keyof SizeFields, message: string) =>
        addIssue({ message, path: [{ type: 'object', origin: 'value', input: value, key, value: value[key] }] });
      for (const [key, name] of [
        ['width', 'Width'],
        ['height', 'Height'],
        ['depth', 'Depth'],
      ] as const) {
        const text = textOf(key);
        if (text === '') fail(key, MESSAGES.blank(name));
        else if (text.length <= L.dimension && (!POSITIVE_NUMBER.test(text) || !(Number(text) > 0)))
          fail(key, ART_MESSAGES.dimension);
      }
      if (textOf('units') === '') fail('units', MESSAGES.blank('Units'));
    }),
    // With no_size the dimensions are sent empty and the units are 'in'.
    v.transform<T, T>((i) => (i.no_size ? { ...i, width: '', height: '', depth: '', units: 'in' } : i)),
  ] as const;
}

export const descriptionStepEntries = {
  keywords: v.pipe(
    stringList(),
    v.transform(splitKeywords),
    v.minLength(1, MESSAGES.blank('Keywords')),
    v.maxLength(L.maxKeywords, ART_MESSAGES.tooManyKeywords),
    v.check((list) => list.every((k) => k.length <= L.keyword), ART_MESSAGES.keywordTooLong),
  ),
  description: requiredText('Description', L.description),
  /** Honesty (The Ground): whether and how AI was used, always stated. */
  ai_use: requiredChoice('AI use', AI_USE_OPTIONS),
};

/** One proposed connection to a neighbouring square: the neighbour CELL token, selected (1) or not (0). */
export const connectionItemSchema = v.pipe(
  v.object({
    token: tokenSchema,
    status: v.pipe(
      v.optional(v.union([v.number(), v.string(), v.boolean()]), 1),
      v.transform((s) => (s === 1 || s === '1' || s === true || s === 'true' ? 1 : 0)),
    ),
    description: v.pipe(
      text(),
      v.trim(),
      v.maxLength(L.connectionDescription, MESSAGES.maxLength(L.connectionDescription)),
    ),
  }),
  v.forward(
    v.partialCheck(
      [['status'], ['description']],
      (c) => c.status === ConnectionStatus.Unselected || c.description !== '',
      ART_MESSAGES.connectionDescription,
    ),
    ['description'],
  ),
);

export const connectionsSchema = v.object({
  connections: v.pipe(v.optional(v.array(connectionItemSchema), []), v.maxLength(8, MESSAGES.invalid)),
});

/** The author's removal request from the details page: a reason is welcome, not required. */
export const removalRequestSchema = v.object({ reason: optionalText(L.description) });

/** The wizard's steps with the schema each validates (IMAGE also needs a main image: see imageListErrors). */
export function artStepSchemas(currentYear: number) {
  return {
    IMAGE: v.object(imageStepEntries),
    CATEGORY: v.object(categoryStepEntries(currentYear)),
    MEDIUM: v.object(mediumStepEntries),
    SIZE: v.pipe(
      v.object(sizeStepEntries),
      ...sizeChecks<v.InferOutput<v.ObjectSchema<typeof sizeStepEntries, undefined>>>(),
    ),
    DESCRIPTION: v.object(descriptionStepEntries),
    CONNECTION: connectionsSchema,
  };
}

const artEntries = (currentYear: number) => ({
  ...imageStepEntries,
  ...categoryStepEntries(currentYear),
  ...mediumStepEntries,
  ...sizeStepEntries,
  ...descriptionStepEntries,
});

/** Every text field of a piece as the art save sends it (images and connections travel beside it). */
export function artFormSchema(currentYear: number) {
  const object = v.object(artEntries(currentYear));
  return v.pipe(object, ...sizeChecks<v.InferOutput<typeof object>>());
}
export type ArtFormValues = v.InferOutput<ReturnType<typeof artFormSchema>>;

// Images: files are not schema values, so their rules are plain functions the wizard and the server both call.

const IMAGE_EXTENSIONS = ['jpeg', 'jpg', 'gif', 'png'];

/** The message for one chosen file (size first, then type by MIME type or name), or null when it may be sent. */
export function imageFileError(file: { size: number; type?: string; name?: string }): string | null {
  if (file.size > L.maxImageBytes) return ART_MESSAGES.imageTooBig;
  const byType = file.type ? (L.imageTypes as readonly string[]).includes(file.type) : false;
  const extension = file.name?.split('.').pop()?.toLowerCase() ?? '';
  if (!byType && !IMAGE_EXTENSIONS.includes(extension)) return ART_MESSAGES.imageType;
  return null;
}

/** Slot errors of the image list: at most 3 images, and the first (main) one present. */
export function imageListErrors(slots: readonly unknown[]): Record<string, string> {
  const present = slots.filter((slot) => slot !== null && slot !== undefined && slot !== '');
  if (present.length > L.maxImages) return { files: ART_MESSAGES.tooManyImages };
  if (!slots[0]) return { 'files.0': ART_MESSAGES.imageBlank };
  return {};
}

/** A picture's description, what it shows for people who cannot see it (alt text): optional, one short line. */
export const pictureDescriptionSchema = v.pipe(
  optionalText(L.pictureDescription),
  v.check(hasNoControlCharacters, MESSAGES.controlCharacters),
);

/** The descriptions by image slot, checked: the cleaned text of each, and an error keyed `descriptions.<slot>`. */
export function checkPictureDescriptions(descriptions: readonly (string | undefined)[]): {
  values: string[];
  errors: Record<string, string>;
} {
  const values: string[] = [];
  const errors: Record<string, string> = {};
  descriptions.forEach((description, slot) => {
    const parsed = v.safeParse(pictureDescriptionSchema, description ?? '');
    if (parsed.success) values[slot] = parsed.output;
    else errors[`descriptions.${slot}`] = parsed.issues[0].message;
  });
  return { values, errors };
}

/** 40 megapixels: the most an art image may have (the server's decoder refuses more; the editor says so first). */
export const MAX_IMAGE_PIXELS = 40_000_000;

export type SniffedType = 'jpeg' | 'png' | 'gif';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The type the first bytes announce, or null: the only types art may be, whatever the file is named. */
export function sniffImageType(bytes: Uint8Array): SniffedType | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 8 && PNG_SIGNATURE.every((byte, i) => bytes[i] === byte)) return 'png';
  const head = String.fromCharCode(...bytes.subarray(0, 6));
  if (head === 'GIF87a' || head === 'GIF89a') return 'gif';
  return null;
}
