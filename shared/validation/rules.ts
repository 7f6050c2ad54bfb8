/**
 * The generic validator as valibot pieces, with its default messages (docs/product.md, Limits). Forms and procedures
 * both build their schemas from these, so a rule and its message exist once. The first failing rule of a field is the
 * one shown (see firstErrors).
 */
import * as v from 'valibot';

export const MESSAGES = {
  blank: (name: string) => `${name} cannot be blank.`,
  email: 'Invalid email address.',
  minLength: (n: number) => `Minimal length is ${n} symbols.`,
  maxLength: (n: number) => `Maximal length is ${n} symbols.`,
  specialSymbol: 'There must be at least one number or special sign.',
  date: 'Invalid date value.',
  invalid: 'Invalid value.',
  format: 'Format is invalid.',
  passwordConfirmation: 'The password confirmation does not match.',
  controlCharacters: 'This text contains control characters; remove them and try again.',
} as const;

/**
 * Characters no text field may hold: C0 controls other than tab and line breaks, and U+FFFE and U+FFFF. XML 1.0
 * forbids them, so one in a title would make the Atom feed ill-formed for every reader (server/http/markup.ts drops
 * them on output as well). Global: use with replace, or reset lastIndex before test.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is this pattern's whole purpose
export const FORBIDDEN_TEXT_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/** Whether a text is free of FORBIDDEN_TEXT_CHARACTERS. */
export function hasNoControlCharacters(s: string): boolean {
  FORBIDDEN_TEXT_CHARACTERS.lastIndex = 0;
  return !FORBIDDEN_TEXT_CHARACTERS.test(s);
}

/** A standard address pattern: something@something.tld, no spaces. */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
const SPECIAL_SYMBOL = /[0-9!-/:-@[-`{-~]/;
const URL_PATTERN = /^(https?:\/\/|www\.)[^\s<>"]+$/i;

/** Any text without control characters; null and undefined read as empty. */
export const text = () =>
  v.pipe(
    v.optional(v.nullable(v.string(MESSAGES.invalid)), ''),
    v.transform((s) => s ?? ''),
    v.check(hasNoControlCharacters, MESSAGES.controlCharacters),
  );

/** Not empty after trimming; the value itself is trimmed. */
export const requiredText = (name: string, max: number) =>
  v.pipe(text(), v.trim(), v.nonEmpty(MESSAGES.blank(name)), v.maxLength(max, MESSAGES.maxLength(max)));

export const optionalText = (max: number) => v.pipe(text(), v.trim(), v.maxLength(max, MESSAGES.maxLength(max)));

export const requiredEmail = (name: string, max: number) =>
  v.pipe(
    text(),
    v.trim(),
    v.nonEmpty(MESSAGES.blank(name)),
    v.regex(EMAIL_PATTERN, MESSAGES.email),
    v.maxLength(max, MESSAGES.maxLength(max)),
  );

/** A password is never trimmed: spaces are characters like any other. */
export const newPassword = (name: string, min: number, max: number) =>
  v.pipe(
    text(),
    v.check((s) => s.trim().length > 0, MESSAGES.blank(name)),
    v.minLength(min, MESSAGES.minLength(min)),
    v.maxLength(max, MESSAGES.maxLength(max)),
    v.regex(SPECIAL_SYMBOL, MESSAGES.specialSymbol),
  );

export const anyPassword = (name: string, max: number) =>
  v.pipe(
    text(),
    v.check((s) => s.trim().length > 0, MESSAGES.blank(name)),
    v.maxLength(max, MESSAGES.maxLength(max)),
  );

/** Empty, or a URL starting with http(s):// or www. (never javascript: or another scheme). */
/** Line breaks as one \n each: a form posted as multipart carries a textarea's as \r\n. Limits count the \n form. */
export function normalizeLineBreaks(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

/** A URL that starts with "www.", with https:// in front; any other text as it is. */
export function withWebScheme(url: string): string {
  return /^www\./i.test(url) ? `https://${url}` : url;
}

export const optionalUrl = (max: number) =>
  v.pipe(
    text(),
    v.trim(),
    v.maxLength(max, MESSAGES.maxLength(max)),
    v.check((s) => s === '' || URL_PATTERN.test(s), MESSAGES.format),
  );

export const flag = () =>
  v.pipe(
    v.optional(v.union([v.boolean(), v.picklist(['0', '1', 'true', 'false', 'on'])]), false),
    v.transform((b) => b === true || b === '1' || b === 'true' || b === 'on'),
  );

/** Field name to its first message: the generic validator shows one message a field. */
export function firstErrors(issues: readonly v.BaseIssue<unknown>[]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const key = v.getDotPath(issue) ?? '_';
    errors[key] ??= issue.message;
  }
  return errors;
}
