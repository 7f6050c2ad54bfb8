/**
 * A database holding only a synthetic tree of `cells` cells, for the benchmarks that run the real server over one
 * (live, memory, audience). Generated once per size and generator (a million cells take minutes on a busy machine)
 * and kept in the temporary folder; each run works on a copy.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { closeDatabase, openDatabase } from '#server/db.ts';
import { generateSyntheticTree } from '#server/seed/synthetic.ts';
import { PROJECT_ROOT } from '../helpers/paths.ts';

/** The kept database's path (generated first when missing): copy it, never open it in place. */
export async function generatedTree(cells: number): Promise<string> {
  const sources = [
    'server/seed/synthetic.ts',
    ...fs.readdirSync(path.join(PROJECT_ROOT, 'migrations')).map((f) => `migrations/${f}`),
  ];
  const hash = createHash('sha256');
  for (const source of sources.sort()) {
    const full = path.join(PROJECT_ROOT, source);
    if (fs.statSync(full).isFile()) hash.update(fs.readFileSync(full));
  }
  const template = path.join(os.tmpdir(), `gallery-bench-live-${cells}-${hash.digest('hex').slice(0, 12)}.db`);
  if (fs.existsSync(template)) return template;
  const partial = `${template}.partial`;
  fs.rmSync(partial, { force: true });
  const db = openDatabase(partial);
  const started = performance.now();
  await generateSyntheticTree(db, { cells });
  closeDatabase(db);
  fs.renameSync(partial, template);
  for (const suffix of ['-wal', '-shm']) fs.rmSync(partial + suffix, { force: true });
  console.log(
    `bench: ${cells.toLocaleString('en-US')} cells generated in ${((performance.now() - started) / 1000).toFixed(1)} s (kept as ${template})`,
  );
  return template;
}
