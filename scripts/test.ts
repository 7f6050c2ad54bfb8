/**
 * `npm test`: the type check, then two lanes side by side: the guardrails (`npm run lint`) and the Node tests, and the
 * browser tests, which leave most of a core idle while Chromium renders. Arguments go to one plain `vitest run`.
 */
import { spawn } from 'node:child_process';

interface Step {
  label: string;
  command: string;
  args: string[];
}

const npx = (...args: string[]): Step => ({ label: args.join(' '), command: 'npx', args });
const TYPECHECK = npx('tsc', '--noEmit');
const LINT: Step = { label: 'npm run lint', command: 'npm', args: ['run', '--silent', 'lint'] };
const NODE_TESTS = npx('vitest', 'run', '--project', 'unit', '--project', 'server');
const BROWSER_TESTS = npx('vitest', 'run', '--project', 'e2e');

/** Runs one step with its output's lines prefixed by `prefix` (none when alone); resolves to its exit code. */
function run(step: Step, prefix = ''): Promise<number> {
  console.log(`${prefix}> ${step.label}`);
  const child = spawn(step.command, step.args, {
    stdio: ['ignore', prefix ? 'pipe' : 'inherit', prefix ? 'pipe' : 'inherit'],
  });
  for (const [stream, out] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ] as const) {
    let rest = '';
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) out.write(`${prefix}${line}\n`);
    });
    stream?.on('end', () => rest && out.write(`${prefix}${rest}\n`));
  }
  return new Promise((resolve) => child.on('close', (code) => resolve(code ?? 1)));
}

/** Runs the steps one after another, each whatever the one before did (so one run shows every failure). */
async function lane(prefix: string, steps: Step[]): Promise<number> {
  let first = 0;
  for (const step of steps) {
    const code = await run(step, prefix);
    if (code !== 0) console.log(`${prefix}${step.label} failed (exit ${code})`);
    if (first === 0) first = code;
  }
  return first;
}

const args = process.argv.slice(2);
let code = await run(TYPECHECK);
if (code === 0 && args.length > 0) code = await run(npx('vitest', 'run', ...args));
else if (code === 0) {
  const codes = await Promise.all([lane('[node] ', [LINT, NODE_TESTS]), lane('[browser] ', [BROWSER_TESTS])]);
  code = codes.find((c) => c !== 0) ?? 0;
  console.log(code === 0 ? 'All checks passed.' : 'Some checks failed: see the lines above.');
}
process.exit(code);
