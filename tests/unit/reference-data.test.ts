/** The profile form's reference data (shared/reference/): the full ISO 3166-1 country list and the US states plus DC. */
import { describe, expect, it } from 'vitest';
import { COUNTRIES, countryName, isCountryCode } from '#shared/reference/countries.ts';
import { DEFAULT_US_STATE, isUsStateCode, US_STATES } from '#shared/reference/us-states.ts';

describe('countries', () => {
  it('lists every ISO 3166-1 country once, by English name, sorted', () => {
    expect(COUNTRIES.length).toBe(250);
    expect(new Set(COUNTRIES.map((c) => c.code)).size).toBe(COUNTRIES.length);
    expect(COUNTRIES.every((c) => /^[A-Z]{2}$/.test(c.code) && c.name.length > 0)).toBe(true);
    const names = COUNTRIES.map((c) => c.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
    expect(countryName('FR')).toBe('France');
    expect(isCountryCode('US')).toBe(true);
    expect(isCountryCode('XX')).toBe(false);
    expect(isCountryCode('us')).toBe(false);
  });
});

describe('US states', () => {
  it('has the 50 states and DC, each code once, and AL as the default', () => {
    expect(US_STATES).toHaveLength(51);
    expect(new Set(US_STATES.map((s) => s.code)).size).toBe(51);
    expect(US_STATES.find((s) => s.code === 'DC')?.name).toBe('District of Columbia');
    expect(isUsStateCode(DEFAULT_US_STATE)).toBe(true);
    expect(isUsStateCode('PR')).toBe(false);
  });
});
