/**
 * fast-check arbitraries of random and hostile input for the fuzz tests: huge and strange strings, full-text query
 * syntax, SQL, path traversal, markup, numbers where strings go, nested objects and arrays, and prototype-pollution
 * keys as own properties (as JSON.parse makes them).
 */
import fc from 'fast-check';

/** Strings that have broken servers before. */
export const NASTY_STRINGS: readonly string[] = [
  '',
  ' ',
  '"*',
  '"',
  'NEAR(',
  'NEAR(a b, 2)',
  'OR',
  'a OR b AND NOT c',
  '*',
  '^abc',
  'col:term',
  '(((',
  "'; DROP TABLE users; --",
  "' OR '1'='1",
  '../../../etc/passwd',
  '..%2F..%2Fetc%2Fpasswd',
  '..\\..\\windows\\win.ini',
  '/dev/zero',
  '\u0000',
  'a\u0000b',
  '%00',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  '{{7*7}}${7*7}',
  '\u202eevil',
  '\ud800',
  '🎨🌳👩‍👩‍👧‍👦',
  'Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǵ̘̝͂o̴',
  'ﷺ',
  'NaN',
  'Infinity',
  '-0',
  '1e309',
  '9007199254740993',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  'x'.repeat(5_000),
  'é'.repeat(70_000),
];

/** Keys a hostile object carries besides the schema's own. */
const NASTY_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '',
  ' ',
  '0',
  'length',
  'then',
];

/** Token-shaped strings (16 to 64 URL-safe characters) that name nothing. */
export const tokenLike = fc.string({
  minLength: 16,
  maxLength: 64,
  unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-'),
});

export function hostileString(realTokens: readonly string[] = []): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
    { weight: 2, arbitrary: fc.string({ maxLength: 80 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    { weight: 2, arbitrary: tokenLike },
    ...(realTokens.length > 0 ? [{ weight: 3, arbitrary: fc.constantFrom(...realTokens) }] : []),
  );
}

const hostileNumber = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -1, 1, 2, 3, 4, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 1e308, -1e308, 0.5),
);

/** Any JSON-able value, hostile at every level. */
export function hostileValue(realTokens: readonly string[] = []): fc.Arbitrary<unknown> {
  const leaf = fc.oneof(hostileString(realTokens), hostileNumber, fc.boolean(), fc.constant(null));
  return fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      { weight: 6, arbitrary: leaf },
      { weight: 1, arbitrary: fc.array(tie('value'), { maxLength: 4 }) },
      {
        weight: 1,
        arbitrary: fc.dictionary(fc.oneof(fc.constantFrom(...NASTY_KEYS), fc.string({ maxLength: 8 })), tie('value'), {
          maxKeys: 4,
        }),
      },
    ),
  })).value;
}

/** Objects that try to pollute Object.prototype when merged, with the keys as own properties. */
export const pollution = fc
  .constantFrom(
    '{"__proto__":{"polluted":"yes"}}',
    '{"constructor":{"prototype":{"polluted":"yes"}}}',
    '{"token":"x","__proto__":{"isAdmin":true,"role":2}}',
  )
  .map((json) => JSON.parse(json) as Record<string, unknown>);

/**
 * A procedure's input: anything at all, or an object with the schema's own keys (some left out) holding hostile
 * values, sometimes with polluting keys mixed in.
 */
export function hostileInput(keys: readonly string[], realTokens: readonly string[] = []): fc.Arbitrary<unknown> {
  const value = hostileValue(realTokens);
  const shaped =
    keys.length === 0
      ? fc.dictionary(fc.string({ maxLength: 8 }), value, { maxKeys: 3 })
      : fc.record(Object.fromEntries(keys.map((key) => [key, value])), { requiredKeys: [] });
  return fc.oneof(
    { weight: 1, arbitrary: value },
    { weight: 1, arbitrary: pollution },
    {
      weight: 4,
      arbitrary: fc
        .tuple(shaped, fc.option(pollution, { nil: undefined }))
        .map(([base, extra]) => (extra ? { ...extra, ...(base as object) } : base)),
    },
  );
}

/** Fails when anything has written to Object.prototype. */
export function prototypeIsClean(): boolean {
  const probe = {} as Record<string, unknown>;
  return probe.polluted === undefined && probe.isAdmin === undefined && probe.role === undefined;
}
