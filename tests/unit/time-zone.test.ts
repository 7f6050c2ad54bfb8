/** The site's calendar (decision 027): days, midnights and dates in one named zone, whatever the process's own. */
import { describe, expect, it } from 'vitest';
import {
  addDaysIn,
  endOfDayIn,
  formatDateIn,
  formatDeadline,
  isTimeZone,
  startOfDayIn,
  zoneOffsetAt,
} from '#shared/time-zone.ts';

const HOUR = 60 * 60 * 1000;

describe('calendar days in a named zone', () => {
  it("ends the day at the zone's own midnight, not the process's", () => {
    // 2026-06-15 20:00 UTC is already June 16 (08:00, NZST = UTC+12) in Auckland.
    const at = Date.UTC(2026, 5, 15, 20);
    expect(endOfDayIn(at, 'UTC')).toBe(Date.UTC(2026, 5, 15, 23, 59, 59, 999));
    expect(endOfDayIn(at, 'Pacific/Auckland')).toBe(Date.UTC(2026, 5, 16, 11, 59, 59, 999));
    expect(startOfDayIn(at, 'Pacific/Auckland')).toBe(Date.UTC(2026, 5, 15, 12));
    // West of UTC the same moment is still June 15 (13:00 in Los Angeles, UTC-7).
    expect(endOfDayIn(at, 'America/Los_Angeles')).toBe(Date.UTC(2026, 5, 16, 6, 59, 59, 999));
  });

  it('adds calendar days across a daylight-saving change (23- and 25-hour days)', () => {
    // Paris springs forward on 2026-03-29 and falls back on 2026-10-25.
    const spring = Date.UTC(2026, 2, 28, 11); // 12:00 CET
    expect(addDaysIn(spring, 1, 'Europe/Paris') - spring).toBe(23 * HOUR);
    const autumn = Date.UTC(2026, 9, 24, 10); // 12:00 CEST
    expect(addDaysIn(autumn, 1, 'Europe/Paris') - autumn).toBe(25 * HOUR);
    expect(addDaysIn(spring, 7, 'UTC') - spring).toBe(7 * 24 * HOUR);
    // Months and years roll over.
    expect(addDaysIn(Date.UTC(2026, 11, 28, 9), 7, 'UTC')).toBe(Date.UTC(2027, 0, 4, 9));
  });

  it('gives the instant after the gap for a wall time the clock skips', () => {
    // 02:30 on 2026-03-08 does not exist in New York (02:00 EST jumps to 03:00 EDT).
    const dayBefore = Date.UTC(2026, 2, 7, 7, 30); // 02:30 EST on March 7
    expect(addDaysIn(dayBefore, 1, 'America/New_York')).toBe(Date.UTC(2026, 2, 8, 7, 30)); // 03:30 EDT
  });

  it('knows zone names and refuses others', () => {
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Europe/Paris')).toBe(true);
    expect(isTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(isTimeZone('')).toBe(false);
    expect(zoneOffsetAt(Date.UTC(2026, 0, 1), 'Asia/Kolkata')).toBe(5.5 * HOUR);
  });
});

describe('dates as the pages write them', () => {
  const deadline = Date.UTC(2026, 5, 16, 11, 59, 59, 999); // midnight ending June 16 in Auckland

  it("writes the site's date, and names the zone as a place when the reader's clock differs", () => {
    expect(
      formatDateIn(deadline, 'Pacific/Auckland', 'long', { readerZone: 'Pacific/Auckland', locale: 'en-US' }),
    ).toBe('June 16, 2026');
    // A reader in Paris (10:00 on June 16 there) still reads the site's date, with its zone.
    expect(formatDateIn(deadline, 'Pacific/Auckland', 'long', { readerZone: 'Europe/Paris', locale: 'en-US' })).toBe(
      'June 16, 2026 (Pacific/Auckland)',
    );
    // In London the reader's clock is on summer time (UTC+1): a UTC site says so.
    expect(
      formatDateIn(Date.UTC(2026, 5, 16, 23, 59), 'UTC', 'long', { readerZone: 'Europe/London', locale: 'en-US' }),
    ).toBe('June 16, 2026 (UTC)');
    // ...but not in winter, when London's clock reads UTC.
    expect(
      formatDateIn(Date.UTC(2026, 0, 16, 23, 59), 'UTC', 'long', { readerZone: 'Europe/London', locale: 'en-US' }),
    ).toBe('January 16, 2026');
  });

  it('states a deadline in full with its zone for e-mails', () => {
    const text = formatDeadline(Date.UTC(2026, 5, 22, 23, 59, 59, 999), 'UTC');
    expect(text).toMatch(/^Monday, June 22, 2026(,| at) 11:59\sPM \(UTC\)$/);
    expect(formatDeadline(Date.UTC(2026, 5, 22, 9, 59, 59, 999), 'Pacific/Kiritimati')).toMatch(
      /^Monday, June 22, 2026(,| at) 11:59\sPM \(Pacific\/Kiritimati\)$/,
    );
  });
});
