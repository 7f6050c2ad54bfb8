/** The replay's day in the address, for the control and its bar alike. */
import { DAY_MS } from '#shared/durations.ts';
import { formatReplayDay, TREE_PAGE_PATH } from '#shared/tree/tree-url.ts';

/** The last millisecond of a moment's UTC day: what `?at=` of that day shows, so a paused view and its link agree. */
export function endOfDay(time: number): number {
  return Math.floor(time / DAY_MS) * DAY_MS + DAY_MS - 1;
}

/** Writes the replay's day into the address in place (null: the live tree, no `at`). */
export function writeDay(time: number | null): void {
  if (window.location.pathname !== TREE_PAGE_PATH) return;
  const search = formatReplayDay(window.location.search, time);
  if (search !== window.location.search)
    window.history.replaceState(
      window.history.state,
      '',
      `${window.location.pathname}${search}${window.location.hash}`,
    );
}
