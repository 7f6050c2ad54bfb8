/** GET /api/tree/{treeToken}/history: the growth history the replay plays (shared/tree/history.ts). */
import { apiHeaders } from '#client/api/initial-params.ts';
import type { TreeHistoryWire } from '#shared/tree/history.ts';

export async function fetchTreeHistory(treeToken: string, signal?: AbortSignal): Promise<TreeHistoryWire> {
  const response = await fetch(`/api/tree/${encodeURIComponent(treeToken)}/history`, {
    headers: { ...apiHeaders(), Accept: 'application/json' },
    credentials: 'same-origin',
    signal,
  });
  if (!response.ok) throw new Error(`The tree's history could not be loaded (HTTP ${response.status}).`);
  return ((await response.json()) as { r: TreeHistoryWire }).r;
}

/** First and last publish the history names (Unix ms); null when it names none. */
export function historySpan(history: TreeHistoryWire): { start: number; end: number } | null {
  if (history.count === 0) return null;
  let steps = 0;
  for (let k = 0; k < history.count; k++) steps += history.time[k]!;
  return { start: history.start + history.time[0]! * history.step, end: history.start + steps * history.step };
}
