/**
 * The reservation calendar (decision 008): the 14-day deadline, the reminder steps before it, and the
 * extension's week, until midnight (decision 027). Days and midnights are those of the server's
 * timezone (the process's TZ, e.g. TZ=America/New_York), so "until midnight" means the operator's midnight and
 * calendar arithmetic stays right across daylight-saving changes.
 */
import { EXTENSION_DAYS, RESERVATION_DAYS } from '#shared/constants.ts';

export const HOUR_MS = 60 * 60 * 1000;
export const DAY_MS = 24 * HOUR_MS;

/** The deadline of a new reservation: 14 days (of 24 hours) from the moment it is made. */
export function reservationDeadline(now: number): number {
  return now + RESERVATION_DAYS * DAY_MS;
}

/** The same local time of day, `days` calendar days later. */
export function addLocalDays(ms: number, days: number): number {
  const date = new Date(ms);
  date.setDate(date.getDate() + days);
  return date.getTime();
}

export function startOfLocalDay(ms: number): number {
  const date = new Date(ms);
  date.setHours(0, 0, 0, 0);
  return date.getTime();
}

/** The last millisecond of the local day of `ms` (23:59:59.999): "until midnight". */
export function endOfLocalDay(ms: number): number {
  const date = new Date(ms);
  date.setHours(23, 59, 59, 999);
  return date.getTime();
}

/**
 * The extended deadline (decision 027): midnight ending the day 7 calendar days after the current deadline, so the
 * one extension always adds a full week, whenever it is asked for. (Counted from the reminder, as the spec's formula
 * reads, an extension asked for after the first reminder, sent 7 days before the deadline, added only hours.)
 */
export function extensionDeadline(currentExpiresAt: number): number {
  return endOfLocalDay(addLocalDays(currentExpiresAt, EXTENSION_DAYS));
}

/** The reminder steps, in order: 7, 3 and 1 days before the deadline, and once more on its last day. */
export const REMINDER_STEPS = ['7 days', '3 days', '1 day', 'last day'] as const;

/**
 * When each reminder step falls due for a deadline. The last-day step starts with the deadline's calendar day but
 * never earlier than 12 hours before it, so it stays apart from the 1-day step when the deadline is at midnight.
 */
export function reminderDueTimes(expiresAt: number): number[] {
  return [
    expiresAt - 7 * DAY_MS,
    expiresAt - 3 * DAY_MS,
    expiresAt - DAY_MS,
    Math.max(startOfLocalDay(expiresAt), expiresAt - 12 * HOUR_MS),
  ];
}

/** The latest reminder step due at `now` (before the deadline), or null when none is due yet or it has passed. */
export function latestDueReminder(expiresAt: number, now: number): { step: number; dueAt: number } | null {
  if (now >= expiresAt) return null;
  const due = reminderDueTimes(expiresAt);
  for (let step = due.length - 1; step >= 0; step--) {
    if (due[step]! <= now) return { step, dueAt: due[step]! };
  }
  return null;
}

/** A deadline as people read it in an e-mail: "Friday, June 19, 2026 at 11:59 PM" in the server's timezone. */
export function formatDeadline(ms: number): string {
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'full', timeStyle: 'short' }).format(ms);
}
