/**
 * For the engines benchmark: reservations over HTTP, either from a few members at a time as fast as the server answers
 * (a closed loop: its latency is mostly the queue the members make), or at a set rate whatever the answers (an open
 * loop: the latency of a write while the server sustains that rate). fetch keeps its connections alive. Each request
 * is a fresh member reserving a fresh square; it runs for a time or until the pairs run out, and answers every
 * request's latency, the writes a second and the answers other than 200.
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
  /** Members at once, each sending its next request when its last is answered. */
  concurrency: number;
  /** Instead: requests started at this rate (a second), each on time whether or not the ones before were answered. */
  ratePerSecond?: number;
  seconds: number;
  serverPid?: number;
}): Promise<ReserveResult> {
  const latencies: number[] = [];
  const errorSample: string[] = [];
  let ok = 0;
  let errors = 0;
  let next = 0;
  const reserve = async (pair: Pair) => {
    const t0 = performance.now();
    let status = 0;
    let body = '';
    try {
      const res = await fetch(`${run.url}/api/cell/${pair.square}/reserve`, { method: 'POST', headers: pair.headers });
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
  };
  const cpuBefore = run.serverPid === undefined ? NaN : cpuSecondsOf(run.serverPid);
  const started = performance.now();
  const deadline = started + run.seconds * 1000;
  if (run.ratePerSecond) {
    const interval = 1000 / run.ratePerSecond;
    const sent: Promise<void>[] = [];
    for (let i = 0; i < run.pairs.length; i++) {
      const due = started + i * interval;
      if (due >= deadline) break;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      sent.push(reserve(run.pairs[i]!));
    }
    await Promise.all(sent);
  } else {
    await Promise.all(
      Array.from({ length: run.concurrency }, async () => {
        while (performance.now() < deadline && next < run.pairs.length) await reserve(run.pairs[next++]!);
      }),
    );
  }
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
