/**
 * `npm run mutation [-- FILE…]`: StrykerJS over the pure rules in shared/ (decision 035), against the `unit` Vitest
 * project alone (tests/mutation/vitest.config.ts: no server, no browser). Each mutant is a small change to the code
 * (a `<` made `<=`, a condition made `true`, a string emptied); a test that fails on it kills it, one it survives
 * shows behaviour no test holds. Writes the score of each file to bench/results/mutation.{json,md}, as the
 * benchmarks do, and Stryker's browsable report to reports/mutation/mutation.html. With files named, only those
 * are mutated and bench/results/ is left alone. MUTATION_CONCURRENCY sets the number of test processes (2).
 */
import os from 'node:os';
import path from 'node:path';
import { Stryker } from '@stryker-mutator/core';
import { PROJECT_ROOT } from '../helpers/paths.ts';
import { writeResults, type Row } from '../bench/results.ts';

type StrykerOptions = ConstructorParameters<typeof Stryker>[0];
type MutantResult = Awaited<ReturnType<Stryker['runMutationTest']>>[number];

/**
 * What is mutated: rules whose tests run in the `unit` project. The five of decision 035 first; then the permission
 * table and the reservation calendar (held to MORE_TARGET). Left out: shared/validation beside rules.ts (its schemas
 * are tested through the server, tests/server), the rate limits (kept in the database: tests/server), the reference
 * lists, and modules of types and constants only. The calendar is found by name, wherever server/services keeps it.
 */
const MUTATED = [
  'shared/time-zone.ts',
  'shared/validation/rules.ts',
  'shared/tree/camera.ts',
  'shared/tree/changes.ts',
  'shared/tree/geometry.ts',
  'shared/permissions.ts',
  'server/services/**/reservation-time.ts',
];

/** The files held to MORE_TARGET instead of TARGET. */
const MORE = ['shared/permissions.ts', 'reservation-time.ts'];
const MORE_TARGET = 85;

/** The score each mutated file must reach (decision 035); the run exits 1 below it. */
const TARGET = 92;

const named = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
const concurrency = Number(process.env.MUTATION_CONCURRENCY ?? 2);

const options: StrykerOptions = {
  testRunner: 'vitest',
  vitest: { configFile: 'tests/mutation/vitest.config.ts' },
  mutate: named.length > 0 ? named : MUTATED,
  // Each mutant runs only the tests that reached its code in the first, unmutated run.
  coverageAnalysis: 'perTest',
  // A mutant that makes a loop endless is stopped at its tests' time × 1.5 + this. Generous: the machine is shared,
  // and a mutant stopped only because the machine was busy would count as detected.
  timeoutMS: 15_000,
  concurrency,
  // What the sandbox copy of the project leaves out (nothing the unit tests import), anchored at the root.
  ignorePatterns: ['/dist', '/data', '/bench', '/docs', '/coverage', '/reports', '/test-results', '/.scratch'],
  reporters: ['html', 'json', 'progress'],
  thresholds: { high: TARGET, low: 85, break: null },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};

process.chdir(PROJECT_ROOT);
const started = performance.now();
const results = await new Stryker(options).runMutationTest();
const seconds = (performance.now() - started) / 1000;

interface Tally {
  mutants: number;
  killed: number;
  timeout: number;
  survived: number;
  noCoverage: number;
  ignored: number;
  errors: number;
}

const empty = (): Tally => ({ mutants: 0, killed: 0, timeout: 0, survived: 0, noCoverage: 0, ignored: 0, errors: 0 });

function count(tally: Tally, result: MutantResult): void {
  tally.mutants++;
  if (result.status === 'Killed') tally.killed++;
  else if (result.status === 'Timeout') tally.timeout++;
  else if (result.status === 'Survived') tally.survived++;
  else if (result.status === 'NoCoverage') tally.noCoverage++;
  else if (result.status === 'Ignored') tally.ignored++;
  else tally.errors++;
}

/** Stryker's mutation score: detected mutants (killed or timed out) among those that could be (not ignored, no errors). */
function score(t: Tally): number {
  const valid = t.killed + t.timeout + t.survived + t.noCoverage;
  return valid === 0 ? 100 : (100 * (t.killed + t.timeout)) / valid;
}

const byFile = new Map<string, Tally>();
const total = empty();
for (const result of results) {
  const file = path.relative(PROJECT_ROOT, path.resolve(result.fileName));
  if (!byFile.has(file)) byFile.set(file, empty());
  count(byFile.get(file)!, result);
  count(total, result);
}

const row = (file: string, t: Tally): Row => ({
  file,
  mutants: t.mutants,
  killed: t.killed,
  timeout: t.timeout,
  survived: t.survived,
  'no coverage': t.noCoverage,
  ignored: t.ignored,
  errors: t.errors,
  'score %': Number(score(t).toFixed(1)),
});
const rows = [...byFile].sort(([a], [b]) => a.localeCompare(b)).map(([file, t]) => row(file, t));
rows.push(row('all', total));

const survivors = results
  .filter((r) => r.status === 'Survived' || r.status === 'NoCoverage')
  .map((r) => {
    const where = `${path.relative(PROJECT_ROOT, path.resolve(r.fileName))}:${r.location.start.line}`;
    return `${r.status === 'Survived' ? 'survived' : 'not covered'}: ${where} ${r.mutatorName} → \`${r.replacement ?? ''}\``;
  });
const targetOf = (file: string) => (MORE.some((end) => file.endsWith(end)) ? MORE_TARGET : TARGET);
const below = [...byFile].filter(([file, t]) => score(t) < targetOf(file)).map(([file]) => file);
const notes = [
  `${total.mutants} mutants in ${seconds.toFixed(0)} s with ${concurrency} test process${concurrency === 1 ? '' : 'es'} on ${os.cpus().length} cores` +
    ' (the unit project, per-test coverage).',
  `Target: ${TARGET} % on each file, ${MORE_TARGET} % on ${MORE.join(' and ')}; ignored = equivalent mutants,` +
    ' marked in the source with a reason.',
  ...survivors,
];

if (named.length === 0) {
  console.log(writeResults('mutation', 'Mutation testing of the shared rules (StrykerJS)', rows, notes));
} else {
  console.table(rows);
  for (const note of notes) console.log(note);
}
if (below.length > 0) {
  console.error(`Below target: ${below.join(', ')}.`);
  process.exit(1);
}
