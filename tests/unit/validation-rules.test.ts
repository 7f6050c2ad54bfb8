/**
 * The generic validator's rules (shared/validation/rules.ts) as forms meet them: fields missing or null, text
 * trimmed, the message shown for each mistake (the first failing rule of a field), e-mail and web addresses checked
 * from their first character to their last, passwords never trimmed, checkboxes as browsers post them.
 */
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  MESSAGES,
  anyPassword,
  firstErrors,
  flag,
  hasNoControlCharacters,
  newPassword,
  normalizeLineBreaks,
  optionalText,
  optionalUrl,
  requiredEmail,
  requiredText,
  text,
  withWebScheme,
} from '#shared/validation/rules.ts';

/** The form, built in the test that submits it (nothing of the rules runs at import). */
const form = () =>
  v.object({
    name: requiredText('Name', 10),
    note: optionalText(10),
    email: requiredEmail('Email', 40),
    password: newPassword('Password', 6, 12),
    current: anyPassword('Current password', 12),
    site: optionalUrl(60),
    subscribe: flag(),
    free: text(),
  });

const valid = {
  name: 'Ada',
  note: 'hello',
  email: 'ada@example.org',
  password: 'secret-1',
  current: 'x',
  site: 'https://ada.example',
  subscribe: 'on',
  free: 'anything',
};

/** The form's values, or the first message of each field that failed. */
function submit(fields: Record<string, unknown>) {
  const result = v.safeParse(form(), fields);
  return result.success ? { values: result.output } : { errors: firstErrors(result.issues) };
}

const errorOf = (field: string, value: unknown) => submit({ ...valid, [field]: value }).errors?.[field];
const valueOf = (field: string, value: unknown) => (submit({ ...valid, [field]: value }).values as any)?.[field];

describe('a form with fields missing or null', () => {
  it('reads a missing or null field as empty: required ones say so, optional ones are empty', () => {
    expect(submit({})).toEqual({
      errors: {
        name: 'Name cannot be blank.',
        email: 'Email cannot be blank.',
        password: 'Password cannot be blank.',
        current: 'Current password cannot be blank.',
      },
    });
    const nulls = Object.fromEntries(Object.keys(valid).map((key) => [key, null]));
    expect(submit({ ...nulls, subscribe: undefined }).errors).toEqual(submit({}).errors);
    const { values } = submit({ name: 'Ada', email: 'ada@example.org', password: 'secret-1', current: 'x' });
    expect(values).toEqual({ ...valid, note: '', site: '', subscribe: false, free: '' });
    expect(valueOf('note', null)).toBe('');
    expect(valueOf('site', null)).toBe('');
    expect(valueOf('free', null)).toBe('');
  });

  it('refuses a value that is not text', () => {
    expect(errorOf('name', 42)).toBe(MESSAGES.invalid);
    expect(errorOf('free', ['a'])).toBe(MESSAGES.invalid);
  });

  it('says blank for text of spaces only, and keeps the trimmed text', () => {
    expect(errorOf('name', '   ')).toBe('Name cannot be blank.');
    expect(errorOf('email', ' \t ')).toBe('Email cannot be blank.');
    expect(valueOf('name', '  Ada Byron ')).toBe('Ada Byron');
    expect(valueOf('note', '  hi  ')).toBe('hi');
    expect(valueOf('email', ' ada@example.org ')).toBe('ada@example.org');
    expect(valueOf('site', ' https://x.example ')).toBe('https://x.example');
    // Free text is kept as written.
    expect(valueOf('free', '  as is ')).toBe('  as is ');
  });

  it('counts the limit after trimming, and names it', () => {
    expect(valueOf('name', ' '.repeat(5) + 'a'.repeat(10) + ' ')).toBe('a'.repeat(10));
    expect(errorOf('name', 'a'.repeat(11))).toBe('Maximal length is 10 symbols.');
    expect(valueOf('note', 'a'.repeat(10))).toBe('a'.repeat(10));
    expect(errorOf('note', 'a'.repeat(11))).toBe('Maximal length is 10 symbols.');
    expect(errorOf('site', 'https://' + 'a'.repeat(53))).toBe('Maximal length is 60 symbols.');
    expect(valueOf('site', 'https://' + 'a'.repeat(52))).toBe('https://' + 'a'.repeat(52));
  });

  it('refuses control characters in any text, and allows tabs and line breaks', () => {
    for (const bad of ['a\u0000b', 'a\u0008', '\u000B', '\u000C', 'x\u000E', '\u001F', '\uFFFE', '\uFFFF']) {
      expect(errorOf('free', bad), JSON.stringify(bad)).toBe(MESSAGES.controlCharacters);
      expect(hasNoControlCharacters(bad)).toBe(false);
    }
    for (const fine of ['tab\there', 'line\nbreak', 'cr\r\nlf', 'space \u0020', 'é ✓ \u007F\uFFFD']) {
      expect(valueOf('free', fine), JSON.stringify(fine)).toBe(fine);
      expect(hasNoControlCharacters(fine)).toBe(true);
    }
    // The same answer however often it is asked (the pattern is global).
    expect([1, 2, 3].map(() => hasNoControlCharacters('a\u0001'))).toEqual([false, false, false]);
    expect(errorOf('name', 'Ad\u0007a')).toBe(MESSAGES.controlCharacters);
  });
});

