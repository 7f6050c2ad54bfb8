import { titleOrUntitled } from '#shared/words.ts';
/** How the dashboard writes dates and people: readable in the staff member's own locale, never a raw timestamp. */

const DATE_TIME = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
// Weeks start on Monday 00:00 UTC (shared/admin-api.ts): read in UTC, so a week never shows as the Sunday before.
const WEEK = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** "Nov 22, 2026, 4:05 PM" (in the reader's locale). */
export function formatDateTime(time: number | Date): string {
  return DATE_TIME.format(time);
}

/** A week's label on a chart axis: the day it starts, "Nov 16". */
export function formatWeek(time: number | Date): string {
  return WEEK.format(time);
}

/** A machine-readable date for <time dateTime>. */
export function isoOf(time: number | Date): string {
  return new Date(time).toISOString();
}

export function fullName(person: { firstname: string; lastname: string }): string {
  return `${person.firstname} ${person.lastname}`.trim() || 'Unnamed';
}

/** A title as the gallery shows it: an untitled piece still gets words. */
export function titleOf(title: string): string {
  return titleOrUntitled(title);
}
