/**
 * Calendar arithmetic in one named time zone (decision 027): the site's days and midnights, the same on the server,
 * in e-mails and in every visitor's browser, whatever zone the process or the visitor is in.
 */
import { DAY_MS } from './durations.ts';

/** A wall-clock reading: month 1–12. */
interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

const partFormatters = new Map<string, Intl.DateTimeFormat>();

function partsFormatter(zone: string): Intl.DateTimeFormat {
  let formatter = partFormatters.get(zone);
  // Stryker disable next-line ConditionalExpression: a cache; a new formatter each time answers the same, slower
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    // Stryker disable next-line CallExpression: the same cache
    partFormatters.set(zone, formatter);
  }
  return formatter;
}

/** Whether `zone` is an IANA time zone name this runtime knows (e.g. "UTC", "Europe/Paris"). */
export function isTimeZone(zone: string): boolean {
  // Stryker disable next-line ConditionalExpression,MethodExpression,StringLiteral: Intl throws on a blank zone too
  if (zone.trim() === '') return false;
  try {
    partsFormatter(zone);
    return true;
  } catch {
    return false;
  }
}

/** The visitor's (or the process's) own zone. */
export function localTimeZone(): string {
  return new Intl.DateTimeFormat().resolvedOptions().timeZone;
}

function wallTimeIn(ms: number, zone: string): WallTime {
  const read: Record<string, number> = {};
  for (const part of partsFormatter(zone).formatToParts(ms)) {
    // Stryker disable next-line ConditionalExpression,StringLiteral: literals would land under a key nothing reads
    if (part.type !== 'literal') read[part.type] = Number(part.value);
  }
  return {
    year: read.year!,
    month: read.month!,
    day: read.day!,
    hour: read.hour!,
    minute: read.minute!,
    second: read.second!,
    millisecond: ((ms % 1000) + 1000) % 1000,
  };
}

function asUtc(wall: WallTime): number {
  return Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second, wall.millisecond);
}

/** How far the zone's wall clock is ahead of UTC at `ms`. */
export function zoneOffsetAt(ms: number, zone: string): number {
  return asUtc(wallTimeIn(ms, zone)) - ms;
}

/**
 * The instant at which the zone's clock reads `wall` (days and hours may overflow: Date.UTC normalises them).
 * Near a clock change a reading may happen twice (the clock goes back) or never (it springs forward):
 * - read twice: the first of the two, or with `last` the second (a day's last millisecond);
 * - never: the reading on the offset before the change, so the clock's time moved on by the gap (02:30 in a gap from
 *   02:00 to 03:00 gives 03:30); with `last`, moved back by it (on the offset after the change).
 * The offsets a day before and a day after the reading are the only ones it can be on (no zone changes its clock
 * twice within two days), and an instant is the answer when its own offset takes it to the reading.
 */
function instantOf(wall: WallTime, zone: string, last = false): number {
  const target = asUtc(wall);
  const before = target - zoneOffsetAt(target - DAY_MS, zone);
  const after = target - zoneOffsetAt(target + DAY_MS, zone);
  const reads = (instant: number) => instant + zoneOffsetAt(instant, zone) === target;
  if (reads(before) && reads(after)) return last ? Math.max(before, after) : Math.min(before, after);
  if (reads(before)) return before;
  if (reads(after)) return after;
  return last ? after : before;
}

/** The same wall-clock time `days` calendar days later in the zone (so 23 or 25 hours across a clock change). */
export function addDaysIn(ms: number, days: number, zone: string): number {
  const wall = wallTimeIn(ms, zone);
  return instantOf({ ...wall, day: wall.day + days }, zone);
}

/** The first millisecond of the zone's calendar day holding `ms`. */
export function startOfDayIn(ms: number, zone: string): number {
  return instantOf({ ...wallTimeIn(ms, zone), hour: 0, minute: 0, second: 0, millisecond: 0 }, zone);
}

/** The last millisecond (23:59:59.999) of the zone's calendar day holding `ms`: "until midnight". */
export function endOfDayIn(ms: number, zone: string): number {
  return instantOf({ ...wallTimeIn(ms, zone), hour: 23, minute: 59, second: 59, millisecond: 999 }, zone, true);
}

/**
 * A deadline written in the site's zone, e.g. "December 6, 2026", followed by the zone named as a place
 * ("December 6, 2026 (Pacific/Kiritimati)", not "GMT+14", which says nothing about where) when the reader's own
 * clock would put the moment at another time.
 */
export function formatDateIn(
  ms: number,
  siteZone: string,
  style: 'short' | 'long' | 'full',
  options: { readerZone?: string; locale?: string } = {},
): string {
  const readerZone = options.readerZone ?? localTimeZone();
  const text = new Intl.DateTimeFormat(options.locale, { dateStyle: style, timeZone: siteZone }).format(ms);
  return zoneOffsetAt(ms, siteZone) === zoneOffsetAt(ms, readerZone) ? text : `${text} (${siteZone})`;
}

/** A deadline as an e-mail states it: "Friday, June 19, 2026, 11:59 PM (Europe/Paris)", always with its zone. */
export function formatDeadline(ms: number, zone: string): string {
  const text = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    weekday: 'long',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  }).format(ms);
  return `${text} (${zone})`;
}