describe('e-mail addresses', () => {
  it('accepts an address with a dotted domain', () => {
    for (const email of ['a@b.co', 'first.last+tag@mail.example.org', 'x@y.z.w']) {
      expect(valueOf('email', email)).toBe(email);
    }
  });

  it('refuses anything else, checked from the first character to the last', () => {
    for (const email of [
      'ada',
      'ada@example',
      '@example.org',
      'ada@',
      'ada@.org',
      'ada@example.',
      'ada@example..org',
      'ada@@example.org',
      'ada@exa@mple.org',
      'ada lovelace@example.org',
      'ada@exam ple.org',
      'ada@example.org and more',
      'write to ada@example.org',
      'ada@example.org\nbcc:eve@example.org',
    ]) {
      expect(errorOf('email', email), email).toBe(MESSAGES.email);
    }
  });

  it('says blank before invalid, and invalid before too long', () => {
    expect(errorOf('email', '')).toBe('Email cannot be blank.');
    expect(errorOf('email', 'not an address at all')).toBe(MESSAGES.email);
    expect(errorOf('email', 'a'.repeat(29) + '@example.org')).toBe('Maximal length is 40 symbols.');
    expect(valueOf('email', 'a'.repeat(28) + '@example.org')).toBe('a'.repeat(28) + '@example.org');
  });
});

describe('web addresses', () => {
  it('accepts http, https and www. addresses, in any case', () => {
    for (const url of ['https://www.x', 'http://a', 'www.x', 'HTTPS://EXAMPLE.ORG/a?b=c#d', 'WWW.EXAMPLE.ORG']) {
      expect(valueOf('site', url), url).toBe(url);
    }
    expect(valueOf('site', '')).toBe('');
  });

  it('refuses other schemes and anything around the address', () => {
    for (const url of [
      "javascript:fetch('https://evil.example')",
      'javascript:alert(1)//https://x',
      'data:text/html,<b>https://x</b>',
      'ftp://example.org',
      'example.org',
      'https//example.org',
      'see https://example.org',
      'https://exa mple.org',
      'https://x" onclick="alert(1)',
      'https://x<script>',
      'https://x>',
      'https://a\nb',
      'www.',
      'https://',
    ]) {
      expect(errorOf('site', url), url).toBe(MESSAGES.format);
    }
  });

  it('puts https:// before a www. address, and leaves any other text as it is', () => {
    expect(withWebScheme('www.example.org')).toBe('https://www.example.org');
    expect(withWebScheme('WWW.example.org')).toBe('https://WWW.example.org');
    expect(withWebScheme('https://www.example.org')).toBe('https://www.example.org');
    expect(withWebScheme('http://www.example.org')).toBe('http://www.example.org');
    expect(withWebScheme('wwwexample.org')).toBe('wwwexample.org');
    expect(withWebScheme('see www.example.org')).toBe('see www.example.org');
    expect(withWebScheme('')).toBe('');
  });
});

