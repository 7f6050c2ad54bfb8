/**
 * Compares two JSON values by shape, not by value: the same keys and the same kind of value (string, number, boolean,
 * null, list, object) at every level, so a documented example and a live answer can be held side by side.
 */

type Kind = 'string' | 'number' | 'boolean' | 'null' | 'list' | 'object';

export function kindOf(value: unknown): Kind {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'list';
  return typeof value as Kind;
}

/**
 * Where `live` departs from `documented`, one line each ("r.art.title: missing from the live answer"). Lists: every
 * live item must have the shape of some documented item and the reverse, and neither list may be empty alone (an
 * empty list on one side leaves the other side's items unchecked).
 */
export function shapeDifferences(documented: unknown, live: unknown, at = '$'): string[] {
  const kinds = [kindOf(documented), kindOf(live)];
  if (kinds[0] !== kinds[1]) return [`${at}: documented ${kinds[0]}, live ${kinds[1]}`];
  if (kinds[0] === 'list') return listDifferences(documented as unknown[], live as unknown[], at);
  if (kinds[0] === 'object')
    return objectDifferences(documented as Record<string, unknown>, live as Record<string, unknown>, at);
  return [];
}

function objectDifferences(documented: Record<string, unknown>, live: Record<string, unknown>, at: string): string[] {
  const problems: string[] = [];
  for (const key of Object.keys(documented)) {
    if (!(key in live)) problems.push(`${at}.${key}: missing from the live answer`);
    else problems.push(...shapeDifferences(documented[key], live[key], `${at}.${key}`));
  }
  for (const key of Object.keys(live))
    if (!(key in documented)) problems.push(`${at}.${key}: in the live answer but not documented`);
  return problems;
}

function listDifferences(documented: unknown[], live: unknown[], at: string): string[] {
  if (documented.length === 0 && live.length === 0) return [];
  if (documented.length === 0) return [`${at}: documented as an empty list, live has items`];
  if (live.length === 0) return [`${at}: the live list is empty, so the documented items cannot be checked`];
  const matches = (item: unknown, among: unknown[]) =>
    among.some((other) => shapeDifferences(other, item).length === 0);
  const problems: string[] = [];
  live.forEach((item, i) => {
    if (!matches(item, documented)) problems.push(...shapeDifferences(documented[0], item, `${at}[${i}]`));
  });
  documented.forEach((item, i) => {
    if (!matches(item, live)) problems.push(`${at}[${i}]: documented item with no live item of its shape`);
  });
  return problems;
}

/** Every object key of a value, with where it sits, for naming rules. */
export function keysOf(value: unknown, at = '$'): { key: string; at: string }[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => keysOf(item, `${at}[${i}]`));
  if (kindOf(value) !== 'object') return [];
  return Object.entries(value as Record<string, unknown>).flatMap(([key, item]) => [
    { key, at: `${at}.${key}` },
    ...keysOf(item, `${at}.${key}`),
  ]);
}
