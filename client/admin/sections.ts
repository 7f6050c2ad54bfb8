/** The dashboard's sections in the order of its navigation, each with its path under /admin/dashboard. */
import type { AdminCounts } from '#shared/admin-api.ts';
import { cellPath, profilePath } from '#shared/paths.ts';

export const ADMIN_BASE = '/admin/dashboard';

export interface Section {
  key: string;
  label: string;
  /** Relative to ADMIN_BASE; '' is the overview. */
  path: string;
  /** The overview count shown beside the label: work waiting in this section. */
  count?: keyof AdminCounts;
}

export const SECTIONS: readonly Section[] = [
  { key: 'overview', label: 'overview', path: '' },
  { key: 'review', label: 'review', path: 'review', count: 'submittedWaiting' },
  { key: 'removals', label: 'removals', path: 'removals', count: 'openRemovalRequests' },
  { key: 'messages', label: 'messages', path: 'messages', count: 'unhandledMessages' },
  { key: 'users', label: 'users', path: 'users' },
  { key: 'reservations', label: 'reservations', path: 'reservations' },
  { key: 'log', label: 'log', path: 'log' },
];

/** The tree page centred on a square (shared/tree/tree-url.ts reads `cell`). */
export function treeLinkOf(cellToken: string): string {
  return cellPath(cellToken, 'tree');
}

export function detailsLinkOf(cellToken: string): string {
  return cellPath(cellToken, 'details');
}

export function profileLinkOf(userToken: string): string {
  return profilePath(userToken);
}
