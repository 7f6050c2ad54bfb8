/**
 * The full ISO 3166-1 country list of the profile form: alpha-2 code and English name, sorted by name, from the
 * maintained i18n-iso-countries package with only its English locale registered (so the client bundle carries one
 * language).
 */
import countries from 'i18n-iso-countries/index.js';
import english from 'i18n-iso-countries/langs/en.json' with { type: 'json' };

countries.registerLocale(english);

export interface Country {
  code: string;
  name: string;
}

export const COUNTRIES: readonly Country[] = Object.entries(countries.getNames('en', { select: 'official' }))
  .map(([code, name]) => ({ code, name }))
  .sort((a, b) => a.name.localeCompare(b.name, 'en'));

const NAME_OF = new Map(COUNTRIES.map((c) => [c.code, c.name]));

export const US = 'US';

export function isCountryCode(code: string): boolean {
  return NAME_OF.has(code);
}

/** The English name of a code, or the code itself when unknown (old rows). */
export function countryName(code: string): string {
  return NAME_OF.get(code) ?? code;
}
