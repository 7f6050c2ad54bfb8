/** Running wrk for the server benchmark: the command pinned to a core, and its report parsed into numbers. */
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';

export interface WrkResult {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  /** Non-2xx/3xx answers plus socket errors. */
  errors: number;
  /** CPU time the server process spent per request (user + system), in microseconds: steadier than req/s on a busy machine. */
  cpuUsPerRequest: number;
}

export const WRK = '/usr/bin/wrk';

/** A tool the benchmark needs is not installed: told in one line, without a stack trace. */
export class MissingToolError extends Error {}

/** Stops the benchmark with one line when wrk or taskset is missing. */
export function requireTools(): void {
  if (!fs.existsSync(WRK))
    throw new MissingToolError(
      'wrk is not installed: install it with `sudo apt-get install wrk` (Debian/Ubuntu), then run again.',
    );
  if (spawnSync('taskset', ['-V']).error)
    throw new MissingToolError(
      'taskset is not installed: install it with `sudo apt-get install util-linux`, then run again.',
    );
}

function milliseconds(value: string, unit: string): number {
  const n = Number(value);
  return unit === 'us' ? n / 1000 : unit === 's' ? n * 1000 : unit === 'm' ? n * 60_000 : n;
}

const CLOCK_TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** CPU seconds (user + system) a process has used so far, from /proc. */
export function cpuSecondsOf(pid: number): number {
  const fields = fs
    .readFileSync(`/proc/${pid}/stat`, 'utf8')
    .replace(/^.*\) /, '')
    .split(' ');
  // After "pid (comm) ", utime and stime are the 12th and 13th fields.
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}

export function parseWrk(out: string): Omit<WrkResult, 'cpuUsPerRequest'> {
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(out);
  const requests = /(\d+) requests in/.exec(out);
  if (!rps || !requests) throw new Error(`wrk said something unexpected:\n${out}`);
  const percentile = (p: number) => {
    const match = new RegExp(`^\\s+${p}%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, 'm').exec(out);
    return match ? milliseconds(match[1]!, match[2]!) : NaN;
  };
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const socketErrors = socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0;
  return {
    rps: Number(rps[1]),
    p50: percentile(50),
    p99: percentile(99),
    requests: Number(requests[1]),
    errors: non2xx + socketErrors,
  };
}

export interface WrkRun {
  url: string;
  connections: number;
  seconds: number;
  headers?: Record<string, string>;
  /** A Lua script file for wrk -s. */
  script?: string;
  /** The core wrk runs on, or cores as taskset takes them ('0-1'). */
  core: number | string;
  /** The server's process id, to measure its CPU time per request. */
  serverPid: number;
}

/**
 * Waits until the server has been idle for a while (under 5% of a core over 250 ms, at most 5 s): work left over
 * from the previous run (queued argon2 hashes after a login run, a collection) would otherwise land in the first
 * second of the next one and in its p99.
 */
export async function waitUntilIdle(serverPid: number): Promise<void> {
  const deadline = Date.now() + 5000;
  while (Date.now() < deadline) {
    const before = cpuSecondsOf(serverPid);
    await new Promise((resolve) => setTimeout(resolve, 250));
    if (cpuSecondsOf(serverPid) - before < 0.0125) return;
  }
}

const execFileAsync = promisify(execFile);

/** Seconds a wrk run may overrun its duration before it is killed (its requests time out after 10 s). */
const WRK_GRACE_SECONDS = 30;

async function wrkReport(run: WrkRun): Promise<string> {
  const args = [
    '-c',
    String(run.core),
    WRK,
    '-t1',
    `-c${run.connections}`,
    `-d${run.seconds}s`,
    '--latency',
    '--timeout',
    '10s',
  ];
  for (const [name, value] of Object.entries(run.headers ?? {})) args.push('-H', `${name}: ${value}`);
  if (run.script) args.push('-s', run.script);
  args.push(run.url);
  const { stdout } = await execFileAsync('taskset', args, {
    encoding: 'utf8',
    maxBuffer: 16 * 2 ** 20,
    timeout: (run.seconds + WRK_GRACE_SECONDS) * 1000,
    killSignal: 'SIGKILL',
  });
  return stdout;
}

export function runWrk(run: WrkRun): Promise<WrkResult> {
  return runWrkTogether([run]);
}

/**
 * Several wrk runs at the same time, counted as one load: req/s, requests and errors summed, the worse p50 and p99
 * of the runs, and server CPU summed over the distinct server processes (two runs against one server count its CPU
 * once).
 */
export async function runWrkTogether(runs: WrkRun[]): Promise<WrkResult> {
  const pids = [...new Set(runs.map((run) => run.serverPid))];
  const serverCpuSeconds = () => pids.reduce((sum, pid) => sum + cpuSecondsOf(pid), 0);
  const cpuBefore = serverCpuSeconds();
  const results = (await Promise.all(runs.map(wrkReport))).map(parseWrk);
  const cpuSeconds = serverCpuSeconds() - cpuBefore;
  const total = (pick: (r: (typeof results)[number]) => number) => results.reduce((sum, r) => sum + pick(r), 0);
  const requests = total((r) => r.requests);
  return {
    rps: total((r) => r.rps),
    p50: Math.max(...results.map((r) => r.p50)),
    p99: Math.max(...results.map((r) => r.p99)),
    requests,
    errors: total((r) => r.errors),
    cpuUsPerRequest: (cpuSeconds * 1e6) / Math.max(1, requests),
  };
}
