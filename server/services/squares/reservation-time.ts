/**
 * The reservation calendar (decision 008): the 14-day deadline, the reminder steps before it, and the
 * extension's week, until midnight (decision 027). Days and midnights are those of the site's time zone
 * (SITE_TIMEZONE, UTC unless set), never the process's own, so every process, e-mail and page agrees on the date.
 */
import { EXTENSION_DAYS, RESERVATION_DAYS, RESERVATION_REMINDERS } from '#shared/constants.ts';
import { DAY_MS, HOUR_MS } from '#shared/durations.ts';
import { addDaysIn, endOfDayIn, startOfDayIn } from '#shared/time-zone.ts';

/** The deadline of a new reservation: 14 days (of 24 hours) from the moment it is made. */
export function reservationDeadline(now: number): number {
  return now + RESERVATION_DAYS * DAY_MS;
}

/**
 * The extended deadline (decision 027): midnight in the site's zone ending the day 7 calendar days after the
 * current deadline, so the one extension always adds a full week, whenever it is asked for.
 */
export function extensionDeadline(currentExpiresAt: number, zone: string): number {
  return endOfDayIn(addDaysIn(currentExpiresAt, EXTENSION_DAYS, zone), zone);
}

/** What each reminder step names as the time left (shared/constants.ts holds the steps). */
export const REMINDER_STEPS = RESERVATION_REMINDERS.map((reminder) => reminder.left);

/**
 * When each reminder step falls due for a deadline. The last-day step starts with the deadline's calendar day but
 * never earlier than 12 hours before it, so it stays apart from the 1-day step when the deadline is at midnight.
 */
export function reminderDueTimes(expiresAt: number, zone: string): number[] {
  return RESERVATION_REMINDERS.map(({ daysBefore }) =>
    daysBefore !== null
      ? expiresAt - daysBefore * DAY_MS
      : Math.max(startOfDayIn(expiresAt, zone), expiresAt - 12 * HOUR_MS),
  );
}

/** The latest reminder step due at `now` (before the deadline), or null when none is due yet or it has passed. */
export function latestDueReminder(
  expiresAt: number,
  now: number,
  zone: string,
): { step: number; dueAt: number } | null {
  if (now >= expiresAt) return null;
  const due = reminderDueTimes(expiresAt, zone);
  for (let step = due.length - 1; step >= 0; step--) {
    if (due[step]! <= now) return { step, dueAt: due[step]! };
  }
  return null;
}
