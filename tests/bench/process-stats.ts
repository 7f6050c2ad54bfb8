/**
 * A server process's CPU time and memory as the benchmarks read them from /proc (live, audience): every thread
 * counted, from the scheduler's nanosecond count per thread rather than /proc/<pid>/stat's 10 ms ticks.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { percentile } from './results.ts';

/** /proc/<pid>/stat counts user and system time in clock ticks. */
const TICK_MS = 1000 / Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());
const threadNs = new Map<string, number>();

/**
 * The process's CPU time so far (ms, every thread: the event loop, libuv's pool, V8's helpers, the snapshot worker),
 * its resident memory (bytes), and its user and system time (ms, in ticks). A thread that ends (the snapshot worker,
 * when idle) keeps the time last seen for it.
 */
export function processStats(pid: number): { cpuMs: number; rss: number; userMs: number; systemMs: number } {
  for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      threadNs.set(
        `${pid}/${task}`,
        Number(fs.readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]),
      );
    } catch {
      // A thread that ended between the listing and the read.
    }
  }
  let ns = 0;
  for (const [key, value] of threadNs) if (key.startsWith(`${pid}/`)) ns += value;
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
  return {
    cpuMs: ns / 1e6,
    rss: rssKb * 1024,
    userMs: Number(fields[11]) * TICK_MS,
    systemMs: Number(fields[12]) * TICK_MS,
  };
}

/** Over `seconds`: the process's CPU time used, and its median resident memory sampled every second (GC makes one sample noisy). */
export async function sampleFor(pid: number, seconds: number): Promise<{ cpuMs: number; rss: number }> {
  const first = processStats(pid);
  const rss: number[] = [];
  for (let i = 0; i < seconds; i++) {
    await sleep(1000);
    rss.push(processStats(pid).rss);
  }
  return { cpuMs: processStats(pid).cpuMs - first.cpuMs, rss: percentile(rss, 50) };
}
