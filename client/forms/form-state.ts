/**
 * The pure half of the form kit: checking values with a shared valibot schema (so the browser shows exactly the
 * server's messages), and turning a failed call into field errors plus one form message (decision 007).
 */
import * as v from 'valibot';
import { firstErrors } from '#shared/validation/rules.ts';
import { ErrorCode, type ErrorBody } from '#shared/errors.ts';
import { errorMessageFor, messages } from '#client/locale/messages.ts';

/** Field name to the one message shown beside it. */
export type FieldMessages = Record<string, string>;

/**
 * How a form shows its errors: 'fields' puts each beside its field and the rest in the form message; 'single'
 * (login, reset password) puts everything in the one form message; 'fields-and-message' (contact) is 'fields' with
 * the server's own message in the form message as well, even when field errors came with it.
 */
export type ErrorMode = 'fields' | 'single' | 'fields-and-message';

/** What a form shows after a failed check or call. */
export interface FormFailure {
  fieldErrors: FieldMessages;
  message: string | null;
}

export type Validation<TOutput> = { ok: true; output: TOutput } | { ok: false; failure: FormFailure };

/** Checks values with a schema; on failure, one message a field (the first failing rule). */
export function validate<TOutput>(
  schema: v.GenericSchema<unknown, TOutput>,
  values: unknown,
  fields: readonly string[],
  mode: ErrorMode = 'fields',
): Validation<TOutput> {
  const result = v.safeParse(schema, values);
  if (result.success) return { ok: true, output: result.output };
  const errors = firstErrors(result.issues);
  return {
    ok: false,
    failure: splitErrors(errorsAsLists(errors), fields, mode) ?? { fieldErrors: {}, message: messages.undefinedError },
  };
}

/**
 * The app's error body of a failed call, read from a tRPC client error's `data.app` (or a REST answer's `r`), or
 * null when there is none (a network failure, or an answer from something other than our server). One foreign answer
 * is understood: HTTP 413 (a REST call's `status`) with no body of ours is a proxy in front of the server refusing an
 * upload over its own size limit (nginx's client_max_body_size answers with a page of HTML), which means what our
 * `payload_too_large` means, so it reads as that code and every form says the file is too large.
 */
export function errorBodyOf(error: unknown): ErrorBody | null {
  if (typeof error !== 'object' || error === null) return null;
  const data = (error as { data?: unknown }).data;
  const app = typeof data === 'object' && data !== null ? (data as { app?: unknown }).app : undefined;
  const candidate = app ?? (error as { r?: unknown }).r;
  if (isErrorBody(candidate)) return candidate;
  return (error as { status?: unknown }).status === 413 ? { error: ErrorCode.PayloadTooLarge } : null;
}

function isErrorBody(value: unknown): value is ErrorBody {
  return typeof value === 'object' && value !== null && typeof (value as { error?: unknown }).error === 'string';
}

/**
 * A failed call as the form shows it: errors of the form's own fields beside them (their messages joined by a
 * space); errors of other fields, or every error in 'single' mode, in the form message. With no field text, the
 * form message is the server's message, else the locale text for its code, else the 'undefined error' message.
 * In 'fields-and-message' mode the server's message (or its code's text) leads the form message in any case.
 */
export function failureOf(error: unknown, fields: readonly string[], mode: ErrorMode = 'fields'): FormFailure {
  const body = errorBodyOf(error);
  const told = body?.message?.trim() || errorMessageFor(body?.error);
  const split = splitErrors(body?.errors ?? {}, fields, mode);
  if (!split) return { fieldErrors: {}, message: told || messages.undefinedError };
  if (mode !== 'fields-and-message' || !told) return split;
  return { fieldErrors: split.fieldErrors, message: [told, split.message].filter(Boolean).join(' ') };
}

/** Splits field errors between the fields and the form message; null when there was no text at all. */
function splitErrors(
  errors: Record<string, readonly string[]>,
  fields: readonly string[],
  mode: ErrorMode,
): FormFailure | null {
  const fieldErrors: FieldMessages = {};
  const rest: string[] = [];
  for (const [field, list] of Object.entries(errors)) {
    const text = list
      .map((message) => message.trim())
      .filter(Boolean)
      .join(' ');
    if (!text) continue;
    if (mode !== 'single' && fields.includes(field)) fieldErrors[field] = text;
    else rest.push(text);
  }
  if (Object.keys(fieldErrors).length === 0 && rest.length === 0) return null;
  return { fieldErrors, message: rest.length > 0 ? rest.join(' ') : null };
}

function errorsAsLists(errors: Record<string, string>): Record<string, string[]> {
  return Object.fromEntries(Object.entries(errors).map(([field, message]) => [field, [message]]));
}
