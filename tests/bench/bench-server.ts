/**
 * The benchmarks' server: tests/bench/server-process.ts (the real app over a prepared data folder) in its own
 * process, pinned to one core. BENCH_PROFILE=<folder> makes it write a CPU profile there when it stops.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { PROJECT_ROOT } from '../e2e/paths.ts';

export function startBenchServer(dir: string, core: number, env: Record<string, string> = {}): Promise<{ child: ChildProcess; url: string }> {
  const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(process.env.BENCH_PROFILE)] : [];
  const child = spawn('taskset', ['-c', String(core), process.execPath, ...profile, '--import', 'tsx', 'tests/bench/server-process.ts', dir], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve({ child, url: (JSON.parse(line) as { url: string }).url });
    });
    child.once('exit', (code) => reject(new Error(`the bench server exited with ${code}`)));
  });
}
