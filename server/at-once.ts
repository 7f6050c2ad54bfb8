/**
 * Runs `work` on every item, at most `limit` at a time, the next item taken as one finishes; answers the results in
 * the items' order. For work bounded by something other than the event loop: cores (sharp), or a store's round trips.
 */
export async function mapAtOnce<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
