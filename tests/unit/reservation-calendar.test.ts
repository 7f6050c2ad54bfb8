/**
 * The reservation calendar (decisions 008 and 027) as a member meets it: 14 days to make a piece, one extension to
 * midnight a week after the deadline (in the site's zone, across its clock changes), and the reminders at 7, 3 and 1
 * days before, then on the last day, each once and in order.
 */
import { describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS } from '#shared/durations.ts';
import {
  REMINDER_STEPS,
  extensionDeadline,
  latestDueReminder,
  reminderDueTimes,
  reservationDeadline,
} from '#server/services/squares/reservation-time.ts';

const clock = (ms: number, zone: string) =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    hourCycle: 'h23',
    dateStyle: 'short',
    timeStyle: 'medium',
  }).format(ms);

describe('deadlines', () => {
  it('gives a new reservation 14 days of 24 hours', () => {
    const now = Date.UTC(2026, 9, 20, 13, 14, 15);
    expect(reservationDeadline(now) - now).toBe(14 * 24 * HOUR_MS);
  });

  it("extends to the end of the day a week after the deadline, in the site's zone", () => {
    // Deadline 10:00 UTC on June 3: extended to midnight ending June 10, wherever the site is.
    const deadline = Date.UTC(2026, 5, 3, 10);
    expect(extensionDeadline(deadline, 'UTC')).toBe(Date.UTC(2026, 5, 10, 23, 59, 59, 999));
    expect(clock(extensionDeadline(deadline, 'Pacific/Auckland'), 'Pacific/Auckland')).toBe('2026-06-10, 23:59:59');
    expect(clock(extensionDeadline(deadline, 'America/Los_Angeles'), 'America/Los_Angeles')).toBe(
      '2026-06-10, 23:59:59',
    );
  });

  it('extends by a calendar week across a clock change, to the last millisecond of that day', () => {
    // 01:30 CEST on October 20, 2026; Paris goes back an hour on October 25.
    const deadline = Date.UTC(2026, 9, 19, 23, 30);
    const extended = extensionDeadline(deadline, 'Europe/Paris');
    expect(clock(extended, 'Europe/Paris')).toBe('2026-10-27, 23:59:59');
    expect(clock(extended + 1, 'Europe/Paris')).toBe('2026-10-28, 00:00:00');
    // The week before Sydney's clocks go back (April 5, 2026): 02:30 on March 29 is extended to April 5's end.
    const sydney = extensionDeadline(Date.UTC(2026, 2, 28, 15, 30), 'Australia/Sydney');
    expect(clock(sydney, 'Australia/Sydney')).toBe('2026-04-05, 23:59:59');
    expect(clock(sydney + 1, 'Australia/Sydney')).toBe('2026-04-06, 00:00:00');
  });
});

describe('reminders', () => {
  const zone = 'UTC';
  const deadline = Date.UTC(2026, 5, 20, 18); // 18:00 on June 20

  it('names the time left at each step', () => {
    expect(REMINDER_STEPS).toEqual(['7 days', '3 days', '1 day', 'last day']);
  });

  it('falls due 7, 3 and 1 days before, then on the last day, no earlier than 12 hours before the deadline', () => {
    expect(reminderDueTimes(deadline, zone)).toEqual([
      deadline - 7 * DAY_MS,
      deadline - 3 * DAY_MS,
      deadline - DAY_MS,
      deadline - 12 * HOUR_MS,
    ]);
  });

  it('keeps the last-day step apart from the 1-day step for a deadline at midnight', () => {
    const midnight = Date.UTC(2026, 5, 20, 23, 59, 59, 999);
    const due = reminderDueTimes(midnight, zone);
    expect(due[3]).toBe(midnight - 12 * HOUR_MS);
    expect(due[2]).toBe(midnight - DAY_MS);
  });

  it('sends the last-day step at the start of the day for a deadline in its morning', () => {
    const early = Date.UTC(2026, 5, 20, 1);
    expect(reminderDueTimes(early, zone)[3]).toBe(Date.UTC(2026, 5, 20));
    const noon = Date.UTC(2026, 5, 20, 12);
    expect(reminderDueTimes(noon, zone)[3]).toBe(Date.UTC(2026, 5, 20));
    expect(reminderDueTimes(noon + 1, zone)[3]).toBe(Date.UTC(2026, 5, 20) + 1);
  });

  it("starts the last day in the site's zone", () => {
    // 17:00 UTC on June 19 is 02:00 on June 20 in Tokyo: the last day there began at 15:00 UTC.
    const deadline = Date.UTC(2026, 5, 19, 17);
    expect(reminderDueTimes(deadline, 'Asia/Tokyo')[3]).toBe(Date.UTC(2026, 5, 19, 15));
    expect(reminderDueTimes(deadline, 'UTC')[3]).toBe(deadline - 12 * HOUR_MS);
  });

  it('tells which step is due: none before the first, each in turn, none once the deadline has passed', () => {
    const due = reminderDueTimes(deadline, zone);
    expect(latestDueReminder(deadline, due[0]! - 1, zone)).toBeNull();
    for (const [step, dueAt] of due.entries()) {
      expect(latestDueReminder(deadline, dueAt, zone)).toEqual({ step, dueAt });
      expect(latestDueReminder(deadline, dueAt + HOUR_MS, zone)).toEqual({ step, dueAt });
    }
    expect(latestDueReminder(deadline, deadline - 1, zone)).toEqual({ step: 3, dueAt: due[3] });
    expect(latestDueReminder(deadline, deadline, zone)).toBeNull();
    expect(latestDueReminder(deadline, deadline + DAY_MS, zone)).toBeNull();
  });
});
