/**
 * The benchmarks' server: tests/bench/server-process.ts (the real app over a prepared data folder) in its own
 * process, pinned to one core (or to several, as taskset takes them: '0-1'), listening on 127.0.0.1 (on `port` when
 * given, else a free one).
 * BENCH_PROFILE=<folder> makes it write a CPU profile there when it stops.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { PROJECT_ROOT } from '../helpers/paths.ts';

/** A server that has not said where it listens by then is taken as stuck, so that a benchmark cannot hang on it. */
const START_TIMEOUT_MS = 120_000;
/** A server still running this long after SIGTERM is killed. */
const STOP_TIMEOUT_MS = 10_000;

export function startBenchServer(
  dir: string,
  core: number | string,
  env: Record<string, string> = {},
  port?: number,
): Promise<{ child: ChildProcess; url: string }> {
  const profile = process.env.BENCH_PROFILE
    ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(process.env.BENCH_PROFILE)]
    : [];
  const child = spawn(
    'taskset',
    [
      '-c',
      String(core),
      process.execPath,
      ...profile,
      '--import',
      'tsx',
      'tests/bench/server-process.ts',
      dir,
      ...(port === undefined ? [] : [String(port)]),
    ],
    {
      cwd: PROJECT_ROOT,
      env: { ...process.env, LOG_LEVEL: 'warn', NODE_ENV: 'production', HOST: '127.0.0.1', ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the bench server did not start within ${START_TIMEOUT_MS / 1000} s`));
    }, START_TIMEOUT_MS);
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (!line) return;
      clearTimeout(timer);
      resolve({ child, url: (JSON.parse(line) as { url: string }).url });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the bench server exited with ${code}`));
    });
  });
}

/** Stops a bench server and waits until it has exited (SIGKILL if SIGTERM is not enough); safe to call twice. */
export async function stopBenchServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}
