/** Where `value` is in `sorted` (ascending) between the indices `from` and `to` (inclusive), or -1. */
export function bisect(sorted: ArrayLike<number>, value: number, from = 0, to = sorted.length - 1): number {
  let low = from;
  let high = to;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const found = sorted[middle]!;
    if (found === value) return middle;
    if (found < value) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}
