/**
 * How the pages write dates, one table for all: in the reader's own time zone, in English as the rest of the site.
 * Deadlines are the exception: they are midnights of the site's zone (client/app/site-time.ts).
 */
const FORMATS = {
  /** "Nov 22, 2026": dates added, followed, asked. */
  short: new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' }),
  /** "November 22, 2026". */
  long: new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', year: 'numeric' }),
  /** "Nov 22, 2026, 4:05 PM": the staff dashboard's moments. */
  dateTime: new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }),
  /** "Nov 16": a week on a chart axis; weeks start on Monday 00:00 UTC, so read in UTC. */
  utcWeek: new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' }),
  /** "November 22, 2026" of a UTC day: the replay's days are UTC days, as its `?at=` links. */
  utcDay: new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' }),
};

export type DateFormat = keyof typeof FORMATS;

export function formatDate(time: number | Date, format: DateFormat): string {
  return FORMATS[format].format(time);
}