describe('passwords', () => {
  it('keeps spaces: a password is never trimmed', () => {
    expect(valueOf('password', '  pass 1  ')).toBe('  pass 1  ');
    expect(valueOf('current', ' x ')).toBe(' x ');
  });

  it('says blank for spaces only, then too short, too long, and without a number or sign', () => {
    expect(errorOf('password', '        ')).toBe('Password cannot be blank.');
    expect(errorOf('current', '   ')).toBe('Current password cannot be blank.');
    expect(errorOf('password', 'ab1')).toBe('Minimal length is 6 symbols.');
    expect(valueOf('password', 'abcde1')).toBe('abcde1');
    expect(valueOf('password', 'abcdefghijk1')).toBe('abcdefghijk1');
    expect(errorOf('password', 'abcdefghijkl1')).toBe('Maximal length is 12 symbols.');
    expect(errorOf('current', 'x'.repeat(13))).toBe('Maximal length is 12 symbols.');
    expect(valueOf('current', 'x'.repeat(12))).toBe('x'.repeat(12));
    expect(errorOf('password', 'abcdefgh')).toBe(MESSAGES.specialSymbol);
  });

  it('counts every ASCII number and sign as special, and letters, spaces and other characters not', () => {
    const signs = '0123456789!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';
    for (const sign of signs) expect(errorOf('password', `abcdef${sign}`), sign).toBeUndefined();
    for (const other of [' ', 'A', 'Z', 'a', 'z', 'é', '¡', '€', '٣']) {
      expect(errorOf('password', `abcdef${other}`), other).toBe(MESSAGES.specialSymbol);
    }
  });
});

describe('checkboxes', () => {
  it('reads a ticked box as true, however it is posted', () => {
    for (const ticked of ['on', '1', 'true', true]) expect(valueOf('subscribe', ticked), String(ticked)).toBe(true);
  });

  it('reads an unticked box (or none) as false', () => {
    for (const unticked of ['0', 'false', false, undefined]) {
      expect(valueOf('subscribe', unticked), String(unticked)).toBe(false);
    }
  });

  it('refuses anything else', () => {
    for (const odd of ['yes', 'off', 'ON', '', 2, null]) {
      expect(errorOf('subscribe', odd), String(odd)).toBeDefined();
    }
  });
});

describe('line breaks and messages', () => {
  it('writes every line break as \\n, so a textarea posted as multipart counts as typed', () => {
    expect(normalizeLineBreaks('a\r\nb\rc\nd\r\n\r\n')).toBe('a\nb\nc\nd\n\n');
    expect(normalizeLineBreaks('no breaks')).toBe('no breaks');
  });

  it("shows each field's first message, under the field's path", () => {
    const nested = v.object({
      who: v.object({ name: requiredText('Name', 3) }),
      tags: v.array(requiredText('Tag', 3)),
    });
    const result = v.safeParse(nested, { who: { name: 'toolong' }, tags: ['ok', ' ', 'long!'] });
    expect(result.success).toBe(false);
    expect(firstErrors(result.issues!)).toEqual({
      'who.name': 'Maximal length is 3 symbols.',
      'tags.1': 'Tag cannot be blank.',
      'tags.2': 'Maximal length is 3 symbols.',
    });
    // A rule over the whole form has no field: its message is filed under '_'.
    const whole = v.pipe(
      v.object({ a: text() }),
      v.check(() => false, 'Whole form refused.'),
    );
    const refused = v.safeParse(whole, { a: 'x' });
    expect(firstErrors(refused.issues!)).toEqual({ _: 'Whole form refused.' });
    // Two failures of one field: the first is shown.
    const twice = v.safeParse(v.object({ p: newPassword('P', 6, 9) }), { p: 'abc' });
    expect(twice.issues!.length).toBeGreaterThan(1);
    expect(firstErrors(twice.issues!)).toEqual({ p: 'Minimal length is 6 symbols.' });
  });

  it('states every message a form may show', () => {
    expect(MESSAGES.blank('City')).toBe('City cannot be blank.');
    expect(MESSAGES.minLength(8)).toBe('Minimal length is 8 symbols.');
    expect(MESSAGES.maxLength(8)).toBe('Maximal length is 8 symbols.');
    expect(MESSAGES).toMatchObject({
      email: 'Invalid email address.',
      specialSymbol: 'There must be at least one number or special sign.',
      date: 'Invalid date value.',
      invalid: 'Invalid value.',
      format: 'Format is invalid.',
      passwordConfirmation: 'The password confirmation does not match.',
      controlCharacters: 'This text contains control characters; remove them and try again.',
    });
  });
});
