/**
 * The site's calendar across clock changes (decision 027): a reservation extended on any day keeps its wall-clock
 * time a week later, and "until midnight" ends at the last millisecond of the date, in zones east and west of UTC,
 * northern and southern, with changes of an hour, half an hour (Lord Howe), at odd minutes (Chatham) and across
 * midnight (Santiago, Nuuk), both ways,
 * over several years. Each answer is checked against the zone's own clock as Intl reads it, not against numbers
 * worked out by hand.
 */
import { describe, expect, it } from 'vitest';
import {
  addDaysIn,
  endOfDayIn,
  formatDateIn,
  isTimeZone,
  localTimeZone,
  startOfDayIn,
  zoneOffsetAt,
} from '#shared/time-zone.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const ZONES = [
  'Europe/Paris',
  'Australia/Sydney',
  'America/New_York',
  'America/Santiago',
  'Pacific/Chatham',
  'Australia/Lord_Howe',
  // Springs forward from 23:00 to 00:00 on a Saturday in March: that day has no 23:59.
  'America/Nuuk',
];
const YEARS = [2025, 2026, 2027];

const readers = new Map<string, Intl.DateTimeFormat>();

/** The zone's clock at `ms`, as "2026-10-25 02:30:00.000". */
function clock(ms: number, zone: string): string {
  let reader = readers.get(zone);
  if (!reader) {
    reader = new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      fractionalSecondDigits: 3,
    });
    readers.set(zone, reader);
  }
  const p = Object.fromEntries(reader.formatToParts(ms).map((part) => [part.type, part.value]));
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}.${p.fractionalSecond}`;
}

const dateOf = (reading: string) => reading.slice(0, 10);
const timeOf = (reading: string) => reading.slice(11);

/** The date `days` calendar days after "YYYY-MM-DD". */
function shiftDate(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y!, m! - 1, d! + days)).toISOString().slice(0, 10);
}

interface ClockChange {
  /** The first millisecond on the new offset. */
  at: number;
  /** How far the clock moved: positive springing forward (a gap), negative falling back (an hour read twice). */
  shift: number;
}

/** The zone's clock changes in `year`, found from its offsets (a day apart, then to the millisecond). */
function clockChanges(zone: string, year: number): ClockChange[] {
  const changes: ClockChange[] = [];
  for (let day = Date.UTC(year, 0, 1); day < Date.UTC(year + 1, 0, 1); day += DAY) {
    const before = zoneOffsetAt(day, zone);
    const after = zoneOffsetAt(day + DAY, zone);
    if (before === after) continue;
    let low = day;
    let high = day + DAY;
    while (high - low > 1) {
      const middle = Math.floor((low + high) / 2);
      if (zoneOffsetAt(middle, zone) === before) low = middle;
      else high = middle;
    }
    changes.push({ at: high, shift: after - before });
  }
  return changes;
}

let found: (ClockChange & { zone: string; year: number })[] | undefined;

/** Every clock change of the zones and years tested (found once, inside a test: nothing runs at import). */
function allChanges() {
  found ??= ZONES.flatMap((zone) =>
    YEARS.flatMap((year) => clockChanges(zone, year).map((change) => ({ zone, year, ...change }))),
  );
  return found;
}

describe('clock changes in the zones tested', () => {
  it('finds both changes every year in each zone', () => {
    for (const zone of ZONES) {
      for (const year of YEARS) {
        const shifts = allChanges()
          .filter((c) => c.zone === zone && c.year === year)
          .map((c) => Math.sign(c.shift));
        expect(shifts.sort(), `${zone} ${year}`).toEqual([-1, 1]);
      }
    }
    // Lord Howe moves its clock by half an hour; Chatham changes at 02:45 / 03:45.
    expect(
      allChanges()
        .filter((c) => c.zone === 'Australia/Lord_Howe')
        .every((c) => Math.abs(c.shift) === HOUR / 2),
    ).toBe(true);
  });
});

describe('the same wall-clock time days later, across a clock change', () => {
  /**
   * For each instant at 15-minute steps whose wall time `days` later falls within an hour and a half of a clock change:
   * the answer reads the same time on the date `days` later; where that time is read twice (falling back), it is the
   * first of the two; where the clock skips it (springing forward), the time moved on by the gap.
   */
  function check(days: number) {
    for (const { zone, at, shift } of allChanges()) {
      const from = at - days * DAY - 1.5 * HOUR;
      for (let ms = from; ms <= from + 3 * HOUR; ms += 15 * MINUTE) {
        const start = clock(ms, zone);
        const answer = addDaysIn(ms, days, zone);
        const read = clock(answer, zone);
        const label = `${zone}: ${start} + ${days} days gave ${read}`;
        if (timeOf(read) === timeOf(start)) {
          expect(dateOf(read), label).toBe(shiftDate(dateOf(start), days));
          // The first time the clock reads it: not also read an hour or half an hour before.
          for (const earlier of [HOUR / 2, HOUR]) expect(clock(answer - earlier, zone), label).not.toBe(read);
        } else {
          // A time the clock skipped: the answer lies within the gap's length after the change, and read on the
          // offset before the change it is the time wanted (02:30 in a gap from 02:00 to 03:00 gives 03:30; 23:00
          // in Nuuk's from 23:00 to 00:00 gives 00:00 the next day).
          expect(shift, label).toBeGreaterThan(0);
          expect(answer, label).toBeGreaterThanOrEqual(at);
          expect(answer - shift, label).toBeLessThan(at);
          expect(answer + zoneOffsetAt(answer - shift, zone), label).toBe(ms + zoneOffsetAt(ms, zone) + days * DAY);
        }
      }
    }
  }

  it('one day later', () => check(1));
  it('a week later (the extension)', () => check(7));
  it('one day earlier', () => check(-1));

  it('keeps 01:30 in Paris at 01:30 the day the clocks go back (24 hours, not 25)', () => {
    const start = Date.UTC(2026, 9, 23, 23, 30); // 01:30 CEST on October 24
    const next = addDaysIn(start, 1, 'Europe/Paris');
    expect(clock(next, 'Europe/Paris')).toBe('2026-10-25 01:30:00.000');
    expect(next - start).toBe(DAY);
    // 02:30 is read twice on October 25: the first time, still on summer time, 24 hours later.
    expect(addDaysIn(start + HOUR, 1, 'Europe/Paris') - (start + HOUR)).toBe(DAY);
    // And Sydney, whose clocks go back at 03:00 on April 5, 2026.
    const sydney = Date.UTC(2026, 3, 3, 15, 30); // 02:30 AEDT on April 4
    expect(addDaysIn(sydney, 1, 'Australia/Sydney') - sydney).toBe(DAY);
  });
});

describe("a day's first and last millisecond, on the days the clocks change", () => {
  it('starts the day at its first millisecond and ends it at its last, the hour read twice included', () => {
    for (const { zone, at } of allChanges()) {
      for (let ms = at - 30 * HOUR; ms <= at + 30 * HOUR; ms += 5 * HOUR) {
        const date = dateOf(clock(ms, zone));
        const first = startOfDayIn(ms, zone);
        const last = endOfDayIn(ms, zone);
        const label = `${zone} ${clock(ms, zone)}`;
        expect(dateOf(clock(first, zone)), label).toBe(date);
        expect(dateOf(clock(first - 1, zone)), label).toBe(shiftDate(date, -1));
        expect(dateOf(clock(last, zone)), label).toBe(date);
        expect(dateOf(clock(last + 1, zone)), label).toBe(shiftDate(date, 1));
      }
    }
  });

  it("ends Santiago's Saturday at its second 23:59 when its clocks go back at midnight", () => {
    // Chile goes back from 00:00 (-03) to 23:00 (-04) on the night of April 4 to 5, 2026: the Saturday lasts 25 hours.
    const saturday = Date.UTC(2026, 3, 4, 15); // noon on April 4
    expect(endOfDayIn(saturday, 'America/Santiago')).toBe(Date.UTC(2026, 3, 5, 3, 59, 59, 999));
    expect(startOfDayIn(saturday, 'America/Santiago')).toBe(Date.UTC(2026, 3, 4, 3));
    // Chile springs forward from 00:00 to 01:00 on September 6, 2026: that Sunday starts at 01:00.
    expect(startOfDayIn(Date.UTC(2026, 8, 6, 15), 'America/Santiago')).toBe(Date.UTC(2026, 8, 6, 4));
  });

  it('ends the day before the gap when the clock skips its last hour (Nuuk, March 28, 2026: 23:00 to 00:00)', () => {
    const saturday = Date.UTC(2026, 2, 28, 12);
    expect(clock(endOfDayIn(saturday, 'America/Nuuk'), 'America/Nuuk')).toBe('2026-03-28 22:59:59.999');
    expect(clock(endOfDayIn(saturday, 'America/Nuuk') + 1, 'America/Nuuk')).toBe('2026-03-29 00:00:00.000');
  });
});

describe("the reader's own zone", () => {
  it("is the process's (or the browser's) zone, and a date names the site's zone when it differs", () => {
    const own = localTimeZone();
    expect(own).toBe(new Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(isTimeZone(own)).toBe(true);
    const deadline = Date.UTC(2026, 5, 16, 11, 59, 59, 999); // midnight ending June 16 in Auckland (UTC+12)
    const other = own === 'Pacific/Auckland' ? 'Asia/Kolkata' : 'Pacific/Auckland';
    expect(formatDateIn(deadline, other, 'long', { locale: 'en-US' })).toMatch(/^June \d+, 2026 \(.+\)$/);
    expect(formatDateIn(deadline, own, 'long', { locale: 'en-US' })).toMatch(/^June \d+, 2026$/);
  });
});
