/** How the dashboard writes dates, people and titles: readable, never a raw timestamp or an empty title. */
import { formatDate } from '#client/app/dates.ts';
import { titleOrUntitled } from '#shared/words.ts';

/** "Nov 22, 2026, 4:05 PM". */
export function formatDateTime(time: number | Date): string {
  return formatDate(time, 'dateTime');
}

/** A week's label on a chart axis: the day it starts, "Nov 16". */
export function formatWeek(time: number | Date): string {
  return formatDate(time, 'utcWeek');
}

/** A machine-readable date for <time dateTime>. */
export function isoOf(time: number | Date): string {
  return new Date(time).toISOString();
}

/** A title as the gallery shows it: an untitled piece still gets words. */
export function titleOf(title: string): string {
  return titleOrUntitled(title);
}
