/**
 * The profile form's ZIP lookup (decision 014): a US ZIP's city and state from the offline `zipcodes` data, so by
 * default no third party sees what a user types; ZIP_LOOKUP_URL, when set, is asked first with a short timeout, and any
 * failure falls back to the offline data. An unknown ZIP answers null, never an error.
 */
import type { ZipPlace } from '#shared/profile-api.ts';
import { PROFILE_LIMITS } from '#shared/constants.ts';
import { isUsStateCode } from '#shared/reference/us-states.ts';
import type { ServiceContext } from '../context.ts';
import { hitRateLimit, LIMITS } from '../rate-limit.ts';

export const EXTERNAL_TIMEOUT_MS = 2000;

/** ZIP, ZIP+4 or "ZIP 4": the five-digit ZIP, or null for anything else. */
export function fiveDigitZip(input: string): string | null {
  return /^(\d{5})(?:[- ]?\d{4})?$/.exec(input.trim())?.[1] ?? null;
}

/**
 * Only places a profile can hold: a city and one of the 50 states or DC (territories have their own ISO country
 * codes, and military post codes are not places).
 */
function place(city: unknown, state: unknown): ZipPlace {
  if (typeof city !== 'string' || typeof state !== 'string') return null;
  const name = city.trim();
  if (!name || name.length > PROFILE_LIMITS.place || !isUsStateCode(state)) return null;
  return { city: name, state };
}

/** The offline data, loaded on first use (it is large and most requests never need it). */
let offline: Promise<typeof import('zipcodes')> | null = null;

export async function offlineZipPlace(zip: string): Promise<ZipPlace> {
  offline ??= import('zipcodes').then((m) => ('default' in m ? m.default : m));
  const found = (await offline).lookup(zip);
  return found && found.country === 'US' ? place(found.city, found.state) : null;
}

/** Asks the configured service; null on any failure, timeout or answer without a usable city and state. */
async function externalZipPlace(ctx: ServiceContext, template: string, zip: string): Promise<ZipPlace> {
  try {
    const response = await fetch(template.replaceAll('{zip}', zip), {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(EXTERNAL_TIMEOUT_MS),
    });
    if (!response.ok) return null;
    const body = (await response.json()) as Record<string, unknown> | null;
    // The service answers city and state_short (README.md, ZIP_LOOKUP_URL); a plain state is taken too.
    return body ? place(body.city, body.state_short ?? body.state) : null;
  } catch (error) {
    ctx.log.warn({ err: error }, 'external ZIP lookup failed; using the offline data');
    return null;
  }
}

/** GET /api/misc/zip/{zip} (misc.zip). */
export async function lookupZip(ctx: ServiceContext, input: string, ip: string): Promise<ZipPlace> {
  await hitRateLimit(ctx.db, ctx.clock.now(), LIMITS.zipPerIp, ip);
  const zip = fiveDigitZip(input);
  if (!zip) return null;
  const external = ctx.config.zipLookupUrl ? await externalZipPlace(ctx, ctx.config.zipLookupUrl, zip) : null;
  return external ?? offlineZipPlace(zip);
}
