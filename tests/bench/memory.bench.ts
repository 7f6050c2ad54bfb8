/**
 * `npm run bench -- memory`: the real server's resident memory (`npm start`'s, worker threads counted) over
 * a 1,000,000-cell tree (`BENCH_CELLS` shrinks it; `BENCH_10M=1` adds ten million beside it), sampled from /proc every 20 ms from launch through start-up, a
 * first snapshot as the page asks for it, the opening page (its sketch), the history, steady state once the build
 * worker has ended, and last the JSON form an API reader asks for.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { trees } from '#drizzle/schema.ts';
import { SNAPSHOT_BINARY_TYPE } from '#shared/tree/snapshot-type.ts';
import { closeDatabase, openDatabase } from '#server/db.ts';
import { PROJECT_ROOT } from '../helpers/paths.ts';
import { generatedTree } from './generated-tree.ts';
import { writeResults, type Row } from './results.ts';
import { benchSizes, TEN_MILLION } from './sizes.ts';

const CELLS = Number(process.env.BENCH_CELLS ?? 1_000_000);
const SAMPLE_MS = 20;
/** The build worker ends 30 s after its last build; steady state is read after that. */
const SETTLE_MS = 40_000;
/** Steady and peak targets (MB) by tree size: a million cells, and ten million (decision 045). */
const TARGETS: Record<number, { steady: number; peak: number }> = {
  [TEN_MILLION]: { steady: 512, peak: 768 },
};
const DEFAULT_TARGET = { steady: 256, peak: 384 };

const rssMb = (pid: number): number => {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
  } catch {
    return 0;
  }
};
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const mb = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 0 });

/** `npm run bench -- memory`: over BENCH_CELLS (a million by default), and ten million beside it with BENCH_10M=1. */
export async function benchMemory(): Promise<string> {
  const rows: Row[] = [];
  for (const cells of benchSizes(CELLS)) rows.push(...(await memoryOver(cells)));
  return writeResults(
    'memory',
    `Server memory over ${benchSizes(CELLS).map(cellCount).join(' and ')}-cell trees`,
    rows,
    [
      `The real server (scripts/start.ts --no-build, SEED=none, LOG_LEVEL=warn) over a copy of a generated tree, its VmRSS read from /proc every ${SAMPLE_MS} ms (the process's whole resident memory: the main thread, the build worker while it lives, native memory).`,
      "Peak and steady are a visitor's way through: the snapshot as the page asks for it (binary), the opening page, the history. The JSON form, which API readers get, is made from the binary one on the main thread when first asked for and kept beside it; it is asked for last, after the steady state, and reported on its own row.",
      'Before 2026-11-25 the builds read every cell as an object: the same run at a million cells peaked at about 800 MB (a history build alone took its process to 423 MB) and stayed near 240 MB. Before decision 045 a ten-million-cell tree peaked at 1,001 MB (the builds made their JSON through arrays of numbers and strings).',
    ],
  );
}

const cellCount = (cells: number) => cells.toLocaleString('en-US');

async function memoryOver(cells: number): Promise<Row[]> {
  const target = TARGETS[cells] ?? DEFAULT_TARGET;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gallery-bench-memory-'));
  fs.copyFileSync(await generatedTree(cells), path.join(dir, 'gallery.db'));
  const db = openDatabase(path.join(dir, 'gallery.db'));
  const tree = db.select({ token: trees.token }).from(trees).get()!;
  closeDatabase(db);

  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts', '--no-build'], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, DATA_DIR: dir, PORT: '0', SEED: 'none', LOG_LEVEL: 'warn', NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const pid = child.pid!;
  const phases: { name: string; peak: number; end: number }[] = [];
  let current = { name: 'start-up (migrations, listening)', peak: 0, end: 0 };
  const sampler = setInterval(() => {
    const now = rssMb(pid);
    current.peak = Math.max(current.peak, now);
    current.end = now;
  }, SAMPLE_MS);
  const phase = async (name: string, work: () => Promise<unknown>) => {
    phases.push(current);
    current = { name, peak: 0, end: 0 };
    await work();
  };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /is running at (http:\/\/\S+) /.exec(out);
        if (match) resolve(match[1]!.replace('localhost', '127.0.0.1'));
      });
      child.once('exit', (code) => reject(new Error(`the server exited with ${code}`)));
    });
    const get = async (route: string, headers: Record<string, string> = {}) => {
      const res = await fetch(url + route, { headers });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${route} answered ${res.status}`);
    };
    await phase('first snapshot as the page asks for it (binary, built by the worker)', () =>
      get(`/api/tree/${tree.token}`, { accept: SNAPSHOT_BINARY_TYPE, 'accept-encoding': 'br' }),
    );
    await phase('the opening page (its sketch) and the growth history', async () => {
      await get(`/observe`);
      await get(`/api/tree/${tree.token}/history`, { 'accept-encoding': 'br' });
      await sleep(5000);
    });
    const steadySamples: number[] = [];
    await phase('idle until the worker has ended', () => sleep(SETTLE_MS));
    await phase('steady state (median of 5 s)', async () => {
      for (let i = 0; i < 50; i++) {
        steadySamples.push(rssMb(pid));
        await sleep(100);
      }
    });
    const visitorsPeak = Math.max(...[...phases, current].map((p) => p.peak));
    // An API reader's JSON form, made from the binary one when first asked for and then kept with it.
    await phase('the JSON form as an API reader asks for it, then 5 s', async () => {
      await get(`/api/tree/${tree.token}`, { 'accept-encoding': 'br' });
      await sleep(5000);
    });
    phases.push(current);
    clearInterval(sampler);
    const peak = visitorsPeak;
    const steady = median(steadySamples);
    const withJson = phases.at(-1)!;
    return [
      ...phases.map((p) => ({
        cells: cellCount(cells),
        measure: `${p.name}: peak / at its end (MB)`,
        result: `${mb(p.peak)} / ${mb(p.end)}`,
        target: '',
        met: '',
      })),
      {
        cells: cellCount(cells),
        measure: 'peak resident memory, worker threads counted (MB)',
        result: mb(peak),
        target: `≤ ${target.peak}`,
        met: peak <= target.peak ? 'yes' : 'NO',
      },
      {
        cells: cellCount(cells),
        measure: 'steady resident memory (MB)',
        result: mb(steady),
        target: `≤ ${target.steady}`,
        met: steady <= target.steady ? 'yes' : 'NO',
      },
      {
        cells: cellCount(cells),
        measure: 'with the JSON form asked for as well: peak / kept after (MB)',
        result: `${mb(withJson.peak)} / ${mb(withJson.end)}`,
        target: `≤ ${target.peak} / ≤ ${target.steady}`,
        met: withJson.peak <= target.peak && withJson.end <= target.steady ? 'yes' : 'NO',
      },
    ];
  } finally {
    clearInterval(sampler);
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
