/**
 * Every time zone the runtime knows, over five years: on each day a zone's clock changes, and the days either side,
 * a day starts at its first millisecond and ends at its last, "a week later" lands on the date a week later, and a
 * reservation ending at midnight gets its last-day reminder on its last day, before the deadline, after the others.
 * The clock changes are found from the zones' own offsets, so a zone that changes its rules is covered as it is.
 */
import { describe, expect, it } from 'vitest';
import { DAY_MS } from '#shared/durations.ts';
import { addDaysIn, endOfDayIn, startOfDayIn, zoneOffsetAt } from '#shared/time-zone.ts';
import { reminderDueTimes } from '#server/services/squares/reservation-time.ts';

const FROM = Date.UTC(2025, 0, 1);
const TO = Date.UTC(2030, 0, 1);
const ZONES = Intl.supportedValuesOf('timeZone');

const dateFormatters = new Map<string, Intl.DateTimeFormat>();
/** The zone's calendar date at `ms`, as days since 1970-01-01 (so dates compare and add as numbers). */
function dayNumberIn(ms: number, zone: string): number {
  let format = dateFormatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, year: 'numeric', month: 'numeric', day: 'numeric' });
    dateFormatters.set(zone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(ms).map((part) => [part.type, Number(part.value)]));
  return Date.UTC(parts.year!, parts.month! - 1, parts.day!) / DAY_MS;
}

/** The instants at which the zone's offset changes between FROM and TO, each to the minute. */
function clockChanges(zone: string): number[] {
  const changes: number[] = [];
  const step = 7 * DAY_MS;
  for (let at = FROM; at < TO; at += step) {
    if (zoneOffsetAt(at, zone) === zoneOffsetAt(at + step, zone)) continue;
    let [low, high] = [at, at + step];
    while (high - low > 60_000) {
      const middle = low + Math.floor((high - low) / 2);
      if (zoneOffsetAt(middle, zone) === zoneOffsetAt(low, zone)) low = middle;
      else high = middle;
    }
    changes.push(high);
  }
  return changes;
}

/** What must hold of the calendar day holding `t`; answers the first thing that does not, or null. */
function dayFault(t: number, zone: string): string | null {
  const day = dayNumberIn(t, zone);
  const start = startOfDayIn(t, zone);
  const end = endOfDayIn(t, zone);
  if (!(start <= t && t <= end)) return `the day of ${t} is ${start}..${end}, without it`;
  if (dayNumberIn(start, zone) !== day || dayNumberIn(start - 1, zone) !== day - 1)
    return `the day of ${t} starts at ${start}, not at its first millisecond`;
  if (dayNumberIn(end, zone) !== day || dayNumberIn(end + 1, zone) !== day + 1)
    return `the day of ${t} ends at ${end}, not at its last millisecond`;
  if (dayNumberIn(addDaysIn(t, 7, zone), zone) !== day + 7) return `a week after ${t} is not on the date a week later`;
  const due = reminderDueTimes(end, zone);
  const lastDay = due.at(-1)!;
  if (dayNumberIn(lastDay, zone) !== day || lastDay >= end)
    return `a deadline at the midnight ending the day of ${t} has its last-day reminder at ${lastDay}`;
  if (due.some((at, i) => i > 0 && at <= due[i - 1]!))
    return `the reminders of ${end} are out of order: ${due.join(', ')}`;
  return null;
}

describe('every time zone, 2025 to 2029', () => {
  it(`finds clock changes to test in the zones that have them (${ZONES.length} zones)`, () => {
    const changing = ZONES.filter((zone) => clockChanges(zone).length > 0);
    expect(changing).toEqual(expect.arrayContaining(['Europe/Paris', 'America/Santiago', 'Australia/Lord_Howe']));
    expect(clockChanges('Asia/Tokyo')).toEqual([]);
  });

  it('keeps days, weeks and reminders true on every day a clock changes, and the days either side', () => {
    const faults: string[] = [];
    for (const zone of ZONES) {
      for (const change of clockChanges(zone)) {
        // Instants around the change: just before and after it, and across the days either side.
        const instants = [change - 1, change, change + 1];
        for (let hours = -36; hours <= 36; hours += 5) instants.push(change + hours * 3_600_000);
        for (const t of instants) {
          const fault = dayFault(t, zone);
          if (fault) faults.push(`${zone}: ${fault}`);
        }
      }
      // And an ordinary day, for the zones that never change their clocks.
      const fault = dayFault(Date.UTC(2027, 6, 14, 9, 30), zone);
      if (fault) faults.push(`${zone}: ${fault}`);
    }
    expect(faults.slice(0, 20)).toEqual([]);
  });
});
