/**
 * How profile values read on screen: links (only http and https ever become links, whatever was stored), the
 * address line, MEMBER SINCE, and the short dates of the manage-profile tables.
 */
import { withWebScheme } from '#shared/validation/rules.ts';
import { formatDate } from '#client/app/dates.ts';

/**
 * The href for a stored URL, or null when it must not be a link. "www.example.org" (the other accepted form, docs/product.md, Limits)
 * opens as https; every other scheme (javascript:, data:, ...) is never a link.
 */
export function httpHref(url: string): string | null {
  const trimmed = url.trim();
  const candidate = withWebScheme(trimmed);
  if (!/^https?:\/\//i.test(candidate)) return null;
  try {
    const parsed = new URL(candidate);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
}

/** A link's text without the scheme and a lone trailing slash: "https://ada.example/" reads "ada.example". */
export function displayUrl(url: string): string {
  return url
    .trim()
    .replace(/^https?:\/\//i, '')
    .replace(/\/$/, '');
}

/** City, zipcode, state and country name joined by commas, leaving out the empty ones. */
export function addressLine(parts: { city: string; zipcode: string; state: string; countryName: string }): string {
  return [parts.city, parts.zipcode, parts.state, parts.countryName]
    .map((part) => part.trim())
    .filter(Boolean)
    .join(', ');
}

/** MEMBER SINCE in MMMM D, YYYY, uppercase: "NOVEMBER 22, 2026". */
export function memberSince(epochMs: number): string {
  return formatDate(epochMs, 'long').toUpperCase();
}

/** DATE ADDED and DATE FOLLOWED: "Nov 22, 2026". */
export function shortDate(epochMs: number): string {
  return formatDate(epochMs, 'short');
}
