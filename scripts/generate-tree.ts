/**
 * `npm run generate -- --cells 100000 [--data-dir DIR]`: adds a synthetic tree of exactly that many cells to the
 * database in DATA_DIR (or DIR), for benchmarks, and says how to open it. SQLite only: with DATABASE_URL set it
 * refuses and says how to bring such a tree to PostgreSQL.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from '#server/config.ts';
import { closeDatabase, ensureWritableDir, openDatabase } from '#server/db.ts';
import { generateSyntheticTree, MAX_SYNTHETIC_CELLS } from '#server/seed/synthetic.ts';
import { StartupError } from '#server/startup-error.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const USAGE = 'Usage: npm run generate -- --cells N [--data-dir DIR]';

class UsageError extends Error {}

function parseCells(raw: string | undefined): number {
  if (raw === undefined) throw new UsageError(`--cells is required. ${USAGE}`);
  const cells = /^\d+$/.test(raw.replace(/[_,]/g, '')) ? Number(raw.replace(/[_,]/g, '')) : NaN;
  if (!Number.isSafeInteger(cells) || cells < 1 || cells > MAX_SYNTHETIC_CELLS) {
    throw new UsageError(
      `--cells must be a whole number from 1 to ${MAX_SYNTHETIC_CELLS.toLocaleString('en-US')}, not "${raw}".`,
    );
  }
  return cells;
}

/** Draws `[#####.....] 58% 580,000/1,000,000 cells  3.1s` in place on a terminal; a line every 10% otherwise. */
function progressReporter(started: number): (done: number, total: number) => void {
  const tty = process.stderr.isTTY;
  let lastTenth = 0;
  return (done, total) => {
    const share = done / total;
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const counts = `${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')} cells`;
    if (tty) {
      const width = 30;
      const filled = Math.round(share * width);
      const bar = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${String(Math.floor(share * 100)).padStart(3)}% ${counts}  ${seconds}s`;
      process.stderr.write(`\r${bar}${done === total ? '\n' : ''}`);
      return;
    }
    const tenth = Math.floor(share * 10);
    if (tenth > lastTenth) {
      lastTenth = tenth;
      process.stderr.write(`${tenth * 10}% ${counts}  ${seconds}s\n`);
    }
  };
}

try {
  const { values } = parseArgs({
    options: { cells: { type: 'string' }, 'data-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const cells = parseCells(values.cells);
  const env = values['data-dir'] ? { ...process.env, DATA_DIR: values['data-dir'] } : process.env;
  const config = loadConfig(env, root);
  if (config.databaseUrl) {
    throw new UsageError(
      'Cannot generate: this gallery runs on PostgreSQL (DATABASE_URL), and npm run generate writes into the SQLite ' +
        'file of DATA_DIR. To try a large tree on PostgreSQL, generate it without DATABASE_URL into an empty DATA_DIR, ' +
        'then copy that gallery into an empty database with npm run migrate-to-postgres (README, Moving to PostgreSQL).',
    );
  }
  ensureWritableDir(config.dataDir, 'data folder');
  const db = openDatabase(config.databaseFile);
  try {
    const started = performance.now();
    const result = await generateSyntheticTree(db, { cells, onProgress: progressReporter(started) });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      `Generated a tree of ${result.cells.toLocaleString('en-US')} cells in ${seconds} s (${config.databaseFile}).`,
    );
    console.log(`Tree token: ${result.treeToken}`);
    console.log(`Open it at ${config.siteUrl}/observe?tree=${result.treeToken}`);
  } finally {
    closeDatabase(db);
  }
} catch (error) {
  if (error instanceof UsageError || error instanceof StartupError || error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  if (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS')) {
    console.error(`${error.message}. ${USAGE}`);
    process.exit(1);
  }
  throw error;
}
