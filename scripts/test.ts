/**
 * `npm test`: two lanes side by side, each step timed: the type check, the guardrails (`npm run lint`) and the Node
 * tests (unit, component, server on SQLite and again on PostgreSQL) side by side in one, the browser tests in the
 * other. With arguments: the type check, then one plain `vitest run` of them.
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import { stripVTControlCharacters } from 'node:util';

interface Step {
  label: string;
  command: string;
  args: string[];
}

const npx = (...args: string[]): Step => ({ label: args.join(' '), command: 'npx', args });
const TYPECHECK = npx('tsc', '--noEmit');
const LINT: Step = { label: 'npm run lint', command: 'npm', args: ['run', '--silent', 'lint'] };
const NODE_TESTS = npx(
  'vitest',
  'run',
  ...['--project', 'unit', '--project', 'component', '--project', 'server', '--project', 'server-postgres'],
);
const BROWSER_TESTS = npx('vitest', 'run', '--project', 'e2e');

/**
 * The browser lane is the long one (Chromium draws WebGL in software and keeps a core and more busy), the Node lane
 * has minutes to spare: the Node lane's processes yield the CPU to it. Nice values only lower a priority, so this
 * needs no rights; where it is refused, both lanes simply run at the same priority.
 */
const NODE_LANE_NICENESS = 10;

/**
 * How many of a failed step's last lines are printed again at the very end: vitest ends with its failures in full, and
 * a log that keeps only its tail (a CI page, a terminal's scroll-back) then still says what failed and why.
 */
const FAILURE_TAIL_LINES = 120;

/** The lines of passing tests and empty lines, left out of a failure's tail so that it shows the failure itself. */
const isPassingLine = (line: string) => /^\s*(✓.*)?$/u.test(stripVTControlCharacters(line));

interface Failure {
  label: string;
  code: number;
  tail: string[];
}
const failures: Failure[] = [];

/** Runs one step with its output's lines prefixed by `prefix` (none when alone); resolves to its exit code. */
function run(step: Step, prefix = '', niceness = 0): Promise<number> {
  console.log(`${prefix}> ${step.label}`);
  const started = performance.now();
  const child = spawn(step.command, step.args, {
    stdio: ['ignore', prefix ? 'pipe' : 'inherit', prefix ? 'pipe' : 'inherit'],
  });
  // Set before the step starts its own workers, which inherit it.
  if (niceness && child.pid) {
    try {
      os.setPriority(child.pid, niceness);
    } catch {
      // Not allowed here: the lanes share the CPU evenly instead.
    }
  }
  const tail: string[] = [];
  const keep = (line: string) => {
    if (isPassingLine(line)) return;
    tail.push(line);
    if (tail.length > FAILURE_TAIL_LINES) tail.shift();
  };
  for (const [stream, out] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ] as const) {
    let rest = '';
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        out.write(`${prefix}${line}\n`);
        keep(line);
      }
    });
    stream?.on('end', () => {
      if (!rest) return;
      out.write(`${prefix}${rest}\n`);
      keep(rest);
    });
  }
  return new Promise((resolve) =>
    child.on('close', (code) => {
      console.log(`${prefix}${step.label}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
      if (code !== 0) failures.push({ label: `${prefix}${step.label}`, code: code ?? 1, tail });
      resolve(code ?? 1);
    }),
  );
}

/**
 * Runs the steps one after another, each whatever the one before did (so one run shows every failure); the steps of a
 * group (an array) run side by side.
 */
async function lane(prefix: string, steps: (Step | Step[])[], niceness = 0): Promise<number> {
  let first = 0;
  const runOne = async (step: Step) => {
    const code = await run(step, prefix, niceness);
    if (code !== 0) console.log(`${prefix}${step.label} failed (exit ${code})`);
    return code;
  };
  for (const group of steps) {
    const codes = await Promise.all((Array.isArray(group) ? group : [group]).map(runOne));
    if (first === 0) first = codes.find((code) => code !== 0) ?? 0;
  }
  return first;
}

const args = process.argv.slice(2);
const started = performance.now();
let code: number;
if (args.length > 0) {
  code = await run(TYPECHECK);
  if (code === 0) code = await run(npx('vitest', 'run', ...args));
} else {
  const codes = await Promise.all([
    // The type check and the guardrails side by side with the Node tests, which spend much of their time waiting on
    // real time (leases, shutdown limits, delivery by real processes): run before them, the two held the Node lane
    // about 200 s on CI's two cores, and it was the longer lane.
    lane('[node] ', [[TYPECHECK, LINT, NODE_TESTS]], NODE_LANE_NICENESS),
    lane('[browser] ', [BROWSER_TESTS]),
  ]);
  code = codes.find((c) => c !== 0) ?? 0;
  const took = `${((performance.now() - started) / 1000).toFixed(0)} s`;
  for (const failure of failures) {
    console.log(
      `\n${failure.label} failed (exit ${failure.code}); the end of what it printed, passing tests left out:`,
    );
    for (const line of failure.tail) console.log(`  ${line}`);
  }
  console.log(
    code === 0
      ? `All checks passed in ${took}.`
      : `Some checks failed (${took}): ${failures.map((f) => f.label.trim()).join(', ')}.`,
  );
}
process.exit(code);
