/**
 * What the two multipart forms (the art save and the profile update) share: a text part's value as the form typed it,
 * and the parser's limits turned into the form's errors.
 */
import type { MultipartValue } from '@fastify/multipart';
import { ErrorCode } from '#shared/errors.ts';
import { MESSAGES, normalizeLineBreaks } from '#shared/validation/rules.ts';
import { AppError } from '../errors.ts';

/**
 * A text part's value. Browsers send a textarea's line breaks as CRLF in multipart bodies; the same text sent as JSON
 * (or typed in the field) has LF, so lengths are checked on LF to give one answer for one text.
 */
export function textOf(part: MultipartValue, field = part.fieldname): string {
  if (part.valueTruncated)
    throw new AppError(ErrorCode.PayloadTooLarge, 'A field is too long.', { [field]: [MESSAGES.invalid] });
  const value = typeof part.value === 'string' ? part.value : String(part.value);
  return normalizeLineBreaks(value);
}

/** The form-level answer to a parser error the caller did not map to one of its fields. */
export function formReadError(error: unknown, unreadable: string): AppError {
  if (error instanceof AppError) return error;
  switch ((error as { code?: string } | null)?.code) {
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return new AppError(ErrorCode.PayloadTooLarge, 'The form has too many fields.');
    default:
      return new AppError(ErrorCode.BadRequest, unreadable);
  }
}
