/**
 * For the engines benchmark: reservations over HTTP from a few members at a time, as fast as the server answers
 * (fetch keeps its connections alive). Each request is a fresh member reserving a fresh square; it runs for a time or
 * until the pairs run out, and answers every request's latency, the writes a second and the answers other than 200.
 */
import type { Pair } from './engines-reservers.ts';
import { cpuSecondsOf } from './wrk.ts';

export interface ReserveResult {
  /** Per request, ms, client side (successes and failures). */
  latencies: number[];
  ok: number;
  errors: number;
  /** The first few failures: status and the start of the body. */
  errorSample: string[];
  seconds: number;
  writesPerSecond: number;
  /** The app server's CPU per request (user + system), µs; NaN when its process id was not given. */
  cpuUsPerRequest: number;
}

export async function reserveLoad(run: {
  url: string;
  pairs: readonly Pair[];
  concurrency: number;
  seconds: number;
  serverPid?: number;
}): Promise<ReserveResult> {
  const latencies: number[] = [];
  const errorSample: string[] = [];
  let ok = 0;
  let errors = 0;
  let next = 0;
  const cpuBefore = run.serverPid === undefined ? NaN : cpuSecondsOf(run.serverPid);
  const started = performance.now();
  const deadline = started + run.seconds * 1000;
  await Promise.all(
    Array.from({ length: run.concurrency }, async () => {
      while (performance.now() < deadline && next < run.pairs.length) {
        const pair = run.pairs[next++]!;
        const t0 = performance.now();
        let status = 0;
        let body = '';
        try {
          const res = await fetch(`${run.url}/api/cell/${pair.square}/reserve`, {
            method: 'POST',
            headers: pair.headers,
          });
          status = res.status;
          body = await res.text();
        } catch (error) {
          body = String(error);
        }
        latencies.push(performance.now() - t0);
        if (status === 200) ok++;
        else {
          errors++;
          if (errorSample.length < 3) errorSample.push(`${status} ${body.slice(0, 300)}`);
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpu = run.serverPid === undefined ? NaN : cpuSecondsOf(run.serverPid) - cpuBefore;
  return {
    latencies,
    ok,
    errors,
    errorSample,
    seconds,
    writesPerSecond: ok / seconds,
    cpuUsPerRequest: (cpu * 1e6) / Math.max(1, latencies.length),
  };
}
