/**
 * The tree sizes a benchmark runs at: its own (a million cells, or `BENCH_CELLS`), and ten million beside it when
 * `BENCH_10M=1` (decision 045). Opt-in, because a ten-million-cell tree takes about three minutes to generate.
 */
export const TEN_MILLION = 10_000_000;

export function benchSizes(own: number): number[] {
  return process.env.BENCH_10M === '1' && own !== TEN_MILLION ? [own, TEN_MILLION] : [own];
}
