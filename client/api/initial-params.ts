/**
 * The page's boot data: the initial parameters and the CSRF token. The server injects both into index.html; under
 * the Vite dev server they are absent, so they are fetched from GET /api/initial-params (docs/api.md) instead.
 */
import type { InitialParams } from '#shared/api-types.ts';
import { camelKeys } from '#shared/key-case.ts';

export interface PageBoot {
  params: InitialParams;
  csrfToken: string;
}

let boot: PageBoot | null = null;

/** The boot data the server placed in the page, or null when the page came from elsewhere (the dev server). */
export function readInjectedBoot(doc: Document = document): PageBoot | null {
  const script = doc.getElementById('initial-params');
  const meta = doc.querySelector<HTMLMetaElement>('meta[name="csrf-token"]');
  if (!script?.textContent || !meta?.content) return null;
  try {
    return { params: JSON.parse(script.textContent) as InitialParams, csrfToken: meta.content };
  } catch {
    return null;
  }
}

async function fetchBoot(): Promise<PageBoot> {
  const response = await fetch('/api/initial-params', {
    headers: { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' },
    credentials: 'same-origin',
  });
  if (!response.ok) throw new Error(`The page's settings could not be loaded (HTTP ${response.status}).`);
  // REST answers name their fields in snake_case; the page's own copy (and the code) uses camelCase.
  const body = (await response.json()) as { r: unknown };
  return camelKeys(body.r) as PageBoot;
}

/** Reads (or fetches) the boot data once; every later call returns the same. */
export async function loadBoot(): Promise<PageBoot> {
  if (boot) return boot;
  boot = readInjectedBoot() ?? (await fetchBoot());
  return boot;
}

function requireBoot(): PageBoot {
  if (!boot) throw new Error('loadBoot() must finish before the app reads its initial parameters.');
  return boot;
}

export function initialParams(): InitialParams {
  return requireBoot().params;
}

/** Headers every call to our own server sends (docs/api.md, CSRF; decision 004). */
export function apiHeaders(): Record<string, string> {
  return { 'X-Requested-With': 'XMLHttpRequest', 'X-CSRF-Token': boot?.csrfToken ?? '' };
}
