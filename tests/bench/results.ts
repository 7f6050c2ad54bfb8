/** Writes a benchmark's results as JSON and a markdown table under bench/results/. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../helpers/paths.ts';

export type Row = Record<string, string | number>;

export function writeResults(name: string, title: string, rows: Row[], notes: string[] = []): string {
  const dir = path.join(PROJECT_ROOT, 'bench/results');
  fs.mkdirSync(dir, { recursive: true });
  const machine = `${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
  const when = new Date().toISOString();
  fs.writeFileSync(
    path.join(dir, `${name}.json`),
    JSON.stringify({ name, title, when, machine, rows, notes }, null, 2) + '\n',
  );
  const columns = Object.keys(rows[0] ?? {});
  const table = [
    `| ${columns.join(' | ')} |`,
    `| ${columns.map(() => '---').join(' | ')} |`,
    ...rows.map((row) => `| ${columns.map((c) => String(row[c])).join(' | ')} |`),
  ].join('\n');
  const markdown = `# ${title}\n\n${when} · ${machine}\n\n${table}\n${notes.map((n) => `\n- ${n}`).join('')}\n`;
  fs.writeFileSync(path.join(dir, `${name}.md`), markdown);
  return markdown;
}

export function ms(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** The p-th percentile of `values` (nearest rank; NaN when empty). */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
