/**
 * Lengths of time, in milliseconds, and the reservation's periods in the words pages and e-mails use: one place, so
 * a page cannot say "two weeks" while the rule holds a square for another length.
 */
import { EXTENSION_DAYS, RESERVATION_DAYS } from './constants.ts';

export const MINUTE_MS = 60 * 1000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

const NUMBER_WORDS = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];

/**
 * A number of days in words: whole weeks as weeks ("two weeks", "one week"), anything else in days ("10 days");
 * `digits` writes the number as a figure ("2 weeks"), as short titles do.
 */
export function daysInWords(days: number, { digits = false } = {}): string {
  const [count, unit] = days % 7 === 0 ? [days / 7, 'week'] : [days, 'day'];
  const amount = digits ? String(count) : (NUMBER_WORDS[count] ?? String(count));
  return `${amount} ${unit}${count === 1 ? '' : 's'}`;
}

/** How long a new reservation holds its square ("two weeks"). */
export const RESERVATION_PERIOD = daysInWords(RESERVATION_DAYS);
/** How much the one extension adds ("one week"). */
export const EXTENSION_PERIOD = daysInWords(EXTENSION_DAYS);
