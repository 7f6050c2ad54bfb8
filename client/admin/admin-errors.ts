/**
 * The text the dashboard shows for a failed call: the locale table's message for the error's code (so two staff
 * members deciding the same piece read the same clear sentence), then the server's own words, then the generic
 * 'undefined error' text for a network failure.
 */
import { errorBodyOf } from '#client/forms/form-state.ts';
import { errorMessageFor, messages } from '#client/locale/messages.ts';
import { ErrorCode } from '#shared/errors.ts';

export function adminErrorText(error: unknown): string {
  const body = errorBodyOf(error);
  if (!body) return messages.undefinedError;
  // A field error names what to fix better than the code's general sentence does.
  const fieldText = Object.values(body.errors ?? {})
    .flat()
    .join(' ')
    .trim();
  if (body.error === ErrorCode.ValidationFailed && fieldText) return fieldText;
  return errorMessageFor(body.error) ?? (body.message?.trim() || messages.undefinedError);
}
