/**
 * The view in the address, so a shared link opens at that place (decision 010): `/observe?row=R&col=C&zoom=Z` (the
 * square mid-screen) is written and read, `/observe?cell=TOKEN&zoom=Z` read, centred on that cell. Anything malformed
 * (a zoom off the 0.5..2.5 scale, a row that is not a number) reads as "no usable view": the default view opens.
 */
import { TREE_VIEW } from '../constants.ts';
import { DAY_MS } from '../durations.ts';
import { TOKEN_PATTERN } from '../validation/common.ts';

/** The tree page's path (docs/product.md, Screens and routes). */
export const TREE_PAGE_PATH = '/observe';

export type UrlView =
  | { kind: 'none' }
  | { kind: 'invalid' }
  | { kind: 'position'; row: number; column: number; scale: number }
  | { kind: 'cell'; token: string; scale: number };

const VIEW_PARAMS = ['row', 'col', 'zoom', 'cell'] as const;
const MAX_POSITION = 1_000_000;

function readInteger(value: string | null): number | null {
  if (value === null || !/^-?\d{1,7}$/.test(value.trim())) return null;
  const n = Number(value);
  return Math.abs(n) <= MAX_POSITION ? n : null;
}

function readZoom(value: string | null): number | null | 'bad' {
  if (value === null) return null;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < TREE_VIEW.zoomMin || n > TREE_VIEW.zoomMax) return 'bad';
  return n;
}

export function parseTreeUrl(search: string): UrlView {
  const params = new URLSearchParams(search);
  if (!VIEW_PARAMS.some((name) => params.has(name))) return { kind: 'none' };
  const zoom = readZoom(params.get('zoom'));
  if (zoom === 'bad') return { kind: 'invalid' };
  const scale = zoom ?? TREE_VIEW.zoomDefault;
  const token = params.get('cell');
  if (token !== null) return TOKEN_PATTERN.test(token) ? { kind: 'cell', token, scale } : { kind: 'invalid' };
  const row = readInteger(params.get('row'));
  const column = readInteger(params.get('col'));
  if (row === null || column === null) return { kind: 'invalid' };
  return { kind: 'position', row, column, scale };
}

/** The search part for a view, keeping any other parameters the address had. */
export function formatTreeUrl(currentSearch: string, view: { row: number; column: number; scale: number }): string {
  const params = new URLSearchParams(currentSearch);
  for (const name of VIEW_PARAMS) params.delete(name);
  params.set('row', String(view.row));
  params.set('col', String(view.column));
  params.set('zoom', String(Math.round(view.scale * 1000) / 1000));
  return `?${params.toString()}`;
}

/**
 * `?at=YYYY-MM-DD`: the growth replay opens on the tree as it was at the end of that day (UTC), paused. Answers
 * that moment in Unix ms, or null when the address has no such day (absent, malformed, or not a real date).
 */
export function parseReplayDay(search: string): number | null {
  const value = new URLSearchParams(search).get('at');
  const match = value === null ? null : /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim());
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const start = Date.UTC(year, month - 1, day);
  // Date.UTC rolls 2025-02-30 over to March: such a day is not one.
  if (new Date(start).getUTCDate() !== day || new Date(start).getUTCMonth() !== month - 1) return null;
  return start + DAY_MS - 1;
}

/** What the replay says when the address names a day it cannot show (the live tree is shown, the day leaves the address). */
export const NOT_A_DAY =
  'The address names no day the replay can show (it writes them as 2026-06-19): here is the tree today.';
export const DAY_OUT_OF_REACH = 'The tree has no growth to show on the day the address names: here is the tree today.';

/** The UTC day of a moment, as the address writes it: YYYY-MM-DD. */
export function replayDayOf(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}

/** The search part with the replay's day (null: none, the live tree), keeping every other parameter. */
export function formatReplayDay(currentSearch: string, time: number | null): string {
  const params = new URLSearchParams(currentSearch);
  if (time === null) params.delete('at');
  else params.set('at', replayDayOf(time));
  const search = params.toString();
  return search ? `?${search}` : '';
}
