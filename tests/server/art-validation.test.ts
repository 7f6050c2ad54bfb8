/** The art form rules (docs/product.md, Limits) as the wizard's steps use them (shared/validation/art.ts), pure. */
import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { firstErrors, MESSAGES } from '#shared/validation/rules.ts';
import {
  ART_MESSAGES,
  artFormSchema,
  artStepSchemas,
  imageFileError,
  imageListErrors,
  splitKeywords,
  yearOptions,
} from '#shared/validation/art.ts';

const steps = artStepSchemas(2026);
const errorsOf = (schema: v.GenericSchema, input: unknown) => {
  const result = v.safeParse(schema, input);
  return result.success ? {} : firstErrors(result.issues);
};

describe('the art wizard steps', () => {
  it('IMAGE needs a title of at most 255 characters', () => {
    expect(errorsOf(steps.IMAGE, { title: ' ' })).toEqual({ title: MESSAGES.blank('Title') });
    expect(errorsOf(steps.IMAGE, { title: 'x'.repeat(256) })).toEqual({ title: MESSAGES.maxLength(255) });
  });

  it('CATEGORY takes options from the lists and a year from this year back 100', () => {
    const ok = { category: 'Painting', subject: 'Portrait', style: 'Cubism', year: 1926 };
    expect(errorsOf(steps.CATEGORY, ok)).toEqual({});
    expect(errorsOf(steps.CATEGORY, { ...ok, year: 1925 })).toEqual({ year: ART_MESSAGES.year });
    expect(errorsOf(steps.CATEGORY, { ...ok, year: '2027' })).toEqual({ year: ART_MESSAGES.year });
    expect(errorsOf(steps.CATEGORY, { ...ok, style: 'Vaporwave', subject: '' })).toEqual({
      style: MESSAGES.invalid,
      subject: MESSAGES.blank('Subject'),
    });
    expect(yearOptions(2026)).toHaveLength(101);
  });

  it('MEDIUM takes 1 to 5 mediums and at least one material', () => {
    expect(errorsOf(steps.MEDIUM, { medium: [], materials: [] })).toEqual({
      medium: MESSAGES.blank('Medium'),
      materials: MESSAGES.blank('Materials'),
    });
    expect(
      errorsOf(steps.MEDIUM, { medium: ['Oil', 'Wax', 'Wood', 'Stone', 'Paper', 'Photo'], materials: ['Canvas'] }),
    ).toEqual({ medium: ART_MESSAGES.tooManyMedium });
  });

  it('SIZE needs positive dimensions of at most 8 characters unless no_size, which empties them', () => {
    const ok = { width: '10', height: '8', depth: '.01', units: 'cm', no_size: false };
    expect(errorsOf(steps.SIZE, ok)).toEqual({});
    expect(errorsOf(steps.SIZE, { ...ok, width: '', height: '-3', depth: '123456789', units: 'mm' })).toEqual({
      width: MESSAGES.blank('Width'),
      height: ART_MESSAGES.dimension,
      depth: MESSAGES.maxLength(8),
      units: ART_MESSAGES.units,
    });
    expect(v.parse(steps.SIZE, { width: '5', height: '', depth: '', units: 'cm', no_size: '1' })).toEqual({
      width: '',
      height: '',
      depth: '',
      units: 'in',
      no_size: true,
    });
  });

  it('DESCRIPTION splits keywords on commas, drops repeats, and keeps 1 to 10 of at most 48 characters; ai_use is required', () => {
    expect(splitKeywords(['sea, sky', 'Sea', ' '])).toEqual(['sea', 'sky']);
    const ok = { keywords: ['a'], description: 'd', ai_use: 'assisted' };
    expect(errorsOf(steps.DESCRIPTION, ok)).toEqual({});
    expect(errorsOf(steps.DESCRIPTION, { ...ok, keywords: [], ai_use: 'maybe' })).toEqual({
      keywords: MESSAGES.blank('Keywords'),
      ai_use: MESSAGES.invalid,
    });
    expect(errorsOf(steps.DESCRIPTION, { ...ok, keywords: ['k'.repeat(49)] })).toEqual({
      keywords: ART_MESSAGES.keywordTooLong,
    });
    expect(errorsOf(steps.DESCRIPTION, { ...ok, description: 'x'.repeat(4096) })).toEqual({
      description: MESSAGES.maxLength(4095),
    });
  });

  it('CONNECTION needs a description for each selected connection only', () => {
    const token = 'c'.repeat(22);
    expect(errorsOf(steps.CONNECTION, { connections: [{ token, status: 0, description: '' }] })).toEqual({});
    expect(errorsOf(steps.CONNECTION, { connections: [{ token, status: 1, description: '' }] })).toEqual({
      'connections.0.description': ART_MESSAGES.connectionDescription,
    });
  });

  it('the whole form is the steps together', () => {
    const result = v.safeParse(artFormSchema(2026), {});
    expect(result.success).toBe(false);
    expect(Object.keys(firstErrors(result.issues!)).sort()).toEqual(
      [
        'ai_use',
        'category',
        'depth',
        'description',
        'height',
        'keywords',
        'materials',
        'medium',
        'style',
        'subject',
        'title',
        'units',
        'width',
        'year',
      ].sort(),
    );
  });
});

describe('image rules', () => {
  it('checks size first, then type by MIME type or name', () => {
    expect(imageFileError({ size: 16 * 1024 * 1024 + 1, type: 'image/png' })).toBe(ART_MESSAGES.imageTooBig);
    expect(imageFileError({ size: 10, type: 'image/webp', name: 'a.webp' })).toBe(ART_MESSAGES.imageType);
    expect(imageFileError({ size: 10, type: '', name: 'a.JPG' })).toBeNull();
    expect(imageFileError({ size: 10, type: 'image/gif' })).toBeNull();
  });

  it('needs the main image and at most 3', () => {
    expect(imageListErrors([null, 'b'])).toEqual({ 'files.0': ART_MESSAGES.imageBlank });
    expect(imageListErrors(['a', 'b', 'c', 'd'])).toEqual({ files: ART_MESSAGES.tooManyImages });
    expect(imageListErrors(['a', null, null])).toEqual({});
  });
});
