/** The reservation's periods in words, as every page and e-mail says them, follow the rule's numbers. */
import { describe, expect, it } from 'vitest';
import { EXTENSION_DAYS, RESERVATION_DAYS } from '#shared/constants.ts';
import { DAY_MS, daysInWords, EXTENSION_PERIOD, HOUR_MS, RESERVATION_PERIOD } from '#shared/durations.ts';

describe('durations', () => {
  it('says whole weeks as weeks and other lengths as days, in words or figures', () => {
    expect(daysInWords(14)).toBe('two weeks');
    expect(daysInWords(7)).toBe('one week');
    expect(daysInWords(14, { digits: true })).toBe('2 weeks');
    expect(daysInWords(1)).toBe('one day');
    expect(daysInWords(10)).toBe('ten days');
    expect(daysInWords(12)).toBe('12 days');
    expect(daysInWords(77)).toBe('11 weeks');
  });

  it('names the reservation and its extension from their lengths in days', () => {
    expect(RESERVATION_PERIOD).toBe(daysInWords(RESERVATION_DAYS));
    expect(EXTENSION_PERIOD).toBe(daysInWords(EXTENSION_DAYS));
    expect([RESERVATION_PERIOD, EXTENSION_PERIOD]).toEqual(['two weeks', 'one week']);
    expect(DAY_MS).toBe(24 * HOUR_MS);
    expect(HOUR_MS).toBe(3_600_000);
  });
});
