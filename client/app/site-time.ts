/** Reservation deadlines as every page writes them: dates of the site's time zone, named when the reader's differs. */
import { initialParams } from '#client/api/initial-params.ts';
import { formatDateIn } from '#shared/time-zone.ts';

/** The site's time zone from the page's initial parameters (UTC where they could not be read). */
export function siteTimeZone(): string {
  try {
    return initialParams().settings.timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/**
 * A deadline's date, written out the one way every page writes it ("December 6, 2026": a numeric date reads
 * differently abroad), in the site's zone, with "(Europe/Paris)" when the reader's clock differs.
 */
export function formatDeadlineDate(time: number): string {
  return formatDateIn(time, siteTimeZone(), 'long');
}
